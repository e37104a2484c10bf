import { backoffDelay, classifyPushError } from "./classify-error.js";
import { createRateLimiter, isGroupChat, isLimiterSnapshot } from "./rate-limiter.js";
import {
  DEFAULT_RETRY,
  editedMessageOf,
  priorityRank,
  PUSH_METHODS,
  PUSH_PRIORITIES,
  REAL_CLOCK,
  refreshHoldFor,
  TELEGRAM_LIMITS,
  type PushJob,
  type PushQueue,
  type PushQueueDeps,
} from "./types.js";

/** What is stored per pending job. `seq` keeps each chat's jobs in order across restarts (the job's priority first). */
interface StoredJob {
  v: 1;
  job: PushJob;
  seq: number;
  attempts: number;
  notBefore: number;
}

const DELIVERED_TTL_MS = 7 * 24 * 3600_000;
const LIMITER_KEY = "limiter";

function isStoredJob(value: unknown): value is StoredJob {
  const v = value as Partial<StoredJob> | undefined;
  return (
    typeof v === "object" &&
    v !== null &&
    v.v === 1 &&
    typeof v.seq === "number" &&
    typeof v.job?.id === "string" &&
    typeof v.job.chatId === "number" &&
    (PUSH_METHODS as readonly string[]).includes(v.job.method) &&
    (v.job.priority === undefined || (PUSH_PRIORITIES as readonly string[]).includes(v.job.priority))
  );
}

/** Which of two waiting jobs goes first: the higher priority, then the one queued first. */
const goesBefore = (a: StoredJob, b: StoredJob): boolean => {
  const byRank = priorityRank(a.job.priority) - priorityRank(b.job.priority);
  return byRank === 0 ? a.seq < b.seq : byRank < 0;
};

/**
 * The push queue over any StoreBackend (SQLite by default). One process owns
 * the queue: jobs live in the store until delivered, a delivered id is kept
 * for a week so it is never sent again, and one scheduler paces sends to
 * Telegram's limits. Each chat gets one send at a time: its highest-priority
 * job first, in enqueue order within a priority; when the global budget is
 * what holds sends back, chats whose next job is a notice take the slots
 * before chats whose next job is a refresh. An edit replaces a waiting edit of
 * the same message, which is then recorded as delivered: only the latest
 * state of a card goes out, and the replaced one never does, restarts included.
 */
export function createLocalPushQueue(deps: PushQueueDeps): PushQueue {
  const name = deps.name ?? "push";
  const jobs = deps.store.namespace(`${name}-jobs`);
  const delivered = deps.store.namespace(`${name}-delivered`);
  const meta = deps.store.namespace(`${name}-meta`);
  const limits = { ...TELEGRAM_LIMITS, ...deps.limits };
  const retry = { ...DEFAULT_RETRY, ...deps.retry };
  const deliveredTtl = deps.deliveredTtlMs ?? DELIVERED_TTL_MS;
  const concurrency = deps.concurrency ?? Math.max(1, limits.globalPerSecond);
  // The process's one budget when given: interactive sends count in the same windows, and go first.
  const budget = deps.budget;
  const limiter = budget?.limiter ?? createRateLimiter(limits);
  const log = deps.logger.child({ module: "push-queue" });
  const clock = deps.clock ?? REAL_CLOCK;
  const refreshHoldMs = deps.refreshHoldMs ?? refreshHoldFor(limits);

  const pending = new Map<string, StoredJob>();
  /** Enqueues storing their job now, by id. */
  const storing = new Map<string, Promise<void>>();
  /** Per chat, jobs in sending order (`goesBefore`); the head is the next to send. */
  const byChat = new Map<number, StoredJob[]>();
  const busyChats = new Set<number>();
  /** Jobs handed to the transport: too late to replace. */
  const sending = new Set<StoredJob>();
  const inFlight = new Set<Promise<void>>();
  let seqCounter = 0;
  let running = false;
  /** Cancels the scheduled pump, when one is scheduled. */
  let timer: (() => void) | undefined;
  /** When the pending `timer` fires. */
  let timerAt = 0;
  let pumping = false;
  let lastPrune = 0;
  const resume = () => schedule(0);

  const nextSeq = () => Date.now() * 1_000 + (seqCounter++ % 1_000);

  function track(entry: StoredJob): void {
    pending.set(entry.job.id, entry);
    const list = byChat.get(entry.job.chatId) ?? [];
    // Usually near the end; a restart may load in any order.
    let i = list.length;
    while (i > 0 && goesBefore(entry, list[i - 1]!)) i -= 1;
    list.splice(i, 0, entry);
    byChat.set(entry.job.chatId, list);
  }

  function untrack(entry: StoredJob): void {
    pending.delete(entry.job.id);
    const list = byChat.get(entry.job.chatId);
    if (!list) return;
    const i = list.indexOf(entry);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) byChat.delete(entry.job.chatId);
  }

  function schedule(delayMs: number): void {
    if (!running) return;
    timer?.();
    timerAt = clock.now() + Math.max(0, delayMs);
    timer = clock.after(Math.max(0, delayMs), pump);
  }

  /** The next job of each chat that may send, in the order they take the global budget's slots. */
  function headsInTurn(): StoredJob[] {
    const heads: StoredJob[] = [];
    for (const [chatId, list] of byChat) {
      const head = list[0];
      if (head && !busyChats.has(chatId)) heads.push(head);
    }
    return heads.sort((a, b) => (goesBefore(a, b) ? -1 : 1));
  }

  /**
   * Drops the waiting edits of the message `newer` edits, queued before it and not yet handed to
   * Telegram: each is recorded as delivered, so its id is never sent, nor queued again.
   */
  async function supersedeOlderEdits(newer: StoredJob): Promise<void> {
    const messageId = editedMessageOf(newer.job);
    if (messageId === undefined) return;
    const older = (byChat.get(newer.job.chatId) ?? []).filter(
      (other) => other !== newer && other.seq < newer.seq && !sending.has(other) && editedMessageOf(other.job) === messageId,
    );
    // Out of the schedule before any await, so none of them can start sending meanwhile.
    for (const entry of older) untrack(entry);
    for (const entry of older) {
      await delivered.set(entry.job.id, 1, deliveredTtl);
      await jobs.delete(entry.job.id);
      deps.metrics?.inc("notifications_total", { outcome: "superseded" });
      log.debug({ jobId: entry.job.id, by: newer.job.id, chatId: entry.job.chatId }, "a newer edit of the message replaced a waiting one");
    }
  }

  /**
   * An edit that failed on the wire and would be retried, while a newer edit of its message was queued: the
   * newer one replaces it now, as it would have replaced it waiting. True when it did.
   */
  async function replacedWhileSending(failed: StoredJob): Promise<boolean> {
    const messageId = editedMessageOf(failed.job);
    if (messageId === undefined) return false;
    const newer = (byChat.get(failed.job.chatId) ?? []).find((other) => other.seq > failed.seq && editedMessageOf(other.job) === messageId);
    if (!newer) return false;
    sending.delete(failed);
    await supersedeOlderEdits(newer);
    return true;
  }

  function pump(): void {
    timer = undefined;
    if (!running || pumping) return;
    pumping = true;
    try {
      const now = clock.now();
      if (now - lastPrune > 10_000) {
        limiter.prune(now);
        lastPrune = now;
      }
      let wakeAt = Number.POSITIVE_INFINITY;
      for (const head of headsInTurn()) {
        const chatId = head.job.chatId;
        if (inFlight.size >= concurrency) break;
        const globalAt = limiter.globalReadyAt(now);
        if (globalAt > now) {
          wakeAt = Math.min(wakeAt, globalAt);
          break;
        }
        const readyAt = Math.max(head.notBefore, limiter.readyAt(chatId, now));
        if (readyAt > now) {
          wakeAt = Math.min(wakeAt, readyAt);
          continue;
        }
        if (budget?.interactiveWaiting(now)) {
          // An answer to a user waits for this slot: it goes first, and the queue goes on after it.
          budget.afterInteractive(resume);
          wakeAt = Number.POSITIVE_INFINITY;
          break;
        }
        limiter.record(chatId, now);
        busyChats.add(chatId);
        sending.add(head);
        const p = send(head, now).finally(() => {
          inFlight.delete(p);
          sending.delete(head);
          busyChats.delete(chatId);
          schedule(0);
        });
        inFlight.add(p);
      }
      if (Number.isFinite(wakeAt)) schedule(wakeAt - clock.now());
    } finally {
      pumping = false;
    }
  }

  async function markDelivered(entry: StoredJob, result: unknown): Promise<void> {
    // Out of memory first: even if the store write below fails, this process never resends it.
    untrack(entry);
    await delivered.set(entry.job.id, 1, deliveredTtl);
    await jobs.delete(entry.job.id);
    deps.metrics?.inc("notifications_total", { outcome: "sent" });
    if (deps.onDelivered) {
      try {
        await deps.onDelivered(entry.job, result);
      } catch (error) {
        log.warn({ err: error, jobId: entry.job.id }, "onDelivered failed");
      }
    }
  }

  async function drop(entry: StoredJob): Promise<void> {
    untrack(entry);
    await jobs.delete(entry.job.id);
    deps.metrics?.inc("notifications_total", { outcome: "failed" });
  }

  async function send(entry: StoredJob, sentAt: number): Promise<void> {
    const { job } = entry;
    let blocked = false;
    try {
      blocked = (await deps.isChatBlocked?.(job.chatId)) === true;
    } catch (error) {
      log.warn({ err: error, chatId: job.chatId }, "could not read whether the chat blocked the bot; sending");
    }
    if (blocked) {
      log.info({ jobId: job.id, chatId: job.chatId, method: job.method }, "chat blocked the bot; job dropped unsent");
      await drop(entry);
      return;
    }
    let result: unknown;
    try {
      result = await deps.transport(job);
    } catch (error) {
      limiter.answered(job.chatId, sentAt, clock.now());
      await handleFailure(entry, error);
      return;
    }
    limiter.answered(job.chatId, sentAt, clock.now());
    await markDelivered(entry, result).catch((error: unknown) => {
      // Telegram has it; if the store fails here a restart may send it again.
      log.error({ err: error, jobId: job.id }, "could not record a delivered job");
    });
  }

  async function handleFailure(entry: StoredJob, error: unknown): Promise<void> {
    const { job } = entry;
    const failure = classifyPushError(error);
    const ctx = { jobId: job.id, chatId: job.chatId, method: job.method };
    // Set before any await, so a store failure below cannot make the scheduler spin on this job.
    entry.notBefore = clock.now() + retry.baseDelayMs;
    try {
      switch (failure.kind) {
        case "delivered":
          await markDelivered(entry, undefined);
          return;
        case "rate-limited": {
          // A 429 does not say which limit was hit and our pacing already keeps
          // within the known ones, so someone else is sending too: honour it for
          // this chat and for everyone.
          const until = clock.now() + failure.retryAfterSec * 1_000;
          limiter.pauseChat(job.chatId, until);
          limiter.pauseGlobal(until);
          log.warn({ ...ctx, retryAfterSec: failure.retryAfterSec }, "telegram rate limit; pausing");
          if (await replacedWhileSending(entry)) return;
          deps.metrics?.inc("notifications_total", { outcome: "retried" });
          return;
        }
        case "transient": {
          entry.attempts += 1;
          if (entry.attempts >= retry.maxAttempts) {
            log.error({ ...ctx, attempts: entry.attempts, reason: failure.reason }, "push job failed after retries");
            await drop(entry);
            return;
          }
          entry.notBefore = clock.now() + backoffDelay(entry.attempts, retry.baseDelayMs, retry.maxDelayMs);
          if (await replacedWhileSending(entry)) return;
          await jobs.set(job.id, entry);
          deps.metrics?.inc("notifications_total", { outcome: "retried" });
          log.warn({ ...ctx, attempts: entry.attempts, reason: failure.reason }, "push send failed; will retry");
          return;
        }
        case "permanent":
          log.warn({ ...ctx, reason: failure.reason }, "telegram refused a push job; dropped");
          await drop(entry);
          return;
        case "unreachable":
          log.info({ ...ctx, reason: failure.reason }, "chat unreachable; dropping its pending jobs");
          await dropChat(job.chatId);
          try {
            await deps.onChatUnreachable?.(job.chatId);
          } catch (err) {
            log.error({ err, chatId: job.chatId }, "onChatUnreachable failed");
          }
          return;
      }
    } catch (storeError) {
      log.error({ err: storeError, ...ctx }, "could not update a failed push job");
    }
  }

  async function dropChat(chatId: number): Promise<void> {
    for (const entry of [...(byChat.get(chatId) ?? [])]) await drop(entry);
  }

  /** Stores a job not pending here and schedules it; nothing when it is stored or was delivered already. */
  async function storeJob(job: PushJob): Promise<void> {
    // Reserved synchronously: `enqueue` answers a second call for the id from `storing` meanwhile.
    const entry: StoredJob = { v: 1, job, seq: nextSeq(), attempts: 0, notBefore: job.priority === "refresh" ? clock.now() + refreshHoldMs : 0 };
    pending.set(job.id, entry);
    try {
      // The stored job before the delivered mark: a delivery records its mark, then deletes the job, so a job
      // found gone was marked first. Read the other way round, a delivery recorded between the two reads goes unseen.
      if ((await jobs.get(job.id)) !== undefined || (await delivered.get(job.id)) !== undefined) {
        pending.delete(job.id);
        return;
      }
      await jobs.set(job.id, entry);
    } catch (error) {
      pending.delete(job.id);
      throw error;
    }
    pending.delete(job.id);
    track(entry);
    deps.metrics?.inc("notifications_total", { outcome: "queued" });
    // Stored first: a crash before the older edit is recorded leaves both, and start() replaces it then.
    await supersedeOlderEdits(entry).catch((error: unknown) => {
      log.warn({ err: error, jobId: job.id }, "could not record a replaced edit; a restart replaces it again");
    });
    if (!running) return;
    // A wake planned for later (a held refresh, a chat's next window) must not hold back a job that may go sooner;
    // one that can go no sooner leaves it be, so a burst of enqueues behind the global window costs no pump each.
    const now = clock.now();
    const goesAt = Math.max(entry.notBefore, limiter.readyAt(job.chatId, now), limiter.globalReadyAt(now));
    if (!timer || goesAt < timerAt) schedule(goesAt - now);
  }

  return {
    async enqueue(job) {
      if (!(PUSH_METHODS as readonly string[]).includes(job.method)) {
        throw new TypeError(`unsupported push method ${job.method}`);
      }
      // The same id queued again while its first enqueue is storing it resolves with that one: it too resolves
      // only once the job is queued, so what its caller queues next cannot overtake it.
      const inProgress = storing.get(job.id);
      if (inProgress) return inProgress;
      if (pending.has(job.id)) return;
      const stored = storeJob(job);
      storing.set(job.id, stored);
      try {
        await stored;
      } finally {
        storing.delete(job.id);
      }
    },
    async start() {
      if (running) return;
      for await (const [key, value] of jobs.entries()) {
        if (pending.has(key)) continue;
        if (!isStoredJob(value)) {
          log.warn({ key }, "dropping an unreadable push job");
          await jobs.delete(key);
          continue;
        }
        if ((await delivered.get(key)) !== undefined) {
          await jobs.delete(key);
          continue;
        }
        track(value);
      }
      // Newest first: each replaces the waiting edits of its message before it.
      const loaded = [...pending.values()].sort((a, b) => b.seq - a.seq);
      for (const entry of loaded) if (pending.get(entry.job.id) === entry) await supersedeOlderEdits(entry);
      const saved = await meta.get(LIMITER_KEY);
      if (isLimiterSnapshot(saved)) {
        limiter.restore(saved);
      } else if (pending.size > 0) {
        // No snapshot: the previous process stopped abruptly and may have sent to
        // these chats a moment ago. One full window of silence avoids a 429 per chat.
        const quietUntil = clock.now() + 1_000 + limits.marginMs;
        limiter.pauseGlobal(quietUntil);
        for (const chatId of byChat.keys()) limiter.pauseChat(chatId, isGroupChat(chatId) ? quietUntil + 59_000 : quietUntil);
      }
      await meta.delete(LIMITER_KEY);
      running = true;
      log.info({ pending: pending.size }, "push queue started");
      schedule(0);
    },
    async stop() {
      if (!running) return;
      running = false;
      timer?.();
      timer = undefined;
      await Promise.allSettled([...inFlight]);
      const snapshot = limiter.snapshot(clock.now());
      await meta.set(LIMITER_KEY, snapshot, 61_000 + limits.marginMs).catch((error: unknown) => {
        log.warn({ err: error }, "could not save the rate limiter state");
      });
    },
    size() {
      return Promise.resolve(pending.size);
    },
  };
}
