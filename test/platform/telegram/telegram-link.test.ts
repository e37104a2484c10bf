/**
 * src/platform/telegram/telegram-link.ts on a real grammY Bot and @grammyjs/runner, over
 * loopback: Telegram going away mid-run (the fake Bot API closed), a Bot API
 * that accepts connections and never answers, and a token refused with 401.
 * Every failure is one warn line naming the API root, never the token.
 */
import { createServer, type Server, type Socket } from "node:net";
import { run } from "@grammyjs/runner";
import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, GrammyError } from "grammy";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../src/platform/logger.js";
import { apiSignal, createTelegramLink } from "../../../src/platform/telegram/telegram-link.js";
import { startFakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: "info", destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } });
  return { logger, lines, warns: () => lines.filter((l) => l["level"] === 40) };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function botFor(token: string, apiRoot: string, link: ReturnType<typeof createTelegramLink>): Bot {
  const bot = new Bot(token, { client: { apiRoot } });
  bot.api.config.use(link.transformer);
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 10 }));
  return bot;
}

describe("the Telegram link", () => {
  it("says when polling loses Telegram, naming the API root, retries with growing pauses, and stops at once when asked", async () => {
    const tg = await startFakeTelegram();
    const { logger, warns } = capture();
    const link = createTelegramLink({ apiRoot: tg.apiRoot, token: tg.token, logger, minDelayMs: 20, maxDelayMs: 40 });
    const bot = botFor(tg.token, tg.apiRoot, link);
    const runner = run(bot, { runner: { silent: true } });
    cleanups.push(() => (runner.isRunning() ? runner.stop() : undefined));
    await vi.waitFor(() => expect(tg.callsOf("getUpdates").length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(link.state()).toBe("ok");

    await tg.close();
    await vi.waitFor(() => expect(warns().filter((l) => l["method"] === "getUpdates").length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    const lost = warns().filter((l) => l["method"] === "getUpdates");
    expect(lost[0]).toMatchObject({ component: "telegram", apiRoot: tg.apiRoot, attempt: 1, retryInMs: 20 });
    expect(String(lost[0]!["msg"]).startsWith(`Telegram unreachable at ${tg.apiRoot} (getUpdates: `)).toBe(true);
    // The poll in flight is cut (ECONNRESET); the next attempts find nobody listening.
    expect(String(lost[2]!["reason"])).toContain("ECONNREFUSED");
    expect(lost.slice(0, 3).map((l) => l["retryInMs"])).toEqual([20, 40, 40]);
    expect(JSON.stringify(lost)).not.toContain(tg.token.split(":")[1]);
    expect(link.state()).toBe("down");

    await runner.stop();
    expect(runner.isRunning()).toBe(false);
  });

  it("a Bot API that never answers is reported after the call budget, not grammY's 500 s", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => void sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => silent.close(() => r()));
    });
    const apiRoot = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const token = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const { logger, warns } = capture();
    const link = createTelegramLink({ apiRoot, token, logger, minDelayMs: 10, maxDelayMs: 10, callTimeoutMs: 200 });
    const bot = botFor(token, apiRoot, link);
    const stop = new AbortController();
    const init = bot.init(apiSignal(stop.signal));
    await vi.waitFor(() => expect(warns().length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(warns()[0]).toMatchObject({ apiRoot, method: "getMe", attempt: 1, reason: "no answer within 0.2 s" });
    stop.abort();
    await expect(init).rejects.toThrow();
  });

  it("a logged grammY network error never carries the token (its fetch error quotes the request URL)", async () => {
    const { logger, lines } = capture();
    const token = "123456:CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC";
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const apiRoot = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await new Bot(token, { client: { apiRoot } }).api.sendMessage(1, "x").catch((e: unknown) => e);
    logger.warn({ err: error }, "send failed");
    const line = JSON.stringify(lines);
    expect(line).toContain("ECONNREFUSED");
    expect(line).toContain(`${apiRoot}/bot[redacted]/sendMessage`);
    expect(line).not.toContain("CCCCCCCCCCCCCCCCCCCC");
  });

  it("passes a 401 through untouched: the caller ends with 'Telegram refused BOT_TOKEN'", async () => {
    const tg = await startFakeTelegram();
    cleanups.push(() => tg.close());
    const wrong = `${tg.botInfo.id}:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB`;
    const { logger, warns } = capture();
    const link = createTelegramLink({ apiRoot: tg.apiRoot, token: wrong, logger });
    const error = await botFor(wrong, tg.apiRoot, link)
      .init()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(401);
    expect(warns()).toEqual([]);
    expect(link.state()).toBe("ok");
  });
});
