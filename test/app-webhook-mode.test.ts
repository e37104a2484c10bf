/**
 * BOT_MODE=webhook through the real app (createApp from a parsed Config):
 * the secret is registered with setWebhook, and /telegram takes updates only
 * with it. A forged `/link <attacker key>` must not link anybody's chat.
 * Telegram is answered once the update is stored, before a slow service call
 * ends, and a redelivered update is answered and dropped.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../src/app.js";
import { ConfigError, parseConfig } from "../src/config.js";
import { createLogger } from "../src/platform/logger.js";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";

const VICTIM = 7001;
const SECRET = randomBytes(24).toString("hex");

let tg: FakeTelegram;
let sim: Simulator;
let dir: string;
let app: App | undefined;
let env: Record<string, string>;
const levels: number[] = [];

beforeAll(async () => {
  tg = await startFakeTelegram();
  sim = await startSimulator();
  dir = mkdtempSync(join(tmpdir(), "app-webhook-"));
  env = {
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
    HTTP_PORT: "0",
    HTTP_HOST: "127.0.0.1",
    PUBLIC_URL: "https://bot.example.test",
    BOT_MODE: "webhook",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
  };
  const logger = createLogger({ level: "info", destination: { write: (line: string) => void levels.push((JSON.parse(line) as { level: number }).level) } });
  // One slow call must be able to take 12 s (longer than grammY's 10 s webhook timeout) and still succeed.
  app = await createApp({ config: parseConfig(env), logger, overrides: { serviceAttemptTimeoutMs: 30_000, serviceTotalTimeoutMs: 40_000 } });
  await app.start();
});

afterAll(async () => {
  await app?.stop();
  await tg?.close();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function post(update: object, secret?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (secret !== undefined) headers["x-telegram-bot-api-secret-token"] = secret;
  const res = await request(`http://127.0.0.1:${app!.httpPort}/telegram`, { method: "POST", headers, body: JSON.stringify(update) });
  return { status: res.statusCode, body: await res.body.text() };
}

async function postUpdate(update: object, secret?: string) {
  return (await post(update, secret)).status;
}

const systemReads = () => sim.requests.filter((r) => r.method === "GET" && r.path === "/v1/public/system").length;

describe("BOT_MODE=webhook", () => {
  it("will not start without TELEGRAM_WEBHOOK_SECRET", () => {
    const { TELEGRAM_WEBHOOK_SECRET: _, ...open } = env;
    expect(() => parseConfig(open)).toThrow(ConfigError);
    expect(() => parseConfig(open)).toThrow(/TELEGRAM_WEBHOOK_SECRET/);
  });

  it("registers the secret with setWebhook", () => {
    const [call] = tg.callsOf("setWebhook");
    expect(call?.params).toMatchObject({ url: "https://bot.example.test/telegram", secret_token: SECRET });
  });

  it("refuses a forged update without the secret or with a wrong one, and acts on none of them", async () => {
    tg.addChat(VICTIM);
    const attacker = sim.createAccount({ balanceSun: 1_000_000 });
    const forged = tg.text(VICTIM, `/link ${attacker.apiKey}`);
    expect(await postUpdate(forged)).toBe(401);
    expect(await postUpdate(forged, "")).toBe(401);
    expect(await postUpdate(forged, `${SECRET}x`)).toBe(401);
    expect(await postUpdate(forged, SECRET.slice(0, -1))).toBe(401);
    expect(tg.botMessages(VICTIM)).toEqual([]);
    expect(sim.requests.filter((r) => r.path.includes("/account"))).toEqual([]);
  });

  it("passes an update carrying the secret to the bot", async () => {
    const reply = tg.waitForBotMessage(VICTIM + 1, 15_000);
    tg.addChat(VICTIM + 1);
    expect(await postUpdate(tg.text(VICTIM + 1, "/start"), SECRET)).toBe(200);
    expect((await reply).text).toContain(`User${VICTIM + 1}`);
    expect(levels.filter((l) => l >= 50)).toEqual([]);
  });

  it("answers Telegram before a 12 s service call ends, and replies once although the update is delivered twice", async () => {
    const chat = VICTIM + 2;
    tg.addChat(chat);
    const readsBefore = systemReads();
    sim.faults.inject({ method: "GET", path: "/v1/public/system", kind: "delay", ms: 12_000, times: 1 });

    const update = tg.text(chat, "/system");
    const first = await post(update, SECRET);
    // Telegram's redelivery of the same update while the first is still being handled.
    const again = await post(update, SECRET);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(JSON.parse(first.body)).toMatchObject({ result: "accepted" });
    expect(JSON.parse(again.body)).toMatchObject({ result: "duplicate" });
    // Both answers came while the service was still holding the one call: it has not completed yet.
    expect(systemReads()).toBe(readsBefore);
    expect(tg.botMessages(chat)).toEqual([]);

    const reply = await tg.waitForBotMessage(chat, 40_000, (m) => m.text.startsWith("Service status"));
    expect(reply.text).toContain("Energy pools");
    // A third delivery after the handling: still the same update, still dropped.
    expect(JSON.parse((await post(update, SECRET)).body)).toMatchObject({ result: "duplicate" });
    expect(systemReads()).toBe(readsBefore + 1);
    expect(tg.botMessages(chat)).toHaveLength(1);
    expect(levels.filter((l) => l >= 50)).toEqual([]);
  }, 90_000);
});
