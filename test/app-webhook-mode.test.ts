/**
 * BOT_MODE=webhook through the real app (createApp from a parsed Config):
 * the secret is registered with setWebhook, and /telegram takes updates only
 * with it. A forged `/link <attacker key>` must not link anybody's chat.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../src/app.js";
import { ConfigError, parseConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { startSimulator, type Simulator } from "../src/simulator/index.js";
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
  app = await createApp({ config: parseConfig(env), logger });
  await app.start();
});

afterAll(async () => {
  await app?.stop();
  await tg?.close();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function postUpdate(update: object, secret?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (secret !== undefined) headers["x-telegram-bot-api-secret-token"] = secret;
  const res = await request(`http://127.0.0.1:${app!.httpPort}/telegram`, { method: "POST", headers, body: JSON.stringify(update) });
  await res.body.dump();
  return res.statusCode;
}

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
});
