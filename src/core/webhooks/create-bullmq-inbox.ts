import { createBullmqConnection, toBullJobId } from "../queue/bullmq-connection.js";
import { inboxKey } from "./create-local-inbox.js";
import { createWebhookProcessor } from "./process-webhook.js";
import { readInboxItem } from "./inbox-item.js";
import type { WebhookInbox, WebhookInboxDeps } from "./types.js";

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
  const maxAttempts = deps.maxAttempts ?? 8;
  const log = deps.logger.child({ module: "webhook-inbox", queue: "bullmq" });
  const processWebhook = createWebhookProcessor(deps);
  const prefix = deps.bullPrefix ?? "bull";
  const bull = createBullmqConnection({ name, redisUrl: deps.redisUrl, logger: log, prefix });
  const seenKey = (key: string) => `${prefix}:${name}:seen:${key}`;

  return {
    async accept(item) {
      const [q, client] = await Promise.all([bull.queue(), bull.redis()]);
      const key = inboxKey(item.chatId, item.deliveryId);
      const first = await client.set(seenKey(key), String(item.receivedAt), {
        condition: "NX",
        expiration: { type: "PX", value: dedupTtl },
      });
      if (first === null) return "duplicate";
      const ageSec = Math.ceil(dedupTtl / 1000);
      try {
        await q.add("webhook", item, {
          jobId: toBullJobId(key),
          attempts: maxAttempts,
          backoff: { type: "exponential", delay: deps.baseDelayMs ?? 1_000, jitter: 0.2 },
          removeOnComplete: { age: ageSec },
          removeOnFail: { age: ageSec },
        });
      } catch (error) {
        // Not stored: forget the delivery id so the service's retry is not taken for a duplicate.
        await client.del(seenKey(key)).catch((err: unknown) => log.error({ err, deliveryId: item.deliveryId }, "could not release a delivery id"));
        throw error;
      }
      deps.metrics?.inc("webhooks_total", { outcome: "accepted" });
      return "accepted";
    },
    async start() {
      await bull.startWorker(
        async (job) => {
          const item = readInboxItem(job.data);
          if (item === undefined) {
            // Neither today's shape nor the one before: retrying cannot help.
            log.warn({ jobId: job.id }, "unreadable webhook job discarded");
            return;
          }
          try {
            await processWebhook(item);
          } catch (error) {
            const attempt = job.attemptsMade + 1;
            if (attempt >= maxAttempts) {
              log.error({ err: error, chatId: item.chatId, attempts: attempt }, "webhook processing failed; giving up");
              deps.metrics?.inc("webhooks_total", { outcome: "failed" });
            } else {
              log.warn({ err: error, attempts: attempt }, "webhook processing failed; will retry");
            }
            throw error;
          }
        },
        { concurrency: 8 },
      );
    },
    stop: () => bull.close(),
    size: () => bull.size(),
  };
}
