import type { Logger } from "pino";

/**
 * The timing of the balance watch: a due-time queue of chat ids under one
 * timer, so 100,000 linked chats cost a map entry and a heap slot each, not a
 * timer each. At most `concurrency` ticks run at once and ticks start at most
 * `maxPerSecond` times a second, so the service sees a bounded rate however
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
  /** Chats waiting in the queue (not counting ticks in flight). */
  size(): number;
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
  now?: () => number;
}

export const WATCH_SCHEDULE_DEFAULTS = { retryMs: 60_000, concurrency: 4, maxPerSecond: 20 } as const;

export function createWatchSchedule(deps: WatchScheduleDeps): WatchSchedule {
  const retryMs = deps.retryMs ?? WATCH_SCHEDULE_DEFAULTS.retryMs;
  const concurrency = Math.max(1, deps.concurrency ?? WATCH_SCHEDULE_DEFAULTS.concurrency);
  const spacingMs = 1000 / Math.max(0.001, deps.maxPerSecond ?? WATCH_SCHEDULE_DEFAULTS.maxPerSecond);
  const now = deps.now ?? Date.now;
  /** The due time of each queued chat; the heap below may hold stale entries, skipped when they surface. */
  const due = new Map<number, number>();
  const heapAt: number[] = [];
  const heapChat: number[] = [];
  /** Chats whose tick runs now; a due time set meanwhile waits in `due` and wins if earlier. */
  const running = new Set<number>();
  const cancelled = new Set<number>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let nextStartAt = 0;
  let heldUntil = 0;
  let stopped = true;
  let sweeps = new AbortController();
  let sweepTimer: NodeJS.Timeout | undefined;

  function push(at: number, chatId: number): void {
    heapAt.push(at);
    heapChat.push(chatId);
    let i = heapAt.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heapAt[parent]! <= heapAt[i]!) break;
      swap(i, parent);
      i = parent;
    }
  }

  function pop(): void {
    const last = heapAt.length - 1;
    swap(0, last);
    heapAt.pop();
    heapChat.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heapAt.length && heapAt[l]! < heapAt[m]!) m = l;
      if (r < heapAt.length && heapAt[r]! < heapAt[m]!) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  }

  function swap(a: number, b: number): void {
    [heapAt[a], heapAt[b]] = [heapAt[b]!, heapAt[a]!];
    [heapChat[a], heapChat[b]] = [heapChat[b]!, heapChat[a]!];
  }

  /** Drops stale heap entries from the top; the earliest live due time, if any. */
  function earliest(): number | undefined {
    while (heapAt.length > 0) {
      const chatId = heapChat[0]!;
      if (due.get(chatId) === heapAt[0] && !running.has(chatId)) return heapAt[0];
      // A chat running now keeps its due time in `due`; it is queued again when its tick ends.
      pop();
    }
    return undefined;
  }

  function at(chatId: number, delayMs: number): void {
    if (stopped) return;
    cancelled.delete(chatId);
    const when = now() + Math.max(0, delayMs);
    due.set(chatId, when);
    if (running.has(chatId)) return;
    // A heap that grew mostly stale (chats re-linked or rescheduled often) is rebuilt from `due`.
    if (heapAt.length > 2 * due.size + 1024) rebuild();
    push(when, chatId);
    arm();
  }

  function rebuild(): void {
    heapAt.length = 0;
    heapChat.length = 0;
    for (const [chatId, when] of due) if (!running.has(chatId)) push(when, chatId);
  }

  function arm(): void {
    if (stopped || running.size >= concurrency) return;
    const first = earliest();
    if (first === undefined) return;
    const when = Math.max(first, nextStartAt, heldUntil);
    if (timer && timerAt <= when) return;
    if (timer) clearTimeout(timer);
    timerAt = when;
    timer = setTimeout(fire, Math.max(0, when - now()));
  }

  function fire(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const t = now();
    if (!stopped && running.size < concurrency && t >= heldUntil && t >= nextStartAt) {
      const first = earliest();
      if (first !== undefined && first <= t) {
        const chatId = heapChat[0]!;
        pop();
        due.delete(chatId);
        nextStartAt = t + spacingMs;
        run(chatId);
      }
    }
    arm();
  }

  function run(chatId: number): void {
    running.add(chatId);
    const settle = (next: number | undefined): void => {
      running.delete(chatId);
      const wasCancelled = cancelled.delete(chatId);
      const requested = due.get(chatId);
      if (requested !== undefined) {
        // Asked for again while it ran (a re-link): the earlier of the two.
        const when = next === undefined ? requested : Math.min(requested, now() + next);
        due.delete(chatId);
        at(chatId, when - now());
      } else if (next !== undefined && !wasCancelled) at(chatId, next);
      arm();
    };
    const p = deps
      .tick(chatId)
      .then(settle, (error: unknown) => {
        deps.logger.warn({ err: error, chatId }, "balance watch tick failed; will try again");
        settle(retryMs);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  function runSweep(sweep: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
    const p = sweep(signal)
      .catch((error: unknown) => {
        if (!signal.aborted) deps.logger.warn({ err: error }, "balance watch sweep failed; the next one comes at its time");
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  }

  return {
    at,
    has: (chatId) => due.has(chatId) || (running.has(chatId) && !cancelled.has(chatId)),
    cancel(chatId) {
      due.delete(chatId);
      if (running.has(chatId)) cancelled.add(chatId);
    },
    holdFor(ms) {
      heldUntil = Math.max(heldUntil, now() + ms);
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      arm();
    },
    size: () => due.size,
    start(sweepEveryMs, sweep) {
      stopped = false;
      sweeps = new AbortController();
      const signal = sweeps.signal;
      const again = (): void => {
        void runSweep(sweep, signal).then(() => {
          if (!signal.aborted) sweepTimer = setTimeout(again, sweepEveryMs);
        });
      };
      again();
      arm();
    },
    async stop() {
      stopped = true;
      sweeps.abort();
      clearTimeout(sweepTimer);
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      due.clear();
      heapAt.length = 0;
      heapChat.length = 0;
      await Promise.allSettled([...inFlight]);
    },
  };
}
