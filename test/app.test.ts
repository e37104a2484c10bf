/**
 * The whole app as src/main.ts builds it: createApp with a Config parsed from
 * environment variables (temp SQLite, the fake Bot API, the service
 * simulator, HTTP port 0), polling through @grammyjs/runner.
 *
 * The fake Bot API is reached through the sandbox's front
 * (testkit/telegram-front.ts): the fake keeps an abandoned long poll open
 * for its whole timeout and refuses the next getUpdates with 409, so a
 * restarted app would otherwise be refused; the front lets the newest poll
 * win, as Telegram does.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../src/app.js";
import { formatTrx } from "../src/bot/helpers/format.js";
import { parseConfig, type Config } from "../src/config.js";
import { createLogger } from "../src/platform/logger.js";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startTelegramFront, type TelegramFront } from "../testkit/telegram-front.js";
import { startFakeTelegram, type FakeTelegram, type StoredMessage } from "../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "./support/wait.js";

interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

const CHAT = 4242;
const BALANCE_SUN = 1_234_567_891; // 1,234.567891 TRX: every digit must survive
const ROOT = join(import.meta.dirname, "..");
/** /metrics is served on HTTP_PORT only behind a token. */
const METRICS_TOKEN = "app-test-metrics-token-0123";

let tg: FakeTelegram;
let front: TelegramFront;
let sim: Simulator;
let dir: string;
let env: Record<string, string>;
let demo: ReturnType<Simulator["createAccount"]>;
const logs: LogLine[] = [];
let logger: Logger;
let app: App | undefined;

function buildConfig(): Config {
  return parseConfig(env);
}

/** Sends a text as the user and resolves with the first bot message matching `predicate`. */
async function say(text: string, predicate: (m: StoredMessage) => boolean = () => true, chatId = CHAT): Promise<StoredMessage> {
  const reply = tg.waitForBotMessage(chatId, 15_000, predicate);
  front.enqueue(tg.text(chatId, text));
  return reply;
}

function waitFor<T>(read: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  return waitUntil(read, { what, timeoutMs });
}

beforeAll(async () => {
  tg = await startFakeTelegram();
  front = await startTelegramFront(tg);
  sim = await startSimulator({ orderStepMs: 40, broadcastStepMs: 40, webhookRetryBaseMs: 50 });
  demo = sim.createAccount({ balanceSun: BALANCE_SUN, depositAddress: "TMreuZFrWgyPxuS5ctzaqPKD21yEbbdW9H" });
  dir = mkdtempSync(join(tmpdir(), "app-test-"));
  env = {
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: front.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
    HTTP_PORT: "0",
    HTTP_HOST: "127.0.0.1",
    PUBLIC_URL: "https://bot.example.test",
    LOG_LEVEL: "info",
    METRICS_TOKEN,
  };
  logger = createLogger({ level: "info", destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } });
  app = await createApp({ config: buildConfig(), logger });
  await app.start();
});

afterAll(async () => {
  await app?.stop();
  await front?.close();
  await tg?.close();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the app as main.ts builds it (polling)", () => {
  it("registers the command menu and answers /start", async () => {
    const welcome = await say("/start");
    expect(welcome.text).toContain("User4242");
    expect(welcome.text).toContain("/link");
    expect(tg.commands("", "all_private_chats")?.map((c) => c.command)).toContain("balance");
    expect(tg.commands("ru", "all_private_chats")?.length).toBeGreaterThan(0);
  });

  it("links the chat with the demo key and shows the exact balance", async () => {
    const linked = await say(`/link ${demo.apiKey} ${demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    expect(linked.text).toContain("1,234.567891 TRX");
    // The message carrying the key is gone from the chat.
    expect(tg.view(CHAT).some((m) => m.text.includes(demo.apiKey))).toBe(false);
  });

  it("/balance shows the exact TRX amount and the deposit address as a QR photo", async () => {
    const balance = await say("/balance", (m) => m.text.includes("TRX"));
    expect(balance.text).toContain("1,234.567891 TRX");
    const photo = await waitFor(() => tg.botMessages(CHAT).find((m) => m.photo !== undefined && m.seq > balance.seq - 1), "the QR photo");
    // The address is in the text (one tap copies it); the photo carries it as a QR code.
    expect(balance.text).toContain("TMreuZFrWgyPxuS5ctzaqPKD21yEbbdW9H");
    expect(photo.photo?.bytes?.subarray(1, 4).toString()).toBe("PNG");
  });

  it("serves /healthz, /readyz and /metrics over HTTP", async () => {
    const health = await fetch(`http://127.0.0.1:${app!.httpPort}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", store: "ok" });
    const ready = await fetch(`http://127.0.0.1:${app!.httpPort}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", store: "ok", service: "ok", telegram: "ok" });
    const metrics = await fetch(`http://127.0.0.1:${app!.httpPort}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/text\/plain/);
    const body = await metrics.text();
    expect(body).toMatch(/bot_updates_total\{[^}]*\} [1-9]/);
    expect(body).toContain("service_calls_total");
    // The /link and /balance above each read GET /v1/balance: their latency is recorded.
    expect(body).toMatch(/service_call_duration_seconds_count\{[^}]*endpoint="GET \/v1\/balance"[^}]*\} [1-9]/);
    expect(body).toMatch(/service_call_duration_seconds_bucket\{(?=[^}]*le="\+Inf")(?=[^}]*endpoint="GET \/v1\/balance")[^}]*\} [1-9]/);
  });

  it("relays a signed webhook from the service to the chat", async () => {
    const shown = await say("/webhook", (m) => m.text.includes("/hooks/"));
    const routeId = /\/hooks\/([A-Za-z0-9_-]{16,128})/.exec(shown.text)?.[1];
    expect(routeId).toBeDefined();
    sim.setCallbackUrl(demo.apiKey, `http://127.0.0.1:${app!.httpPort}/hooks/${routeId!}`);

    // An order the bot never saw: only the webhook can tell the chat about it.
    const placed = await fetch(`${sim.baseUrl}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo.apiKey}`, "idempotency-key": "app-test-1", "content-type": "application/json" },
      body: JSON.stringify({ items: [{ toAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu", amount: 65_000, resource: "ENERGY", durationSec: 3600 }] }),
    });
    expect(placed.status).toBe(201);
    const { orders } = (await placed.json()) as { orders: { orderId: string }[] };
    const orderId = orders[0]!.orderId;

    const delivery = await waitFor(() => sim.webhookDeliveries.find((d) => d.event === "order.created" && d.status === 202), "an accepted delivery");
    expect(delivery.url).toBe(`http://127.0.0.1:${app!.httpPort}/hooks/${routeId!}`);
    const notice = await waitFor(
      () => tg.botMessages(CHAT).find((m) => m.text.includes(orderId.slice(0, 6)) || m.text.includes(orderId)),
      "a chat message about the order",
    );
    expect(notice.text).toMatch(/65,000/);
    const metrics = await (await fetch(`http://127.0.0.1:${app!.httpPort}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/webhooks_total\{outcome="accepted"\} [1-9]/);
  });

  it("stop() is idempotent, closes the HTTP port, and a restart over the same SQLite file keeps the link", async () => {
    const port = app!.httpPort;
    const first = app!.stop();
    const second = app!.stop();
    expect(second).toBe(first);
    await first;
    await app!.stop();
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();

    app = await createApp({ config: buildConfig(), logger });
    await app.start();
    const balance = await say("/balance", (m) => m.text.includes("TRX"));
    // The order of the webhook test was charged; the balance is read again, exactly.
    expect(balance.text).toContain(`${formatTrx(sim.balanceOf(demo.accountId), "en")} TRX`);
    expect(sim.balanceOf(demo.accountId)).toBeLessThan(BALANCE_SUN);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });

  it("leaves nothing running after stop(): a process that starts and stops the app exits by itself", async () => {
    // Its own Bot API: two pollers on one token would end each other's polls (409).
    const tg2 = await startFakeTelegram();
    const front2 = await startTelegramFront(tg2);
    // Builds the app from environment variables exactly as src/main.ts does (from the dist/ of the global setup, as
    // `npm start` runs it), starts it, stops it twice, and returns without process.exit. The process must then end on
    // its own: anything the app left open (sockets, timers, the SQLite handle's workers) would keep it alive.
    const script = `const { createApp } = await import("./dist/app.js");
const { loadConfig } = await import("./dist/config.js");
const { createLogger } = await import("./dist/platform/logger.js");
const config = loadConfig("/nonexistent/.env");
const app = await createApp({ config, logger: createLogger({ level: config.logLevel }) });
await app.start();
await app.stop();
await app.stop();
process.stdout.write("stopped\\n");
// Diagnostics only if something keeps the process alive (an unref'd timer does not).
setTimeout(() => process.stderr.write("still alive: " + JSON.stringify(process.getActiveResourcesInfo()) + "\\n"), 5_000).unref();`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        BOT_TOKEN: tg2.token,
        TELEGRAM_API_ROOT: front2.apiRoot,
        STORAGE_URL: `sqlite://${join(dir, "probe.sqlite")}`,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b.toString()));
    child.stderr.on("data", (b: Buffer) => (output += b.toString()));
    const exited = new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? -1)));
    // Loading the app takes long on a loaded machine: only what follows stop() has a deadline.
    await waitUntil(() => output.includes("stopped") || child.exitCode !== null, { what: "the child to start and stop the app", timeoutMs: 120_000 });
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve("still running 15 s after stop()");
        }, 15_000);
      }),
    ]);
    clearTimeout(timer);
    await front2.close();
    await tg2.close();
    expect({ code, output }).toMatchObject({ code: 0 });
    expect(tg2.callsOf("deleteWebhook").length).toBe(1);
    expect(output).toContain("stopped");
  }, 150_000);
});
