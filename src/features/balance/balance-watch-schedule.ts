import type { Logger } from "pino";
import { createDueQueue } from "../../platform/jobs/due-queue.js";
import { createRepeatedPass, type RepeatedPass } from "../../platform/jobs/repeated-pass.js";

/**
 * The timing of the balance watch: chat ids on the platform's due queue (one
 * timer for every chat), at most `concurrency` reads in flight and
 * `maxPerSecond` started a second, so the service sees a bounded rate however
 * many chats are linked (chats past due simply wait their turn). Each tick
 * says when the chat's next one runs (undefined: no longer watched); a tick
 * that throws is logged and tried again after `retryMs`. A sweep picks up
 * chats linked by another process: once right after `start` (in the
 * background, so the start of the app never waits for it) and then every
 * `sweepEveryMs`.
 */
export interface WatchSchedule {
  /** Runs the chat's tick after `delayMs`, replacing the due time it had. */
  at(chatId: number, delayMs: number): void;
  has(chatId: number): boolean;
  cancel(chatId: number): void;
  /** No tick starts for `ms` (the service asked to slow down). */
  holdFor(ms: number): void;
  /** Chats with a due time (not counting ticks in flight that were not asked for again). */
  size(): number;
  /** Starts the due queue and the sweeps; a second call before `stop` does nothing. */
  start(sweepEveryMs: number, sweep: (signal: AbortSignal) => Promise<void>): void;
  /** Stops the sweep, cancels every due time and waits for the sweep and the ticks in flight. */
  stop(): Promise<void>;
}

export interface WatchScheduleDeps {
  tick: (chatId: number) => Promise<number | undefined>;
  logger: Logger;
  /** After a tick that threw. Default 60 s. */
  retryMs?: number;
  /** Ticks in flight at most. Default 4. */
  concurrency?: number;
  /** Tick starts per second at most. Default 20. */
  maxPerSecond?: number;
}

export const WATCH_SCHEDULE_DEFAULTS = { retryMs: 60_000, concurrency: 4, maxPerSecond: 20 } as const;

export function createWatchSchedule(deps: WatchScheduleDeps): WatchSchedule {
  const queue = createDueQueue<number>({
    name: "balance watch",
    run: deps.tick,
    logger: deps.logger,
    retryMs: deps.retryMs ?? WATCH_SCHEDULE_DEFAULTS.retryMs,
    concurrency: deps.concurrency ?? WATCH_SCHEDULE_DEFAULTS.concurrency,
    maxPerSecond: deps.maxPerSecond ?? WATCH_SCHEDULE_DEFAULTS.maxPerSecond,
  });
  let sweeps: RepeatedPass | undefined;

  return {
    at: (chatId, delayMs) => queue.at(chatId, delayMs),
    has: (chatId) => queue.has(chatId),
    cancel: (chatId) => queue.cancel(chatId),
    holdFor: (ms) => queue.holdFor(ms),
    size: () => queue.size(),
    start(sweepEveryMs, sweep) {
      // Started twice, the first sweeps would go on beside the second's, out of `stop`'s reach.
      if (sweeps !== undefined) return;
      queue.start();
      const warn = (error: unknown) => deps.logger.warn({ err: error }, "balance watch sweep failed; the next one comes at its time");
      sweeps = createRepeatedPass({ pass: sweep, failed: warn, everyMs: sweepEveryMs });
      sweeps.start().catch(warn);
    },
    async stop() {
      const stopping = sweeps;
      sweeps = undefined;
      await Promise.allSettled([stopping?.stop(), queue.stop()]);
    },
  };
}
