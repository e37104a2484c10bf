import type { Logger } from "pino";

/**
 * Keys that fall due at a time, under one timer: a map entry and a heap slot per key, not a timer each, so
 * 100,000 watched chats or 10,000 tracked items cost a few megabytes less and Node's timer list stays short.
 * At most `concurrency` runs go at once and runs start at most `maxPerSecond` times a second (keys past due
 * wait their turn in the heap); `holdFor` starts none for a while (a service that asked to slow down).
 *
 * A run says when its key runs next (undefined: not again); a run that throws is logged and run again after
 * `retryMs`. A key asked for while it runs keeps the earlier of the two times. Nothing is stored: what must
 * outlive the process keeps its own records and puts its keys back here at start.
 */
export interface DueQueue<K extends string | number> {
  /** Runs the key after `delayMs`, replacing the due time it had. */
  at(key: K, delayMs: number): void;
  /** Queued, or running and not cancelled. */
  has(key: K): boolean;
  /** When the queued key falls due (undefined while it runs with no next time asked for yet). */
  dueAt(key: K): number | undefined;
  cancel(key: K): void;
  /** No run starts for `ms`. */
  holdFor(ms: number): void;
  /** Keys with a due time: those waiting, and those running that were asked for again. */
  size(): number;
  /** The earliest due time among the keys waiting. */
  nextDueAt(): number | undefined;
  start(): void;
  /** Forgets every due time and waits for the runs in flight. */
  stop(): Promise<void>;
}

export interface DueQueueDeps<K> {
  run: (key: K) => Promise<number | undefined>;
  logger: Logger;
  /** Names the queue in its logs. */
  name: string;
  /** After a run that threw. Default 60 s. */
  retryMs?: number;
  /** Runs in flight at most. Default: no limit. */
  concurrency?: number;
  /** Run starts per second at most (evenly spaced). Default: no limit. */
  maxPerSecond?: number;
}

const DEFAULT_RETRY_MS = 60_000;
/** Node fires a longer timer at once (with a warning): a key due later is looked at after this long, then again. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Runs started in one turn of the event loop at most; the rest start on the next turns, so a start with thousands due does not block it. */
const STARTS_PER_TURN = 256;

export function createDueQueue<K extends string | number>(deps: DueQueueDeps<K>): DueQueue<K> {
  const retryMs = deps.retryMs ?? DEFAULT_RETRY_MS;
  const concurrency = Math.max(1, deps.concurrency ?? Number.POSITIVE_INFINITY);
  const spacingMs = deps.maxPerSecond === undefined ? 0 : 1000 / Math.max(0.001, deps.maxPerSecond);
  // The timers' own clock: a due time on another (a test's virtual one) could never be reached.
  const now = (): number => Date.now();
  /** The due time of each queued key; the heap may hold stale entries, skipped when they surface. */
  const due = new Map<K, number>();
  const heapAt: number[] = [];
  const heapKey: K[] = [];
  /** Keys whose run goes now; a due time set meanwhile waits in `due` and wins if earlier. */
  const running = new Set<K>();
  const cancelled = new Set<K>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let nextStartAt = 0;
  let heldUntil = 0;
  let stopped = true;

  function push(at: number, key: K): void {
    heapAt.push(at);
    heapKey.push(key);
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
    heapKey.pop();
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
    [heapKey[a], heapKey[b]] = [heapKey[b]!, heapKey[a]!];
  }

  /** Drops stale heap entries from the top; the earliest live due time, if any. */
  function earliest(): number | undefined {
    while (heapAt.length > 0) {
      const key = heapKey[0]!;
      if (due.get(key) === heapAt[0] && !running.has(key)) return heapAt[0];
      // A key running now keeps its due time in `due`; it is queued again when its run ends.
      pop();
    }
    return undefined;
  }

  function at(key: K, delayMs: number): void {
    if (stopped) return;
    cancelled.delete(key);
    const when = now() + Math.max(0, delayMs);
    due.set(key, when);
    if (running.has(key)) return;
    // A heap that grew mostly stale (keys rescheduled often) is rebuilt from `due`.
    if (heapAt.length > 2 * due.size + 1024) rebuild();
    push(when, key);
    arm();
  }

  function rebuild(): void {
    heapAt.length = 0;
    heapKey.length = 0;
    for (const [key, when] of due) if (!running.has(key)) push(when, key);
  }

  function arm(): void {
    if (stopped || running.size >= concurrency) return;
    const first = earliest();
    if (first === undefined) return;
    const when = Math.max(first, nextStartAt, heldUntil);
    if (timer && timerAt <= when) return;
    if (timer) clearTimeout(timer);
    timerAt = when;
    timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, when - now())));
  }

  function fire(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const t = now();
    for (let started = 0; started < STARTS_PER_TURN; started += 1) {
      if (stopped || running.size >= concurrency || t < heldUntil || t < nextStartAt) break;
      const first = earliest();
      if (first === undefined || first > t) break;
      const key = heapKey[0]!;
      pop();
      due.delete(key);
      nextStartAt = t + spacingMs;
      run(key);
    }
    arm();
  }

  function run(key: K): void {
    running.add(key);
    const settle = (next: number | undefined): void => {
      running.delete(key);
      const wasCancelled = cancelled.delete(key);
      const requested = due.get(key);
      if (requested !== undefined) {
        // Asked for again while it ran: the earlier of the two.
        const when = next === undefined ? requested : Math.min(requested, now() + next);
        due.delete(key);
        at(key, when - now());
      } else if (next !== undefined && !wasCancelled) at(key, next);
      arm();
    };
    const p = deps
      .run(key)
      .then(settle, (error: unknown) => {
        deps.logger.warn({ err: error, key, retryInMs: retryMs }, `${deps.name} run failed; will try again`);
        settle(retryMs);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  return {
    at,
    has: (key) => due.has(key) || (running.has(key) && !cancelled.has(key)),
    dueAt: (key) => due.get(key),
    cancel(key) {
      due.delete(key);
      if (running.has(key)) cancelled.add(key);
    },
    holdFor(ms) {
      heldUntil = Math.max(heldUntil, now() + ms);
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      arm();
    },
    size: () => due.size,
    nextDueAt: earliest,
    start() {
      stopped = false;
      arm();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      due.clear();
      cancelled.clear();
      heapAt.length = 0;
      heapKey.length = 0;
      await Promise.allSettled([...inFlight]);
    },
  };
}
