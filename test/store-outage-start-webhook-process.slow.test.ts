/**
 * The built bot over a Redis of the test's own, reached through a proxy the
 * test owns, so an outage can hit at a known moment: during the start (after
 * the store was opened, before "started"), and in BOT_MODE=webhook while
 * Telegram posts updates. The process must not exit and must lose no update.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { killGroup, startBotProcess, type BotProcess } from "./support/bot-process.js";
import { ownRedis, redisServerMissing, type OwnRedis } from "./support/redis-server.js";
import { tcpProxy, type TcpProxy } from "./support/tcp-proxy.js";
import { waitUntil } from "./support/wait.js";

const missing = redisServerMissing();
if (missing) console.warn(`store-outage-start-webhook-process.slow.test: skipped: ${missing}`);

const SECRET = "webhook-secret-of-the-test";

let tg: FakeTelegram;
let sim: Simulator;
const bots: BotProcess[] = [];
const servers: OwnRedis[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  if (missing) return;
  tg = await startFakeTelegram();
  sim = await startSimulator();
});

afterEach(async () => {
  for (const bot of bots.splice(0)) killGroup(bot);
  for (const proxy of proxies.splice(0)) await proxy.close();
  for (const server of servers.splice(0)) await server.kill();
});

afterAll(async () => {
  await tg?.close();
  await sim?.stop();
});

/** A fresh redis-server and a proxy in front of it (not started: the test starts it). */
async function redisBehindProxy(stopOnceWhenSent?: string): Promise<{ proxy: TcpProxy; url: string }> {
  const server = await ownRedis();
  servers.push(server);
  await server.start();
  const proxy = await tcpProxy({ host: "127.0.0.1", port: server.port }, stopOnceWhenSent === undefined ? {} : { stopOnceWhenSent });
  proxies.push(proxy);
  return { proxy, url: `redis://127.0.0.1:${proxy.port}` };
}

function bot(storageUrl: string, extra: Record<string, string> = {}): BotProcess {
  const run = startBotProcess({ token: tg.token, apiRoot: tg.apiRoot, serviceBaseUrl: sim.baseUrl, storageUrl, extra: { LOG_LEVEL: "debug", ...extra } });
  bots.push(run);
  return run;
}

const said = (run: BotProcess, msg: string) => run.logs().filter((l) => l.msg === msg);
const alive = (run: BotProcess) => run.child.exitCode === null && run.child.signalCode === null;
const stillAlive = (run: BotProcess) => {
  if (!alive(run)) throw new Error(`the bot exited:\n${run.output()}`);
};

describe.skipIf(missing !== undefined)("the bot process and a store outage at the edges", () => {
  // Cut at the confirmation recovery's first read, the outage meets the start at one step or another: a step that needs the
  // store fails the start (undone and made again once the store is back), a step that runs in the background tells it
  // through the store watch and the start goes on. The BullMQ workers' connections may be in their set-up then; a worker
  // whose set-up failed must not run (its fetch loop would spin on the kept failure without ever yielding).
  it("the store goes away during the start (after it was opened): the bot says so once, does not exit, and serves /start once the store is back", async () => {
    const { proxy, url } = await redisBehindProxy("pending-confirmations");
    await proxy.start();
    const run = bot(url);
    const cut = () => said(run, "store unreachable while starting; starting again once it is reachable");
    const waiting = () => said(run, "store unreachable; waiting for it");
    await waitUntil(() => (stillAlive(run), cut().length + waiting().length > 0), {
      what: "the outage in the log",
      timeoutMs: 60_000,
      intervalMs: 100,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}:\n${run.output()}`);
    });
    expect(alive(run)).toBe(true);

    await proxy.start();
    await waitUntil(async () => (stillAlive(run), (await run.readiness().catch(() => ({ status: 0 }))).status === 200), {
      what: `/readyz ready:\n${run.output()}`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const reply = tg.waitForBotMessage(7201, 30_000);
    tg.enqueue(tg.text(7201, "/start"));
    expect((await reply).text).toContain("User7201");

    // One warn line for the outage, whichever step it met.
    expect(cut().length + waiting().length).toBe(1);
    if (cut().length === 1) expect(said(run, "starting").length).toBeGreaterThanOrEqual(2);
    // Exactly one instance serves: one reply.
    expect(tg.botMessages(7201)).toHaveLength(1);
    expect(await run.stop()).toMatchObject({ code: 0 });
    expect(run.logs().filter((l) => l.level >= 60)).toEqual([]);
  }, 180_000);

  it("BOT_MODE=webhook with the store down: /telegram refuses the update (5xx, so Telegram sends it again), and the update sent again after the store is back is handled once", async () => {
    const { proxy, url } = await redisBehindProxy();
    await proxy.start();
    const run = bot(url, { BOT_MODE: "webhook", PUBLIC_URL: "https://bot.example.test", TELEGRAM_WEBHOOK_SECRET: SECRET });
    await waitUntil(async () => (stillAlive(run), (await run.readiness().catch(() => ({ status: 0 }))).status === 200), {
      what: `/readyz ready:\n${run.output()}`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    await waitUntil(() => tg.webhook().url === "https://bot.example.test/telegram", { what: "the webhook set", timeoutMs: 30_000, intervalMs: 100 });
    const port = await run.httpPort();
    const post = async (update: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}/telegram`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(20_000),
      });
      return r.status;
    };

    await proxy.stop();
    const update = tg.text(7202, "/start");
    // Telegram keeps an update until it gets a 2xx; whatever the bot answers while it cannot store it must not be one.
    const during = await post(update);
    expect(during).toBeGreaterThanOrEqual(500);
    expect(alive(run)).toBe(true);

    await proxy.start();
    // Telegram sends it again until it is taken (the first tries may meet the store still reconnecting).
    await waitUntil(async () => (stillAlive(run), (await post(update)) === 200), {
      what: `the update taken after the outage:\n${run.output()}`,
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const reply = await tg.waitForBotMessage(7202, 30_000);
    expect(reply.text).toContain("User7202");
    // Delivered once more (Telegram's answer was lost, say): acknowledged, not handled again.
    expect(await post(update)).toBe(200);
    const second = tg.text(7202, "/start");
    const next = tg.waitForBotMessage(7202, 30_000, (m) => m.messageId !== reply.messageId);
    expect(await post(second)).toBe(200);
    await next;
    expect(tg.botMessages(7202)).toHaveLength(2);
    expect(await run.stop()).toMatchObject({ code: 0 });
  }, 180_000);
});
