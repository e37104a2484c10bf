import { groupCalls } from "../group-calls.js";
import { createBullmqConnection, toBullJobId } from "../queue/bullmq-connection.js";
import { inboxKey } from "./create-local-inbox.js";
import { createWebhookProcessor } from "./process-webhook.js";
import { readInboxItem } from "./inbox-item.js";
import type { AcceptResult, InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;

/**
 * Scale-out inbox: any process may answer the webhook, any process may do
 * the work. Dedup is a Redis SET NX with a 24 h expiry (atomic across
 * processes); the jobId is the same key, a second guard. BullMQ keeps the
 * job until it is processed and retries it with backoff. Accepts arriving
 * together are grouped into one pipeline of SET NX and one bulk add.
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

  const ageSec = Math.ceil(dedupTtl / 1000);
  const jobOptions = {
    attempts: maxAttempts,
    backoff: { type: "exponential", delay: deps.baseDelayMs ?? 1_000, jitter: 0.2 },
    removeOnComplete: { age: ageSec },
    removeOnFail: { age: ageSec },
  };

  /** Accepts arriving together share two round trips: one pipeline of SET NX, one bulk add. */
  const accepts = groupCalls(async (batch: InboxItem[]): Promise<AcceptResult[]> => {
    const [q, client] = await Promise.all([bull.queue(), bull.redis()]);
    const keys = batch.map((item) => inboxKey(item.chatId, item.deliveryId));
    const claim = client.multi();
    for (const [i, key] of keys.entries()) {
      claim.set(seenKey(key), String(batch[i]!.receivedAt), { condition: "NX", expiration: { type: "PX", value: dedupTtl } });
    }
    const replies = await claim.execAsPipeline();
    // Two deliveries of one id in the same batch: only the first SET NX wins, the second is a duplicate.
    const fresh = keys.flatMap((key, i) => (replies[i] === null ? [] : [{ key, item: batch[i]! }]));
    if (fresh.length > 0) {
      try {
        await q.addBulk(fresh.map(({ key, item }) => ({ name: "webhook", data: item, opts: { ...jobOptions, jobId: toBullJobId(key) } })));
      } catch (error) {
        // Not stored: forget the delivery ids so the service's retries are not taken for duplicates.
        await client.del(fresh.map(({ key }) => seenKey(key))).catch((err: unknown) => log.error({ err, deliveries: fresh.length }, "could not release delivery ids"));
        throw error;
      }
      deps.metrics?.inc("webhooks_total", { outcome: "accepted" }, fresh.length);
    }
    return replies.map((reply): AcceptResult => (reply === null ? "duplicate" : "accepted"));
  }, { maxInFlight: 4 });

  return {
    accept: (item) => accepts.call(item),
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
    async stop() {
      await accepts.idle();
      await bull.close();
    },
    size: () => bull.size(),
  };
}
