import type { TrackedItem } from "./tracked-item.js";
import type { TrackedRecord, TrackerDeps } from "./tracker-types.js";

type ReadRecord = (item: TrackedItem, apiKey: string) => Promise<TrackedRecord>;

/** A place among the polls allowed now: its read, and its end (called once the poll is over, read or not). */
export interface ReadTurn {
  read: ReadRecord;
  end(): void;
}

export interface TrackerReads {
  /**
   * `start` runs when the limits allow one more poll, or `aborted` if `abortAll` comes first (at once after
   * it). All a waiting poll holds is these two functions.
   */
  whenTurn(start: (turn: ReadTurn) => void, aborted: (reason: Error) => void): void;
  /** A read outside the limits: a signed webhook's hint, which a user is waiting to see. */
  read: ReadRecord;
  /** Aborts every read in flight or waiting, and any begun before `open()`: a shutdown does not wait for a slow service. */
  abortAll(): void;
  open(): void;
  /** Turns taken and not ended yet. */
  readonly size: number;
  /** Turns waiting. */
  readonly waiting: number;
}

export interface TrackerReadLimits {
  /** Reads sent and not answered yet, at most. */
  maxInFlight: number;
  /** Reads sent per second, at most (evenly spaced, no burst). */
  maxPerSecond: number;
}

/**
 * In flight: half of the service client's 32 sockets, the other half stays free for what a user is
 * waiting for (a /balance, a confirmation). Per second: the service does not publish its limits
 * (service-api.md §8), so the tracker keeps to a rate a single busy key could draw without a 429
 * (the simulator models 100 per key per second). 3,000 items at the slowest pace (30 s) fit in it;
 * past that every item is read less often, never the service harder.
 */
export const DEFAULT_READ_LIMITS: TrackerReadLimits = { maxInFlight: 16, maxPerSecond: 100 };

/** A poll waiting for its turn: settled once, when its place comes or every read is aborted. */
interface Waiting {
  start(controller: AbortController): void;
  abort(reason: Error): void;
}

/**
 * The tracker's reads of the service, each with an abort controller of its
 * own: a signal shared by thousands of reads would collect a listener per
 * read (slow to add, and Node's MaxListenersExceededWarning).
 *
 * A poll takes its turn before it does anything (its lease, the stored item, the
 * decrypted key, the read), so polls beyond the limits wait here, in the order
 * they came, as one small entry each, and what a poll reads is fresh when it
 * runs. Unbounded, 10,000 items due at a start each held a whole HTTP request
 * (its handler, timers, retry state) in the client's queue, where the
 * per-attempt timeout ran out before the request was even sent and the retries
 * joined the queue.
 */
export function createTrackerReads(service: TrackerDeps["service"], limits: Partial<TrackerReadLimits> = {}, now: () => number = Date.now): TrackerReads {
  const { maxInFlight, maxPerSecond } = { ...DEFAULT_READ_LIMITS, ...limits };
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`);
  if (!(maxPerSecond > 0) || !Number.isFinite(maxPerSecond)) throw new RangeError(`maxPerSecond must be a positive number, got ${maxPerSecond}`);
  const spacingMs = 1_000 / maxPerSecond;
  /** Turns taken (their poll running); `outside`: reads outside the limits. */
  const reading = new Set<AbortController>();
  const outside = new Set<AbortController>();
  /** Waiting turns in the order they came (a Set: the first is taken and any one dropped without a search). */
  const queue = new Set<Waiting>();
  let nextStartAtMs = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** Takes a place now if the limits allow one: a controller of its own for the read, made only then. */
  function take(): AbortController | undefined {
    const at = now();
    if (reading.size >= maxInFlight || at < nextStartAtMs) return undefined;
    nextStartAtMs = Math.max(at, nextStartAtMs) + spacingMs;
    const controller = new AbortController();
    reading.add(controller);
    return controller;
  }

  /** Starts waiting reads while the limits allow, and wakes up when the rate allows the next. */
  function drain(): void {
    for (const entry of queue) {
      const controller = take();
      if (!controller) break;
      queue.delete(entry);
      entry.start(controller);
    }
    if (queue.size > 0 && reading.size < maxInFlight && timer === undefined) {
      timer = setTimeout(
        () => {
          timer = undefined;
          drain();
        },
        Math.max(0, nextStartAtMs - now()),
      );
    }
  }

  /**
   * Calls `start` with the read's controller when it may be sent, or `abort` when every read is aborted first.
   * A waiting turn is only these two functions: 10,000 items due at once wait here, and each waits long
   * enough for whatever it holds to be promoted to V8's old space and collected only much later.
   */
  function place(entry: Waiting): void {
    if (closed) return entry.abort(abortReason());
    const controller = queue.size === 0 ? take() : undefined;
    if (controller) return entry.start(controller);
    queue.add(entry);
    drain();
  }

  function release(controller: AbortController): void {
    if (reading.delete(controller)) drain();
  }

  async function send(item: TrackedItem, apiKey: string, signal: AbortSignal): Promise<TrackedRecord> {
    return item.kind === "order"
      ? { kind: "order", record: await service.getOrder(apiKey, item.id, { signal }) }
      : { kind: "broadcast", record: await service.getBroadcast(apiKey, item.id, { signal }) };
  }

  const turnOf = (controller: AbortController): ReadTurn => ({
    read: (item, apiKey) => send(item, apiKey, controller.signal),
    end: () => release(controller),
  });

  /** The reason a read begun after `abortAll` (and before `open`) is refused with, as an aborted signal gives. */
  const abortReason = (): Error => AbortSignal.abort().reason as Error;

  return {
    whenTurn(start, aborted) {
      place({ start: (controller) => start(turnOf(controller)), abort: aborted });
    },
    async read(item, apiKey) {
      const controller = new AbortController();
      if (closed) controller.abort();
      outside.add(controller);
      try {
        return await send(item, apiKey, controller.signal);
      } finally {
        outside.delete(controller);
      }
    },
    abortAll() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      const waiting = [...queue];
      queue.clear();
      const reason = abortReason();
      for (const entry of waiting) entry.abort(reason);
      for (const controller of [...reading, ...outside]) controller.abort();
      reading.clear();
      outside.clear();
    },
    open() {
      closed = false;
    },
    get size() {
      return reading.size;
    },
    get waiting() {
      return queue.size;
    },
  };
}
