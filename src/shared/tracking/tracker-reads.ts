import type { TrackedItem } from "./tracked-item.js";
import type { TrackedRecord, TrackerDeps } from "./tracker-types.js";

type ReadRecord = (item: TrackedItem, apiKey: string) => Promise<TrackedRecord>;

/** A poll's place among the reads in flight: its read, and its end (called once the poll is over, read or not). */
export interface ReadTurn {
  read: ReadRecord;
  end(): void;
}

export interface TrackerReads {
  /** A poll's turn; the tracker's queue starts no more polls than the limits allow. Refused (the read rejects) after `abortAll` until `open`. */
  turn(): ReadTurn;
  /** A read outside the limits: a signed webhook's hint, which a user is waiting to see. */
  read: ReadRecord;
  /** Aborts every read in flight, and any begun before `open()`: a shutdown does not wait for a slow service. */
  abortAll(): void;
  open(): void;
  /** Turns taken and not ended yet. */
  readonly size: number;
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

/** The limits with their defaults, refused when they are not positive. */
export function trackerReadLimits(limits: Partial<TrackerReadLimits> = {}): TrackerReadLimits {
  const { maxInFlight, maxPerSecond } = { ...DEFAULT_READ_LIMITS, ...limits };
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`);
  if (!(maxPerSecond > 0) || !Number.isFinite(maxPerSecond)) throw new RangeError(`maxPerSecond must be a positive number, got ${maxPerSecond}`);
  return { maxInFlight, maxPerSecond };
}

/**
 * The tracker's reads of the service, each with an abort controller of its
 * own: a signal shared by thousands of reads would collect a listener per
 * read (slow to add, and Node's MaxListenersExceededWarning).
 *
 * The limits are kept by the tracker's due queue, which starts a poll (its lease, the stored item, the decrypted
 * key, the read) only when there is room: polls beyond the limits wait there as a key and a time, and what a poll
 * reads is fresh when it runs. Unbounded, 10,000 items due at a start each held a whole HTTP request (its handler,
 * timers, retry state) in the client's queue, where the per-attempt timeout ran out before the request was even
 * sent and the retries joined the queue.
 */
export function createTrackerReads(service: TrackerDeps["service"]): TrackerReads {
  /** Turns taken (their poll running); `outside`: reads outside the limits. */
  const reading = new Set<AbortController>();
  const outside = new Set<AbortController>();
  let closed = false;

  async function send(item: TrackedItem, apiKey: string, signal: AbortSignal): Promise<TrackedRecord> {
    return item.kind === "order"
      ? { kind: "order", record: await service.getOrder(apiKey, item.id, { signal }) }
      : { kind: "broadcast", record: await service.getBroadcast(apiKey, item.id, { signal }) };
  }

  return {
    turn() {
      if (closed) {
        const refused = AbortSignal.abort();
        return { read: () => Promise.reject(refused.reason as Error), end: () => undefined };
      }
      const controller = new AbortController();
      reading.add(controller);
      return { read: (item, apiKey) => send(item, apiKey, controller.signal), end: () => reading.delete(controller) };
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
  };
}
