/**
 * The whole app (createApp from a Config parsed from environment variables)
 * against the fake Bot API (behind the sandbox's front, so a restarted app
 * may poll again at once) and the service simulator, over any store URL.
 * Used by test/app-{sqlite,redis,postgres}.test.ts.
 *
 * Isolation on shared servers: Redis gets a whole database index per run
 * (the app's namespaces and BullMQ queue names are fixed, so a key prefix
 * would not cover them), claimed with a key in the base database and flushed
 * afterwards; Postgres gets a table of its own (`?table=`), dropped afterwards.
 */
import { afterEach, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import type { Logger } from "pino";
import { createApp, type App } from "../src/app.js";
import { parseConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { createPgPool, leaseTableOf } from "../src/core/store/postgres-store.js";
import { startSimulator, type Simulator } from "../src/simulator/index.js";
import { startTelegramFront, type TelegramFront } from "../testkit/telegram-front.js";
import { startFakeTelegram, type FakeTelegram, type StoredMessage } from "../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "./support/wait.js";

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A store URL of this run's own, and how to remove every trace of it. */
export interface StoreTarget {
  url: string;
  cleanup(): Promise<void>;
}

export const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";

const runId = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

export function sqliteTarget(): StoreTarget {
  const dir = mkdtempSync(join(tmpdir(), "app-store-"));
  return {
    url: `sqlite://${join(dir, "bot.sqlite")}`,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

const CLAIM_PREFIX = "tron-energy-bot-test:db-claim:";
const CLAIM_TTL_SEC = 15 * 60;

/**
 * Claims a free, empty database index (1–15) of the Redis server behind
 * `baseUrl`. The claim is a key with a TTL in the base database, so a
 * crashed run frees its index by itself; a database that is not empty is
 * never taken (someone else's data, or leftovers to inspect).
 */
export async function claimRedisDb(baseUrl: string): Promise<StoreTarget & { db: number }> {
  const base = createClient({ url: baseUrl });
  await base.connect();
  const owner = runId();
  try {
    for (let db = 1; db <= 15; db += 1) {
      const claimed = await base.set(`${CLAIM_PREFIX}${db}`, owner, { condition: "NX", expiration: { type: "EX", value: CLAIM_TTL_SEC } });
      if (claimed === null) continue;
      const url = new URL(baseUrl);
      url.pathname = `/${db}`;
      const probe = createClient({ url: url.toString() });
      await probe.connect();
      const size = await probe.dbSize();
      if (size > 0) {
        await probe.close();
        await base.del(`${CLAIM_PREFIX}${db}`);
        continue;
      }
      return {
        url: url.toString(),
        db,
        async cleanup() {
          try {
            await probe.flushDb();
            await probe.close();
          } finally {
            const again = createClient({ url: baseUrl });
            await again.connect();
            if ((await again.get(`${CLAIM_PREFIX}${db}`)) === owner) await again.del(`${CLAIM_PREFIX}${db}`);
            await again.close();
          }
        },
      };
    }
  } finally {
    await base.close();
  }
  throw new Error("no free Redis database index (1–15) to run the app tests in");
}

/** A table of this run's own on the Postgres server behind `baseUrl`. */
export function postgresTarget(baseUrl: string): StoreTarget {
  const table = `app_test_${runId()}`;
  const url = new URL(baseUrl);
  url.searchParams.set("table", table);
  return {
    url: url.toString(),
    async cleanup() {
      const pool = createPgPool(baseUrl);
      try {
        // The store makes its leases table beside it (`leaseTableOf`): both are this run's.
        await pool.query(`DROP TABLE IF EXISTS public.${table}, public.${leaseTableOf(table)}`);
      } finally {
        await pool.end();
      }
    },
  };
}

/**
 * A gate after every test of the file: no error logged while it ran, so it
 * holds when a single test runs too (the first test also answers for beforeAll).
 */
export function failOnLoggedErrors(logs: () => readonly { level: number }[] | undefined): void {
  let seen = 0;
  afterEach(() => {
    const all = logs() ?? [];
    const errors = all.slice(seen).filter((l) => l.level >= 50);
    seen = all.length;
    expect(errors, "errors logged during this test").toEqual([]);
  });
}

/** Waits until `read` yields a value (a deadline as a safety net, never a timed assertion). */
export function waitFor<T>(read: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  return waitUntil(read, { what, timeoutMs });
}

export type AppWorld = Awaited<ReturnType<typeof startAppWorld>>;

/**
 * Fake Bot API + front + simulator + a demo account, and `startApp(env)`
 * building the app exactly as src/main.ts does. Every app started is stopped
 * by `close()`.
 */
export async function startAppWorld(options: { balanceSun?: number } = {}) {
  const tg: FakeTelegram = await startFakeTelegram();
  const front: TelegramFront = await startTelegramFront(tg);
  const sim: Simulator = await startSimulator({ orderStepMs: 40, broadcastStepMs: 40, webhookRetryBaseMs: 50 });
  const demo = sim.createAccount({ balanceSun: options.balanceSun ?? 1_000_000_000 });
  const encryptionKey = randomBytes(32).toString("base64");
  const logs: LogLine[] = [];
  const logger: Logger = createLogger({ level: "info", destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } });
  const apps = new Set<App>();

  const env = (storageUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: front.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: encryptionKey,
    STORAGE_URL: storageUrl,
    HTTP_PORT: "0",
    HTTP_HOST: "127.0.0.1",
    PUBLIC_URL: "https://bot.example.test",
    LOG_LEVEL: "info",
    ...extra,
  });

  async function startApp(storageUrl: string, extra: Record<string, string> = {}): Promise<App> {
    const app = await createApp({
      config: parseConfig(env(storageUrl, extra)),
      logger,
      overrides: {
        trackerMinDelayMs: 20,
        trackerMaxDelayMs: 200,
        topUpFirstDelayMs: 20,
        topUpMaxDelayMs: 200,
        // Telegram's storms are waited out on the same backoff curves, scaled down (production: 1 s and 3 s first waits).
        pushRetryBaseDelayMs: 50,
        pushRetryMaxDelayMs: 1_000,
        telegramServerErrorDelayMs: 50,
        // The fake Bot API enforces no limits here: a chat's announcements need not queue a second apart.
        pushLimits: { perChatPerSecond: 20, perGroupPerMinute: 1_200, marginMs: 0 },
      },
    });
    apps.add(app);
    await app.start();
    return app;
  }

  async function stopApp(app: App): Promise<void> {
    await app.stop();
    apps.delete(app);
  }

  /** Sends a text as the user and resolves with the first bot message matching `predicate`. */
  function say(chatId: number, text: string, predicate: (m: StoredMessage) => boolean = () => true): Promise<StoredMessage> {
    const reply = tg.waitForBotMessage(chatId, 20_000, predicate);
    front.enqueue(tg.text(chatId, text));
    return reply;
  }

  /** The current text of one message, edits included. */
  const textOf = (chatId: number, messageId: number): string => tg.view(chatId).find((m) => m.messageId === messageId)?.text ?? "";

  /** Bot messages (as they read now) whose text matches. */
  const botTexts = (chatId: number, pattern: RegExp): string[] => tg.botMessages(chatId).map((m) => m.text).filter((t) => pattern.test(t));

  /** /order → quote → Confirm; resolves once the quote message has become the order's card. */
  async function placeOrder(chatId: number): Promise<{ orderId: string; cardId: number }> {
    const quote = await say(chatId, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
    front.enqueue(tg.press(chatId, "✅ Confirm"));
    const card = await waitFor(() => /^Order ([0-9a-f]{24})/.exec(textOf(chatId, quote.messageId)) ?? undefined, "the order card");
    return { orderId: card[1]!, cardId: quote.messageId };
  }

  /** `/webhook` shows the chat's callback URL; returns its route id. */
  async function routeIdOf(chatId: number): Promise<string> {
    const shown = await say(chatId, "/webhook", (m) => m.text.includes("/hooks/"));
    const routeId = /\/hooks\/([A-Za-z0-9_-]{16,128})/.exec(shown.text)?.[1];
    if (!routeId) throw new Error(`no route id in ${JSON.stringify(shown.text)}`);
    return routeId;
  }

  /** An order placed straight at the service with the demo key: only a webhook can tell the chat. */
  async function orderBehindTheBotsBack(idempotencyKey: string): Promise<string> {
    const placed = await fetch(`${sim.baseUrl}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo.apiKey}`, "idempotency-key": idempotencyKey, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ toAddress: RECEIVER, amount: 65_000, resource: "ENERGY", durationSec: 3600 }] }),
    });
    if (placed.status !== 201) throw new Error(`order refused: ${placed.status} ${await placed.text()}`);
    const { orders } = (await placed.json()) as { orders: { orderId: string }[] };
    return orders[0]!.orderId;
  }

  async function close(): Promise<void> {
    for (const app of apps) await app.stop();
    apps.clear();
    await front.close();
    await tg.close();
    await sim.stop();
  }

  return { tg, front, sim, demo, encryptionKey, logs, logger, env, startApp, stopApp, say, textOf, botTexts, placeOrder, routeIdOf, orderBehindTheBotsBack, close };
}
