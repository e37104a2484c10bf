import { createClient } from "@keyv/redis";
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import { classifyPushError } from "./classify-error.js";
import { isGroupChat } from "./rate-limiter.js";
import { DEFAULT_RETRY, PUSH_METHODS, TELEGRAM_LIMITS, type PushJob, type PushQueue, type PushQueueDeps } from "./types.js";

const DELIVERED_TTL_MS = 7 * 24 * 3600_000;

/** BullMQ refuses custom ids containing ':'; base64url keeps every id distinct and legal. */
export function toBullJobId(id: string): string {
  return `p_${Buffer.from(id).toString("base64url")}`;
}

/**
 * Scale-out push queue: several bot processes share one Redis. BullMQ gives
 * atomic dedup (jobId = our id, kept after completion for the dedup window),
 * the global limiter (Telegram's ~30/s over all workers) and retries with
 * backoff. Per-chat pacing is a Redis key per chat set with NX+PX: whoever
 * sets it may send, everyone else delays the job until it expires.
 */
export function createBullmqPushQueue(deps: PushQueueDeps & { redisUrl: string }): PushQueue {
  const name = deps.name ?? "push";
  const limits = { ...TELEGRAM_LIMITS, ...deps.limits };
  const retry = { ...DEFAULT_RETRY, ...deps.retry };
  const deliveredTtl = deps.deliveredTtlMs ?? DELIVERED_TTL_MS;
  const log = deps.logger.child({ module: "push-queue", queue: "bullmq" });
  const client = createClient({ url: deps.redisUrl });
  client.on("error", (err: unknown) => log.warn({ err }, "redis client error"));
  let connecting: Promise<unknown> | undefined;
  let queue: Queue | undefined;
  let worker: Worker | undefined;

  const paceKey = (chatId: number) => `bull:${name}:pace:${chatId}`;
  const unreachableKey = (chatId: number) => `bull:${name}:unreachable:${chatId}`;
  const chatIntervalMs = (chatId: number) =>
    (isGroupChat(chatId) ? 60_000 / limits.perGroupPerMinute : 1_000 / limits.perChatPerSecond) + limits.marginMs;

  async function ready(): Promise<Queue> {
    connecting ??= client.connect();
    await connecting;
    queue ??= new Queue(name, { connection: client });
    return queue;
  }

  async function processJob(job: Job, token?: string): Promise<unknown> {
    const data = job.data as PushJob;
    const ctx = { jobId: data.id, chatId: data.chatId, method: data.method };
    const unreachableSince = Number((await client.get(unreachableKey(data.chatId))) ?? 0);
    if (unreachableSince && job.timestamp <= unreachableSince) {
      deps.metrics?.inc("notifications_total", { outcome: "failed" });
      return { dropped: "chat unreachable" };
    }
    const interval = Math.ceil(chatIntervalMs(data.chatId));
    const got = await client.set(paceKey(data.chatId), "1", { condition: "NX", expiration: { type: "PX", value: interval } });
    if (got === null) {
      const ttl = Math.max(1, await client.pTTL(paceKey(data.chatId)));
      await job.moveToDelayed(Date.now() + ttl, token);
      throw new DelayedError();
    }
    try {
      const result = await deps.transport(data);
      deps.metrics?.inc("notifications_total", { outcome: "sent" });
      await deps.onDelivered?.(data, result);
      return null;
    } catch (error) {
      const failure = classifyPushError(error);
      switch (failure.kind) {
        case "delivered":
          deps.metrics?.inc("notifications_total", { outcome: "sent" });
          return null;
        case "rate-limited": {
          const ms = failure.retryAfterSec * 1_000;
          log.warn({ ...ctx, retryAfterSec: failure.retryAfterSec }, "telegram rate limit; pausing");
          deps.metrics?.inc("notifications_total", { outcome: "retried" });
          await client.set(paceKey(data.chatId), "1", { expiration: { type: "PX", value: ms } });
          await (await ready()).rateLimit(ms);
          throw Worker.RateLimitError();
        }
        case "transient":
          deps.metrics?.inc("notifications_total", { outcome: "retried" });
          log.warn({ ...ctx, attempt: job.attemptsMade + 1, reason: failure.reason }, "push send failed; will retry");
          throw error instanceof Error ? error : new Error(failure.reason);
        case "permanent":
          deps.metrics?.inc("notifications_total", { outcome: "failed" });
          log.warn({ ...ctx, reason: failure.reason }, "telegram refused a push job; dropped");
          throw new UnrecoverableError(failure.reason);
        case "unreachable":
          deps.metrics?.inc("notifications_total", { outcome: "failed" });
          log.info({ ...ctx, reason: failure.reason }, "chat unreachable; dropping its pending jobs");
          await client.set(unreachableKey(data.chatId), String(Date.now()), {
            expiration: { type: "PX", value: deliveredTtl },
          });
          await deps.onChatUnreachable?.(data.chatId);
          throw new UnrecoverableError(failure.reason);
      }
    }
  }

  return {
    async enqueue(job) {
      if (!(PUSH_METHODS as readonly string[]).includes(job.method)) {
        throw new TypeError(`unsupported push method ${job.method}`);
      }
      const q = await ready();
      const ageSec = Math.ceil(deliveredTtl / 1000);
      await q.add(job.method, job, {
        jobId: toBullJobId(job.id),
        attempts: retry.maxAttempts,
        backoff: { type: "exponential", delay: retry.baseDelayMs, jitter: 0.2 },
        removeOnComplete: { age: ageSec },
        removeOnFail: { age: ageSec },
      });
      deps.metrics?.inc("notifications_total", { outcome: "queued" });
    },
    async start() {
      if (worker) return;
      await ready();
      worker = new Worker(name, processJob, {
        connection: client,
        concurrency: deps.concurrency ?? limits.globalPerSecond,
        // One job per slot rather than N per second: BullMQ's window is fixed, and two
        // full adjacent windows would be twice Telegram's rate over a sliding second.
        limiter: { max: 1, duration: Math.max(1, Math.ceil((1_000 + limits.marginMs) / limits.globalPerSecond)) },
      });
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
