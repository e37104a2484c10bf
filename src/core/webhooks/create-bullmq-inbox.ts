import { createClient } from "@keyv/redis";
import { Queue, Worker } from "bullmq";
import { toBullJobId } from "../push/create-bullmq-push-queue.js";
import { inboxKey } from "./create-local-inbox.js";
import { createWebhookProcessor } from "./process-webhook.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;

/**
 * Scale-out inbox: any process may answer the webhook, any process may do
 * the work. Dedup is a Redis SET NX with a 24 h expiry (atomic across
 * processes); the jobId is the same key, a second guard. BullMQ keeps the
 * job until it is processed and retries it with backoff.
 */
export function createBullmqInbox(deps: WebhookInboxDeps & { redisUrl: string }): WebhookInbox {
  const name = deps.name ?? "webhook";
  const dedupTtl = deps.dedupTtlMs ?? DAY_MS;
  const log = deps.logger.child({ module: "webhook-inbox", queue: "bullmq" });
  const processWebhook = createWebhookProcessor(deps);
  const client = createClient({ url: deps.redisUrl });
  client.on("error", (err: unknown) => log.warn({ err }, "redis client error"));
  let connecting: Promise<unknown> | undefined;
  let queue: Queue | undefined;
  let worker: Worker | undefined;

  async function ready(): Promise<Queue> {
    connecting ??= client.connect();
    await connecting;
    queue ??= new Queue(name, { connection: client });
    return queue;
  }

  return {
    async accept(item) {
      const q = await ready();
      const key = inboxKey(item.chatId, item.deliveryId);
      const first = await client.set(`bull:${name}:seen:${key}`, String(item.receivedAt), {
        condition: "NX",
        expiration: { type: "PX", value: dedupTtl },
      });
      if (first === null) return "duplicate";
      const ageSec = Math.ceil(dedupTtl / 1000);
      await q.add("webhook", item, {
        jobId: toBullJobId(key),
        attempts: deps.maxAttempts ?? 8,
        backoff: { type: "exponential", delay: deps.baseDelayMs ?? 1_000, jitter: 0.2 },
        removeOnComplete: { age: ageSec },
        removeOnFail: { age: ageSec },
      });
      deps.metrics?.inc("webhooks_total", { outcome: "accepted" });
      return "accepted";
    },
    async start() {
      if (worker) return;
      await ready();
      worker = new Worker(name, (job) => processWebhook(job.data as InboxItem), { connection: client, concurrency: 8 });
      worker.on("failed", (job, err) => log.warn({ err, attempts: job?.attemptsMade }, "webhook processing failed"));
      worker.on("error", (err) => log.warn({ err }, "bullmq worker error"));
    },
    async stop() {
      const w = worker;
      worker = undefined;
      await w?.close();
      await queue?.close();
      queue = undefined;
      if (connecting) {
        connecting = undefined;
        await client.close().catch(() => undefined);
      }
    },
    async size() {
      const counts = await (await ready()).getJobCounts("waiting", "delayed", "active", "prioritized");
      return Object.values(counts).reduce((a, b) => a + b, 0);
    },
  };
}
