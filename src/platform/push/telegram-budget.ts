import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { createBullmqConnection } from "../queue/bullmq-connection.js";
import { createSendSlots } from "./bullmq-send-slots.js";
import { createRateLimiter, isGroupChat, type RateLimiter } from "./rate-limiter.js";
import { REAL_CLOCK, TELEGRAM_LIMITS, type PushClock, type PushLimits } from "./types.js";

/**
 * The process's one allowance of Telegram messages, shared by the bot's
 * answers to a user's own update (interactive sends, paced by the Bot API
 * transformer in src/bot/middlewares/telegram-pacing.ts) and the push queue's
 * background sends. `chatId` undefined is a message with no chat to pace by
 * (an inline message): the global window alone counts it.
 */
export interface TelegramBudget {
  readonly kind: "local" | "shared";
  /**
   * Waits until an interactive message to `chatId` may leave, then counts it;
   * resolves with the moment it was counted at (for `answered`).
   * Rejects when `signal` aborts first.
   */
  take(chatId: number | undefined, signal?: AbortSignal): Promise<number>;
  /**
   * Telegram answered the send `take` counted at `takenAt`: Telegram counted it on arrival, so the
   * windows count it from now (a request held on a loaded machine does not crowd the next ones).
   */
  answered(chatId: number | undefined, takenAt: number): Promise<void>;
  /** Telegram answered 429 with `retryAfterSec`: nothing leaves before it has passed, background sends included. */
  rateLimited(chatId: number | undefined, retryAfterSec: number): Promise<void>;
  close(): Promise<void>;
}

/** Processes sharing one Redis: the BullMQ push queue's slots are this budget's already. */
export interface SharedTelegramBudget extends TelegramBudget {
  readonly kind: "shared";
}

/** One process's budget: the push queue of this process paces by the same limiter. */
export interface LocalTelegramBudget extends TelegramBudget {
  readonly kind: "local";
  readonly limiter: RateLimiter;
  /**
   * Whether an interactive send waits on the global window alone at `now`
   * (its chat may have it): a background send then takes no slot ahead of it.
   */
  interactiveWaiting(now: number): boolean;
  /** Calls `fn` once no interactive send waits on the global window alone (at once when none does). */
  afterInteractive(fn: () => void): void;
}

/** How late a slot may be taken (timer lateness) before a shared send takes a later one instead, and how often. */
const SLOT_SLACK_MS = 20;
const LATE_WAKES = 3;

function aborted(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error("Request aborted while waiting for a send slot");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const abort = () => {
      clearTimeout(timer);
      reject(aborted(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

interface Waiter {
  chatId: number | undefined;
  resolve: (takenAt: number) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The budget of a process that owns its sends (the local push queue): one
 * RateLimiter on `clock`. Interactive sends wait in arrival order, each chat's
 * in turn; one whose chat may send has the next global slot before any
 * background send (the push queue asks `interactiveWaiting` before taking one).
 */
export function createLocalTelegramBudget(deps: { limits?: Partial<PushLimits>; clock?: PushClock } = {}): LocalTelegramBudget {
  const limiter = createRateLimiter({ ...TELEGRAM_LIMITS, ...deps.limits });
  const clock = deps.clock ?? REAL_CLOCK;
  const waiters: Waiter[] = [];
  const resumeBackground = new Set<() => void>();
  let timer: (() => void) | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  const chatReadyAt = (chatId: number | undefined, now: number) => (chatId === undefined ? now : limiter.readyAt(chatId, now));

  function interactiveWaiting(now: number): boolean {
    return waiters.some((w) => chatReadyAt(w.chatId, now) <= now);
  }

  function schedule(at: number): void {
    if (timer && timerAt <= at) return;
    timer?.();
    timerAt = at;
    timer = clock.after(Math.max(0, at - clock.now()), dispatch);
  }

  function dispatch(): void {
    // Called by a new waiter too: the timer set for later is replaced by the one this pass sets.
    timer?.();
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const now = clock.now();
    let wakeAt = Number.POSITIVE_INFINITY;
    for (let i = 0; i < waiters.length;) {
      const waiter = waiters[i]!;
      const chatAt = chatReadyAt(waiter.chatId, now);
      if (chatAt > now) {
        wakeAt = Math.min(wakeAt, chatAt);
        i += 1;
        continue;
      }
      const globalAt = limiter.globalReadyAt(now);
      if (globalAt > now) {
        wakeAt = Math.min(wakeAt, globalAt);
        break;
      }
      limiter.record(waiter.chatId, now);
      waiters.splice(i, 1);
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.resolve(now);
    }
    if (Number.isFinite(wakeAt)) schedule(wakeAt);
    releaseBackground(now);
  }

  function releaseBackground(now: number): void {
    if (resumeBackground.size === 0 || interactiveWaiting(now)) return;
    const resumes = [...resumeBackground];
    resumeBackground.clear();
    for (const resume of resumes) resume();
  }

  return {
    kind: "local",
    limiter,
    interactiveWaiting,
    afterInteractive(fn) {
      resumeBackground.add(fn);
      releaseBackground(clock.now());
    },
    take(chatId, signal) {
      if (signal?.aborted) return Promise.reject(aborted(signal));
      return new Promise<number>((resolve, reject) => {
        const waiter: Waiter = {
          chatId,
          resolve,
          reject,
          signal,
          onAbort: () => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) waiters.splice(i, 1);
            reject(aborted(signal));
            releaseBackground(clock.now());
          },
        };
        signal?.addEventListener("abort", waiter.onAbort, { once: true });
        waiters.push(waiter);
        // Dispatched at once when the windows allow it (no timer turn between the call and its send).
        dispatch();
      });
    },
    answered(chatId, takenAt) {
      limiter.answered(chatId, takenAt, clock.now());
      return Promise.resolve();
    },
    rateLimited(chatId, retryAfterSec) {
      // A 429 does not say which limit it was: this chat and everyone wait it out.
      const until = clock.now() + retryAfterSec * 1_000;
      if (chatId !== undefined) limiter.pauseChat(chatId, until);
      limiter.pauseGlobal(until);
      return Promise.resolve();
    },
    close() {
      timer?.();
      timer = undefined;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error("the Telegram budget was closed"));
      return Promise.resolve();
    },
  };
}

/**
 * The budget of processes sharing one Redis (the BullMQ push queue): an
 * interactive send takes its chat's turn and the next slot of the cadence the
 * BullMQ push queue's sends take (bullmq-send-slots.ts, under the same keys),
 * so every process together stays within Telegram's limits. Slots go first
 * come, first served: an interactive send has no priority over another
 * process's background send, only over nothing.
 */
export function createSharedTelegramBudget(deps: {
  redisUrl: string;
  /** The BullMQ key prefix and the push queue's name, as the push queue has them. */
  bullPrefix?: string;
  name?: string;
  limits?: Partial<PushLimits>;
  logger: Logger;
}): SharedTelegramBudget {
  const limits = { ...TELEGRAM_LIMITS, ...deps.limits };
  const prefix = deps.bullPrefix ?? "bull";
  const name = deps.name ?? "push";
  const log = deps.logger.child({ module: "telegram-budget" });
  const bull = createBullmqConnection({ name, redisUrl: deps.redisUrl, logger: log, prefix });
  // The keys and cadence of create-bullmq-push-queue.ts.
  const keyPrefix = `${prefix}:${name}`;
  const paceKey = (chatId: number) => `${keyPrefix}:pace:${chatId}`;
  const spacingMs = (1_000 + limits.marginMs) / limits.globalPerSecond;
  const slots = createSendSlots(() => bull.redis(), keyPrefix, spacingMs);
  const chatIntervalMs = (chatId: number) =>
    Math.ceil((isGroupChat(chatId) ? 60_000 / limits.perGroupPerMinute : 1_000 / limits.perChatPerSecond) + limits.marginMs);

  /**
   * Sleeps until the slot; what is left of a pause a 429 set meanwhile (0: send now). Late past the slot
   * (a busy event loop), a later slot is taken instead, so the send does not crowd the ones after it.
   */
  async function waitForSlot(key: string, interval: number, waitMs: number, signal: AbortSignal | undefined): Promise<number> {
    for (let wakes = 0; ; wakes += 1) {
      const slotAt = Date.now() + waitMs;
      if (waitMs > 0) await sleep(waitMs, signal);
      const pausedFor = await slots.pausedFor();
      if (pausedFor > 0 || Date.now() - slotAt <= SLOT_SLACK_MS || wakes >= LATE_WAKES) return pausedFor;
      waitMs = await slots.reserveAgain(key, interval);
    }
  }

  async function takeSlot(chatId: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    // A send with no chat holds a turn of its own, gone a millisecond after its slot.
    const key = chatId === undefined ? `${keyPrefix}:pace:none:${randomUUID()}` : paceKey(chatId);
    const interval = chatId === undefined ? 1 : chatIntervalMs(chatId);
    for (;;) {
      const slot = await slots.reserve(key, interval);
      if ("chatBusyMs" in slot) {
        await sleep(slot.chatBusyMs, signal);
        continue;
      }
      const pausedFor = await waitForSlot(key, interval, slot.waitMs, signal);
      if (pausedFor === 0) return;
      // A 429 met by any process while this send waited: the slot is given up and taken anew after the pause.
      await (await bull.redis()).del(key);
      await sleep(pausedFor, signal);
    }
  }

  return {
    kind: "shared",
    async take(chatId, signal) {
      try {
        await takeSlot(chatId, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        // An answer is not held back by a Redis that cannot be reached: it goes unpaced.
        log.debug({ err: error, chatId }, "the shared send slots could not be read; sending unpaced");
      }
      return Date.now();
    },
    async answered(chatId) {
      if (chatId === undefined) return;
      try {
        // Telegram counts a send when it arrives: the chat's next turn starts an interval after the answer.
        await (await bull.redis()).set(paceKey(chatId), "1", { expiration: { type: "PX", value: chatIntervalMs(chatId) } });
      } catch (error) {
        log.debug({ err: error, chatId }, "could not re-arm the chat's turn");
      }
    },
    async rateLimited(chatId, retryAfterSec) {
      const ms = Math.ceil(retryAfterSec * 1_000);
      try {
        if (chatId !== undefined) await (await bull.redis()).set(paceKey(chatId), "1", { expiration: { type: "PX", value: ms } });
        await slots.pause(ms);
      } catch (error) {
        log.debug({ err: error, chatId }, "could not share a 429's pause");
        // This call still waits it out.
        await sleep(ms, undefined);
      }
    },
    close: () => bull.close(),
  };
}

/** The budget the queue mode calls for: shared over Redis with the BullMQ push queue, else this process's own. */
export function createTelegramBudget(deps: {
  queue?: "local" | "bullmq";
  redisUrl?: string;
  bullPrefix?: string;
  name?: string;
  limits?: Partial<PushLimits>;
  clock?: PushClock;
  logger: Logger;
}): LocalTelegramBudget | SharedTelegramBudget {
  if (deps.queue === "bullmq") {
    if (!deps.redisUrl) throw new Error('createTelegramBudget: queue "bullmq" needs redisUrl');
    return createSharedTelegramBudget({
      redisUrl: deps.redisUrl,
      logger: deps.logger,
      ...(deps.bullPrefix === undefined ? {} : { bullPrefix: deps.bullPrefix }),
      ...(deps.name === undefined ? {} : { name: deps.name }),
      ...(deps.limits === undefined ? {} : { limits: deps.limits }),
    });
  }
  return createLocalTelegramBudget({
    ...(deps.limits === undefined ? {} : { limits: deps.limits }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
  });
}
