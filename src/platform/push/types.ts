import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { StoreBackend } from "../store/types.js";
import type { LocalTelegramBudget } from "./telegram-budget.js";

export const PUSH_METHODS = ["sendMessage", "editMessageText", "deleteMessage", "sendPhoto", "sendDocument"] as const;
export type PushMethod = (typeof PUSH_METHODS)[number];

/**
 * Which of a chat's waiting jobs goes first, and which chat takes a slot when
 * the global budget is the limit: a "notice" (the one message that makes the
 * user's phone ring) before a "normal" job before a "refresh" (a card redrawn
 * in place, which Telegram does not announce). Equal priorities keep enqueue order.
 */
export const PUSH_PRIORITIES = ["notice", "normal", "refresh"] as const;
export type PushPriority = (typeof PUSH_PRIORITIES)[number];

/**
 * A card's in-between state waits two chat windows before it is drawn (2 s at Telegram's one message a second).
 * The service's statuses often follow each other within seconds (pending, matching, fulfilled): drawing each spends
 * the chat's one slot a second on a state about to be gone, and a final status arriving in the second after that
 * draw would find the chat's window taken, its notice a second late. Held this long, a record that moves on is
 * drawn once, in its newest state, and the notice of its end takes the chat's slot first.
 */
export const refreshHoldFor = (limits: Pick<PushLimits, "perChatPerSecond">): number => Math.round(2_000 / limits.perChatPerSecond);

/** 0 goes first. */
export const priorityRank = (priority: PushPriority | undefined): number => PUSH_PRIORITIES.indexOf(priority ?? "normal");

/** The methods that rewrite a message in place: a newer one of the same message replaces one still waiting. */
export const EDIT_METHODS: readonly PushMethod[] = ["editMessageText"];

/** One message the bot sends on its own. `id` deduplicates: one id is delivered at most once. */
export interface PushJob {
  id: string;
  chatId: number;
  method: PushMethod;
  params: Record<string, unknown>;
  /** Default "normal". */
  priority?: PushPriority;
}

/** The message an edit rewrites, when `job` is one. */
export function editedMessageOf(job: Pick<PushJob, "method" | "params">): number | undefined {
  const messageId = job.params["message_id"];
  return EDIT_METHODS.includes(job.method) && typeof messageId === "number" ? messageId : undefined;
}

export interface PushQueue {
  /**
   * Persists the job (resolves once stored); a known or delivered id is ignored. An edit replaces
   * an edit of the same message still waiting unsent: that one counts as delivered and never goes.
   */
  enqueue(job: PushJob): Promise<void>;
  /** Loads persisted jobs (those in flight at a crash included) and starts sending. */
  start(): Promise<void>;
  /** Stops taking new jobs off the queue and waits for sends in flight. Idempotent. */
  stop(): Promise<void>;
  /** Jobs waiting or in flight (this process's view). */
  size(): Promise<number>;
}

/** Telegram's broadcast limits (https://core.telegram.org/bots/faq#broadcasting-to-users). */
export interface PushLimits {
  /** Messages per second over all chats. */
  globalPerSecond: number;
  /** Messages per second to one private chat. */
  perChatPerSecond: number;
  /** Messages per minute to one group (negative chat id). */
  perGroupPerMinute: number;
  /**
   * Added to every window: our clock starts a window when the request leaves,
   * Telegram's when it arrives, so network jitter could otherwise look like a burst.
   */
  marginMs: number;
}

export const TELEGRAM_LIMITS: PushLimits = {
  globalPerSecond: 30,
  perChatPerSecond: 1,
  perGroupPerMinute: 20,
  marginMs: 50,
};

export interface RetryPolicy {
  /** First backoff after a transient failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Transient failures before a job is dropped as failed. */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 12 };

/**
 * Time as the local queue sees it when pacing sends: the real clock by
 * default; a test runs Telegram's limits on a virtual one.
 */
export interface PushClock {
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const REAL_CLOCK: PushClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface PushQueueDeps {
  store: StoreBackend;
  logger: Logger;
  metrics?: Metrics;
  /** Sends one job to Telegram (wired to `bot.api.raw[method](params)`); throws Telegram's error on failure. */
  transport: (job: PushJob) => Promise<unknown>;
  /**
   * The stored "blocked" flag (the user blocked the bot: my_chat_member or an
   * earlier 403), read before each send: a job for such a chat is dropped
   * without a send being attempted.
   */
  isChatBlocked?: (chatId: number) => Promise<boolean>;
  /** Called once when a chat blocked the bot, was deactivated or is gone; its pending jobs are dropped. */
  onChatUnreachable?: (chatId: number) => Promise<void> | void;
  /** Called after a job was delivered, with Telegram's result (e.g. the sent message). */
  onDelivered?: (job: PushJob, result: unknown) => Promise<void> | void;
  limits?: Partial<PushLimits>;
  retry?: Partial<RetryPolicy>;
  /** How long a delivered id is remembered for deduplication. Default 7 days. */
  deliveredTtlMs?: number;
  /**
   * How long a "refresh" waits before it may take a slot (default `refreshHoldFor(limits)`): a record that moves on
   * meanwhile is drawn once, in its newest state, and a notice due meanwhile takes the chat's slot first.
   */
  refreshHoldMs?: number;
  /** "local" (the default) keeps jobs in the store (SQLite/Postgres/Redis); "bullmq" needs `redisUrl`. See `QueueMode`. */
  queue?: "local" | "bullmq";
  redisUrl?: string;
  /** Name prefix for store namespaces and BullMQ queues (tests run several side by side). */
  name?: string;
  /** BullMQ's key prefix (its own default `bull`); our keys beside the queue's use it too. */
  bullPrefix?: string;
  /** Sends running at once over all chats. */
  concurrency?: number;
  /** The local queue's clock for pacing and backoff (default: the real one). */
  clock?: PushClock;
  /**
   * The process's Telegram budget (telegram-budget.ts), shared with the bot's
   * answers, which take a free slot before the queue does. The local queue
   * paces by its limiter (built with the same limits and clock as the queue's);
   * the BullMQ queue's slots are the shared budget's already.
   */
  budget?: LocalTelegramBudget;
}
