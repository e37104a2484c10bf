/** The BullMQ push queue over TEST_REDIS_URL and a fake Bot API with Telegram's limits: shared by the BullMQ push tests. */
import { createClient } from "@keyv/redis";
import { Api } from "grammy";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createPushQueue } from "../../../src/platform/push/create-push-queue.js";
import type { PushQueue, PushQueueDeps } from "../../../src/platform/push/types.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "../../support/wait.js";

export const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping BullMQ push queue tests: TEST_REDIS_URL is not set");

const logger = pino({ level: "silent" });
export const LIMITS = { globalPerSecond: 200, perChatPerSecond: 1, perGroupPerMinute: 20, marginMs: 40 };
/** BullMQ keeps its data in Redis; the store is only asked for its kind. */
const store = {
  kind: "redis",
  namespace: () => {
    throw new Error("unused");
  },
  ping: () => Promise.resolve(true),
  close: () => Promise.resolve(),
} as unknown as StoreBackend;

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await waitUntil(check, { timeoutMs });
}

export interface BullmqPushWorld {
  readonly tg: FakeTelegram;
  /** Queue names to clean up from Redis after the file. */
  readonly names: string[];
  pushQueue(name: string, extra?: Partial<PushQueueDeps>): PushQueue;
}

/** Call inside a describe: the fake Bot API for the file, queues stopped after each test, their Redis keys removed after the file. */
export function useBullmqPush(): BullmqPushWorld {
  const names: string[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  let tg: FakeTelegram;

  beforeAll(async () => {
    tg = await startFakeTelegram({ rateLimits: LIMITS });
  });
  afterEach(async () => {
    for (const s of stoppers.splice(0)) await s();
  });
  afterAll(async () => {
    await tg.close();
    const client = createClient({ url: REDIS_URL! });
    await client.connect();
    for (const name of names) {
      for await (const keys of client.scanIterator({ MATCH: `bull:${name}:*`, COUNT: 500 })) {
        if (keys.length > 0) await client.del(keys);
      }
    }
    await client.close();
  });

  function pushQueue(name: string, extra: Partial<PushQueueDeps> = {}): PushQueue {
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const q = createPushQueue({
      store,
      logger,
      queue: "bullmq",
      redisUrl: REDIS_URL!,
      name,
      transport: (job) => api.raw[job.method](job.params as never),
      limits: LIMITS,
      retry: { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 5 },
      ...extra,
    });
    stoppers.push(() => q.stop());
    return q;
  }

  return {
    get tg() {
      return tg;
    },
    names,
    pushQueue,
  };
}
