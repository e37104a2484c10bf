import type { Logger } from "pino";

/**
 * The timers of the balance watch: one per chat, each tick saying when the
 * next one runs (undefined: the chat is no longer watched), plus a periodic
 * sweep that picks up chats linked by another process. A tick that throws is
 * logged and tried again after `retryMs`.
 */
export interface WatchSchedule {
  /** Runs the chat's tick after `delayMs`, replacing a timer it had. */
  at(chatId: number, delayMs: number): void;
  has(chatId: number): boolean;
  cancel(chatId: number): void;
  start(sweepEveryMs: number, sweep: () => Promise<void>): void;
  /** Cancels every timer and waits for ticks in flight. */
  stop(): Promise<void>;
}

export interface WatchScheduleDeps {
  tick: (chatId: number) => Promise<number | undefined>;
  logger: Logger;
  /** After a tick that threw. Default 60 s. */
  retryMs?: number;
}

export function createWatchSchedule(deps: WatchScheduleDeps): WatchSchedule {
  const retryMs = deps.retryMs ?? 60_000;
  const timers = new Map<number, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let sweepTimer: NodeJS.Timeout | undefined;
  let stopped = true;

  function at(chatId: number, delayMs: number): void {
    const old = timers.get(chatId);
    if (old) clearTimeout(old);
    if (stopped) return;
    timers.set(chatId, setTimeout(() => run(chatId), Math.max(0, delayMs)));
  }

  function run(chatId: number): void {
    const p = deps
      .tick(chatId)
      .then(
        (next) => {
          if (next === undefined) timers.delete(chatId);
          else at(chatId, next);
        },
        (error: unknown) => {
          deps.logger.warn({ err: error, chatId }, "balance watch tick failed; will try again");
          at(chatId, retryMs);
        },
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  return {
    at,
    has: (chatId) => timers.has(chatId),
    cancel(chatId) {
      clearTimeout(timers.get(chatId));
      timers.delete(chatId);
    },
    start(sweepEveryMs, sweep) {
      stopped = false;
      const again = (): void => {
        sweepTimer = setTimeout(() => {
          const p = sweep()
            .catch((error: unknown) => deps.logger.warn({ err: error }, "balance watch sweep failed"))
            .finally(() => {
              inFlight.delete(p);
              if (!stopped) again();
            });
          inFlight.add(p);
        }, sweepEveryMs);
      };
      again();
    },
    async stop() {
      stopped = true;
      if (sweepTimer) clearTimeout(sweepTimer);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
