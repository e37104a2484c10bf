import type { Job } from "bullmq";
import { createBullmqConnection, toBullJobId } from "../queue/bullmq-connection.js";
import { backoffDelay, classifyPushError } from "./classify-error.js";
import { createSendSlots } from "./bullmq-send-slots.js";
import { isGroupChat } from "./rate-limiter.js";
import {
  DEFAULT_RETRY,
  editedMessageOf,
  priorityRank,
  PUSH_METHODS,
  refreshHoldFor,
  TELEGRAM_LIMITS,
  type PushJob,
  type PushQueue,
  type PushQueueDeps,
} from "./types.js";

const DELIVERED_TTL_MS = 7 * 24 * 3600_000;
/** Jobs are fetched at up to 1/0.85 of the send cadence, so the cadence, not the fetching, sets the pace. */
const FETCH_AHEAD = 0.85;

/** How late past its slot a send may leave (timer lateness), and how often a later one is taken instead. */
const SLOT_SLACK_MS = 20;
const LATE_WAKES = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a BullMQ job carries: the push job, and an edit's place in the enqueue order. */
type QueuedJob = PushJob & { editSeq?: number };

const pushJobOf = ({ editSeq: _, ...job }: QueuedJob): PushJob => job;

/** Sets KEYS[1] to ARGV[1] (with a TTL of ARGV[2] ms) unless it holds a larger number already. */
const KEEP_MAX = `local v = tonumber(redis.call("GET", KEYS[1]) or "0")
if v < tonumber(ARGV[1]) then redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end
return 0`;

/**
 * Scale-out push queue: several bot processes share one Redis. BullMQ gives
 * atomic dedup (jobId = our id, kept after completion for the dedup window)
 * and retries with backoff. Telegram's limits over all workers are slots on
 * one cadence in Redis (`bullmq-send-slots.ts`): a job reserves its chat's
 * turn and the next slot together, waits for the slot and sends; a job whose
 * chat is busy is delayed until the chat's turn ends.
 *
 * Priorities are BullMQ's own (notice 1, normal 2, refresh 3; every job has one, since
 * BullMQ takes a job without any before all prioritized ones): a free worker takes the
 * waiting job of the highest priority, in enqueue order within one. That orders the
 * fetching over all chats; within one chat it holds for jobs waiting together, while jobs
 * delayed for the chat's turn come back when their delay ends, each then taken by priority.
 * An edit makes every edit of the same message queued before it stale: one still waiting
 * completes unsent (its id stays for dedup like any completed job's).
 */
export function createBullmqPushQueue(deps: PushQueueDeps & { redisUrl: string }): PushQueue {
  const name = deps.name ?? "push";
  const limits = { ...TELEGRAM_LIMITS, ...deps.limits };
  const retry = { ...DEFAULT_RETRY, ...deps.retry };
  const refreshHoldMs = deps.refreshHoldMs ?? refreshHoldFor(limits);
  const deliveredTtl = deps.deliveredTtlMs ?? DELIVERED_TTL_MS;
  const log = deps.logger.child({ module: "push-queue", queue: "bullmq" });
  const prefix = deps.bullPrefix ?? "bull";
  const bull = createBullmqConnection({ name, redisUrl: deps.redisUrl, logger: log, prefix });

  const paceKey = (chatId: number) => `${prefix}:${name}:pace:${chatId}`;
  const spacingMs = (1_000 + limits.marginMs) / limits.globalPerSecond;
  const slots = createSendSlots(() => bull.redis(), `${prefix}:${name}`, spacingMs);
  const editSeqKey = `${prefix}:${name}:edit-seq`;
  /** The newest edit (by enqueue order) queued or sent of one message: any older one is stale. */
  const editedKey = (chatId: number, messageId: number) => `${prefix}:${name}:edited:${chatId}:${messageId}`;
  const unreachableKey = (chatId: number) => `${prefix}:${name}:unreachable:${chatId}`;
  /** Set the moment Telegram answered a send: BullMQ's own "completed" comes a few round trips later. */
  const sentKey = (id: string) => `${prefix}:${name}:sent:${toBullJobId(id)}`;
  const chatIntervalMs = (chatId: number) => (isGroupChat(chatId) ? 60_000 / limits.perGroupPerMinute : 1_000 / limits.perChatPerSecond) + limits.marginMs;

  /**
   * Telegram counts a send when it arrives, but the pace key was set before sending: a send
   * slowed on its way (a loaded machine) would land closer than the interval to the chat's
   * next one and draw a 429. Re-armed once Telegram answered, the next send of the chat leaves
   * at least an interval after this one arrived. A 429's longer pause is set after this.
   */
  async function rearmPace(chatId: number, interval: number): Promise<void> {
    await (await bull.redis()).set(paceKey(chatId), "1", { expiration: { type: "PX", value: interval } });
  }

  /**
   * BullMQ keeps no order between a chat's jobs (a paced job is delayed, a failed one retried,
   * and they come back in any order), while the local queue sends each chat's jobs in enqueue
   * order. For edits of one message the order is what the chat sees: a card edited to
   * "executing" after its edit to "fulfilled" would stay wrong. Each edit carries its place in
   * the enqueue order, and one older than the newest edit queued (or sent) is dropped unsent: a
   * card's waiting "matching" never goes once its "fulfilled" is queued.
   */
  function editedMessage(data: QueuedJob): { key: string; seq: number } | undefined {
    const messageId = editedMessageOf(data);
    if (messageId === undefined || data.editSeq === undefined) return undefined;
    return { key: editedKey(data.chatId, messageId), seq: data.editSeq };
  }

  async function isSuperseded(data: QueuedJob): Promise<boolean> {
    const edit = editedMessage(data);
    if (!edit) return false;
    return Number((await (await bull.redis()).get(edit.key)) ?? 0) > edit.seq;
  }

  /** Remembers the newest edit of a message, queued or sent (whichever of two finished last), never moving back. */
  async function recordEdit(data: QueuedJob): Promise<void> {
    const edit = editedMessage(data);
    if (!edit) return;
    await (await bull.redis()).eval(KEEP_MAX, { keys: [edit.key], arguments: [String(edit.seq), String(deliveredTtl)] });
  }

  /**
   * Recorded before anything else once Telegram has the message. A process killed after this
   * (before BullMQ marked the job completed) leaves the job active; BullMQ hands it out again once
   * its lock expires, and the check in processJob then drops it instead of sending a second copy.
   * A kill between Telegram applying the send and this write still sends it twice: Telegram has
   * no idempotent send.
   */
  async function markSent(data: QueuedJob): Promise<void> {
    try {
      await (await bull.redis()).set(sentKey(data.id), "1", { expiration: { type: "PX", value: deliveredTtl } });
    } catch (error) {
      log.warn({ err: error, jobId: data.id }, "could not record a sent job; a crash before it completes would send it again");
    }
  }

  /** Telegram has the message: nothing after this point may make BullMQ send it again. */
  async function delivered(queued: QueuedJob, result: unknown): Promise<null> {
    const data = pushJobOf(queued);
    deps.metrics?.inc("notifications_total", { outcome: "sent" });
    try {
      await recordEdit(queued);
    } catch (error) {
      log.warn({ err: error, jobId: data.id }, "remembering the newest edit failed");
    }
    try {
      await deps.onDelivered?.(data, result);
    } catch (error) {
      log.warn({ err: error, jobId: data.id }, "onDelivered failed");
    }
    return null;
  }

  /**
   * Sleeps until the slot, then asks whether a 429 paused the sends meanwhile (what is left of
   * the pause; 0 to send now). A send ready later than SLOT_SLACK_MS past its slot (a busy event
   * loop, a slow round trip) would land closer than a slot to the sends after it, and a second of
   * them could then hold one send too many: it takes a later slot instead, at most LATE_WAKES times.
   */
  async function waitForSlot(chatId: number, interval: number, waitMs: number): Promise<number> {
    for (let wakes = 0; ; wakes += 1) {
      const slotAt = Date.now() + waitMs;
      if (waitMs > 0) await sleep(waitMs);
      const pausedFor = await slots.pausedFor();
      if (pausedFor > 0) return pausedFor;
      if (Date.now() - slotAt <= SLOT_SLACK_MS || wakes >= LATE_WAKES) return 0;
      waitMs = await slots.reserveAgain(paceKey(chatId), interval);
    }
  }

  async function processJob(job: Job, token?: string): Promise<unknown> {
    const data = job.data as QueuedJob;
    const ctx = { jobId: data.id, chatId: data.chatId, method: data.method };
    const [{ DelayedError }, client] = await Promise.all([bull.bullmq(), bull.redis()]);
    const unreachableSince = Number((await client.get(unreachableKey(data.chatId))) ?? 0);
    if (unreachableSince && job.timestamp <= unreachableSince) {
      deps.metrics?.inc("notifications_total", { outcome: "failed" });
      return { dropped: "chat unreachable" };
    }
    if ((await client.exists(sentKey(data.id))) > 0) {
      log.info(ctx, "sent already by a process that stopped before completing the job; not sent again");
      // That process may have stopped before remembering the edit, which later edits are ordered against.
      await recordEdit(data).catch((error: unknown) => log.warn({ err: error, jobId: data.id }, "remembering the newest edit failed"));
      return { dropped: "sent already" };
    }
    const interval = Math.ceil(chatIntervalMs(data.chatId));
    const slot = await slots.reserve(paceKey(data.chatId), interval);
    if ("chatBusyMs" in slot) {
      await job.moveToDelayed(Date.now() + slot.chatBusyMs, token);
      throw new DelayedError();
    }
    if ((await deps.isChatBlocked?.(data.chatId).catch(() => false)) === true) {
      deps.metrics?.inc("notifications_total", { outcome: "failed" });
      return { dropped: "chat blocked the bot" };
    }
    if (await isSuperseded(data)) {
      // Nothing was sent: the chat's next job need not wait for this one's slot.
      await client.del(paceKey(data.chatId));
      deps.metrics?.inc("notifications_total", { outcome: "superseded" });
      log.debug(ctx, "a newer edit of the message is queued; dropped");
      return { dropped: "superseded by a newer edit" };
    }
    // A 429 met by any process while this job waited for its slot: the slot is given up.
    const pausedFor = await waitForSlot(data.chatId, interval, slot.waitMs);
    if (pausedFor > 0) {
      await client.del(paceKey(data.chatId));
      await job.moveToDelayed(Date.now() + pausedFor, token);
      throw new DelayedError();
    }
    let result: unknown;
    try {
      result = await deps.transport(pushJobOf(data));
    } catch (error) {
      await rearmPace(data.chatId, interval);
      return handleFailure(job, data, error, ctx);
    }
    await markSent(data);
    await rearmPace(data.chatId, interval);
    return delivered(data, result);
  }

  async function handleFailure(job: Job, data: QueuedJob, error: unknown, ctx: Record<string, unknown>): Promise<unknown> {
    const failure = classifyPushError(error);
    const [{ UnrecoverableError, Worker }, client] = await Promise.all([bull.bullmq(), bull.redis()]);
    switch (failure.kind) {
      case "delivered":
        return delivered(data, undefined);
      case "rate-limited": {
        const ms = failure.retryAfterSec * 1_000;
        log.warn({ ...ctx, retryAfterSec: failure.retryAfterSec }, "telegram rate limit; pausing");
        deps.metrics?.inc("notifications_total", { outcome: "retried" });
        await client.set(paceKey(data.chatId), "1", { expiration: { type: "PX", value: ms } });
        await slots.pause(ms);
        await (await bull.queue()).rateLimit(ms);
        throw Worker.RateLimitError();
      }
      case "transient":
        if (job.attemptsMade + 1 >= retry.maxAttempts) {
          deps.metrics?.inc("notifications_total", { outcome: "failed" });
          log.error({ ...ctx, attempts: job.attemptsMade + 1, reason: failure.reason }, "push job failed after retries");
        } else {
          deps.metrics?.inc("notifications_total", { outcome: "retried" });
          log.warn({ ...ctx, attempt: job.attemptsMade + 1, reason: failure.reason }, "push send failed; will retry");
        }
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
        try {
          await deps.onChatUnreachable?.(data.chatId);
        } catch (err) {
          log.error({ err, chatId: data.chatId }, "onChatUnreachable failed");
        }
        throw new UnrecoverableError(failure.reason);
    }
  }

  return {
    async enqueue(job) {
      if (!(PUSH_METHODS as readonly string[]).includes(job.method)) {
        throw new TypeError(`unsupported push method ${job.method}`);
      }
      const q = await bull.queue();
      const ageSec = Math.ceil(deliveredTtl / 1000);
      const jobId = toBullJobId(job.id);
      // BullMQ answers an existing jobId with the existing job: count only what is new.
      if (await q.getJob(jobId)) return;
      const queued: QueuedJob = editedMessageOf(job) === undefined ? job : { ...job, editSeq: await (await bull.redis()).incr(editSeqKey) };
      await q.add(job.method, queued, {
        jobId,
        priority: priorityRank(job.priority) + 1,
        ...(job.priority === "refresh" && refreshHoldMs > 0 ? { delay: refreshHoldMs } : {}),
        attempts: retry.maxAttempts,
        backoff: { type: "capped" },
        removeOnComplete: { age: ageSec },
        removeOnFail: { age: ageSec },
      });
      deps.metrics?.inc("notifications_total", { outcome: "queued" });
      // After the add: a failed add leaves the older edit to go instead of neither.
      await recordEdit(queued);
    },
    async start() {
      await bull.startWorker(processJob, {
        concurrency: deps.concurrency ?? limits.globalPerSecond,
        // The shared cadence (slots) paces the sends. BullMQ's limiter only keeps its fetching
        // a little ahead of it, so jobs wait in reserved slots rather than in its fixed windows,
        // each of which began a round trip late; and it carries a 429's pause to every worker.
        limiter: { max: 1, duration: Math.max(1, Math.floor(spacingMs * FETCH_AHEAD)) },
        // The same backoff as the local queue: exponential with jitter, capped at maxDelayMs.
        settings: { backoffStrategy: (attemptsMade) => backoffDelay(attemptsMade, retry.baseDelayMs, retry.maxDelayMs) },
      });
    },
    stop: () => bull.close(),
    size: () => bull.size(),
  };
}
