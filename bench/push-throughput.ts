/**
 * What the push queue costs over sending directly: N sendMessage calls to a
 * fake Bot API with its rate limits off, spread over many private chats,
 * with the same number of sends in flight. The queue's own Telegram limits
 * are lifted too, so the figure is its bookkeeping (store writes per job,
 * per-chat ordering, delivered-id memory), not its pacing.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { Api } from "grammy";
import { pino } from "pino";
import { createPushQueue, type PushJob, type PushQueueDeps } from "../src/platform/push/index.js";
import { openStore } from "../src/platform/store/open-store.js";
import { startFakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { measureAsync, rows } from "./throughput.js";

const LIMITS_OFF = { globalPerSecond: 1_000_000, perChatPerSecond: 1_000_000, perGroupPerMinute: 1_000_000, marginMs: 0 };

export interface PushBenchOptions {
  messages: number;
  chats: number;
  concurrency: number;
  /** Fewer for BullMQ: its limiter admits at most one job per millisecond even with limits off. */
  bullmqMessages: number;
  /** Also runs the BullMQ queue (a queue name of its own, removed afterwards). */
  redisUrl?: string | undefined;
  /** Safety net per run. */
  timeoutMs: number;
}

export async function benchPush(options: PushBenchOptions): Promise<void> {
  const logger = pino({ level: "silent" });
  const tg = await startFakeTelegram();
  const chatIds = Array.from({ length: options.chats }, (_, i) => 1_000_000 + i);
  for (const id of chatIds) tg.addChat(id);
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const dir = mkdtempSync(join(tmpdir(), "bench-push-"));
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  const baseline = `api.sendMessage loop, ${options.concurrency} in flight`;
  const run = randomBytes(4).toString("hex");

  /** Enqueues every job, then waits until the last one was delivered; one row for the whole run. */
  async function throughQueue(name: string, count: number, deps: Partial<PushQueueDeps>): Promise<void> {
    let delivered = 0;
    const queue = createPushQueue({
      store,
      logger,
      limits: LIMITS_OFF,
      concurrency: options.concurrency,
      transport: (job) => api.raw[job.method](job.params as never),
      onDelivered: () => {
        delivered += 1;
      },
      ...deps,
    });
    await queue.start();
    const jobs: PushJob[] = Array.from({ length: count }, (_, i) => {
      const chatId = chatIds[i % chatIds.length]!;
      return { id: `${run}:${name}:${i}`, chatId, method: "sendMessage", params: { chat_id: chatId, text: `Order ${i} is fulfilled` } };
    });
    try {
      const started = performance.now();
      for (const job of jobs) await queue.enqueue(job);
      const deadline = Date.now() + options.timeoutMs;
      while (delivered < jobs.length) {
        if (Date.now() > deadline) throw new Error(`${name}: ${delivered}/${jobs.length} delivered before the deadline`);
        await new Promise((r) => setTimeout(r, 2));
      }
      rows.push({ group: "push", name, ops: jobs.length, ms: performance.now() - started, baseline });
    } finally {
      await queue.stop();
    }
  }

  try {
    let i = 0;
    await measureAsync("push", baseline, options.messages, options.concurrency, () => {
      const chatId = chatIds[i++ % chatIds.length]!;
      return api.sendMessage(chatId, `Order ${i} is fulfilled`);
    });
    await throughQueue("push queue (local, SQLite store)", options.messages, { queue: "local", name: `bench-${run}` });
    if (options.redisUrl) {
      const name = `bench-push-${run}`;
      try {
        await throughQueue("push queue (BullMQ, Redis)", options.bullmqMessages, { queue: "bullmq", redisUrl: options.redisUrl, name });
      } finally {
        const client = createClient({ url: options.redisUrl });
        await client.connect();
        for await (const keys of client.scanIterator({ MATCH: `bull:${name}:*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
        await client.close();
      }
    }
  } finally {
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
