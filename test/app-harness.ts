/**
 * The whole app (createApp from a Config parsed from environment variables)
 * against the fake Bot API (behind the sandbox's front, so a restarted app
 * may poll again at once) and the service simulator, over any store URL.
 * Used by test/app-{sqlite,redis,postgres}.test.ts.
 *
 * Isolation on shared servers: Redis runs in the database TEST_REDIS_URL names
 * under a key prefix of the run's own (STORAGE_PREFIX, which BullMQ's keys
 * honour too), whose keys alone are deleted afterwards; Postgres gets a table
 * of its own (`?table=`), dropped afterwards.
 */
import { afterEach, beforeEach, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import type { RedisClient } from "../src/platform/queue/bullmq-connection.js";
import type { Logger } from "pino";
import { createApp, type App, type AppDeps } from "../src/app.js";
import { parseConfig } from "../src/config.js";
import { createLogger } from "../src/platform/logger.js";
import { createPgPool, leaseTableOf } from "../src/platform/store/postgres-store.js";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startTelegramFront, type TelegramFront } from "../testkit/telegram-front.js";
import { startFakeTelegram, type FakeTelegram, type StoredMessage } from "../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "./support/wait.js";

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A store URL of this run's own (with the environment that keeps the app inside it), and how to remove every trace of it. */
export interface StoreTarget {
  url: string;
  /** More variables for the app (Redis: `STORAGE_PREFIX`). */
  env?: Record<string, string>;
  /** Redis: the prefix every key of the run starts with (`<prefix>/`). */
  prefix?: string;
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

/**
 * A key prefix of this run's own in the one Redis database `baseUrl` names (its path; 0 without
 * one): the app runs with `STORAGE_PREFIX=<prefix>` (`env`), so its records, leases and BullMQ
 * queues all start with `<prefix>/`. Nothing else of the database is read, flushed or deleted:
 * `cleanup` deletes the prefix's keys (SCAN MATCH `<prefix>/*`), then checks that a sentinel key
 * written outside the prefix at the start is still there, unchanged, and removes it.
 */
export async function redisTarget(baseUrl: string): Promise<StoreTarget & { prefix: string }> {
  const prefix = `t${runId()}`;
  const sentinel = `tron-energy-bot-test:sentinel:${prefix}`;
  const client = createClient({ url: baseUrl });
  await client.connect();
  try {
    await client.set(sentinel, prefix, { expiration: { type: "EX", value: 24 * 60 * 60 } });
  } finally {
    await client.close();
  }
  return {
    url: baseUrl,
    prefix,
    env: { STORAGE_PREFIX: prefix },
    async cleanup() {
      const again: RedisClient = createClient({ url: baseUrl });
      await again.connect();
      try {
        await deleteRedisKeys(again, `${prefix}/*`);
        const left = await again.get(sentinel);
        await again.del(sentinel);
        if (left !== prefix) throw new Error(`a key outside the test's prefix ${prefix}/ was changed or deleted during the run (sentinel ${sentinel})`);
      } finally {
        await again.close();
      }
    },
  };
}

/** Deletes the keys matching `pattern` (SCAN, never KEYS or FLUSHDB); how many. */
export async function deleteRedisKeys(client: RedisClient, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
    if (keys.length > 0) deleted += await client.unlink(keys);
  }
  return deleted;
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

/** Bounds, not expectations: a loaded 2-core machine can stall a whole app for many seconds. */
const APP_WAIT_MS = 60_000;

/** Waits until `read` yields a value (a deadline as a safety net, never a timed assertion). */
export function waitFor<T>(read: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = APP_WAIT_MS): Promise<T> {
  return waitUntil(read, { what, timeoutMs });
}

export type AppWorld = Awaited<ReturnType<typeof startAppWorld>>;

/**
 * Fake Bot API + front + simulator + a demo account, and `startApp(env)`
 * building the app exactly as src/main.ts does. Every app started is stopped
 * by `close()`.
 */
export async function startAppWorld(
  options: {
    balanceSun?: number;
    /** Default "info". */ logLevel?: string;
    /** The fake Bot API enforces Telegram's send limits (429 past them), and the app paces to production's limits. */
    telegramLimits?: boolean;
  } = {},
) {
  const tg: FakeTelegram = await startFakeTelegram(options.telegramLimits ? { rateLimits: true } : {});
  const front: TelegramFront = await startTelegramFront(tg);
  const sim: Simulator = await startSimulator({ orderStepMs: 40, broadcastStepMs: 40, webhookRetryBaseMs: 50 });
  const demo = sim.createAccount({ balanceSun: options.balanceSun ?? 1_000_000_000 });
  const encryptionKey = randomBytes(32).toString("base64");
  const logs: LogLine[] = [];
  const logger: Logger = createLogger({
    level: options.logLevel ?? "info",
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
  });
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

  /**
   * `target`: a store URL, or a StoreTarget whose `env` (a Redis run's STORAGE_PREFIX) comes with it.
   * `overrides` replace the test tuning below (e.g. `pushLimits` at Telegram's own, for a fake that enforces them).
   */
  async function startApp(target: string | StoreTarget, extra: Record<string, string> = {}, overrides: AppDeps["overrides"] = {}): Promise<App> {
    const storageUrl = typeof target === "string" ? target : target.url;
    const targetEnv = typeof target === "string" ? {} : (target.env ?? {});
    const app = await createApp({
      config: parseConfig(env(storageUrl, { ...targetEnv, ...extra })),
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
        // Unless asked to, the fake Bot API enforces no limits: a chat's messages need not queue a second apart.
        pushLimits: options.telegramLimits ? {} : { perChatPerSecond: 20, perGroupPerMinute: 1_200, marginMs: 0 },
        ...overrides,
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
    const reply = tg.waitForBotMessage(chatId, APP_WAIT_MS, predicate);
    front.enqueue(tg.text(chatId, text));
    return reply;
  }

  /** The current text of one message, edits included. */
  const textOf = (chatId: number, messageId: number): string => tg.view(chatId).find((m) => m.messageId === messageId)?.text ?? "";

  /** Bot messages (as they read now) whose text matches. */
  const botTexts = (chatId: number, pattern: RegExp): string[] =>
    tg
      .botMessages(chatId)
      .map((m) => m.text)
      .filter((t) => pattern.test(t));

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

  /** An order placed straight at the service with the demo key (or `apiKey`): only a webhook can tell the chat. */
  async function orderBehindTheBotsBack(idempotencyKey: string, apiKey = demo.apiKey): Promise<string> {
    const placed = await fetch(`${sim.baseUrl}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": idempotencyKey, "content-type": "application/json" },
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

  return {
    tg,
    front,
    sim,
    demo,
    encryptionKey,
    logs,
    logger,
    env,
    startApp,
    stopApp,
    say,
    textOf,
    botTexts,
    placeOrder,
    routeIdOf,
    orderBehindTheBotsBack,
    close,
  };
}

/** A world and a SQLite store per test, both closed after it; a test fails on any error the app logged. */
export function useSqliteAppWorld(options?: Parameters<typeof startAppWorld>[0]): { readonly w: AppWorld; readonly target: StoreTarget } {
  const current: { w?: AppWorld; target?: StoreTarget } = {};
  beforeEach(async () => {
    current.target = sqliteTarget();
    current.w = await startAppWorld(options);
  });
  afterEach(async () => {
    await current.w?.close();
    await current.target?.cleanup();
  });
  failOnLoggedErrors(() => current.w?.logs);
  return {
    get w() {
      return current.w!;
    },
    get target() {
      return current.target!;
    },
  };
}
