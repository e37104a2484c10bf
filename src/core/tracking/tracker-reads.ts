import type { TrackedItem } from "./tracked-item.js";
import type { TrackedRecord, TrackerDeps } from "./tracker-types.js";

export interface TrackerReads {
  read(item: TrackedItem, apiKey: string): Promise<TrackedRecord>;
  /** Aborts every read in flight or waiting, and any begun before `open()`: a shutdown does not wait for a slow service. */
  abortAll(): void;
  open(): void;
  /** Reads sent to the service and not answered yet. */
  readonly size: number;
  /** Reads waiting for one of the `maxInFlight` places. */
  readonly waiting: number;
}

/**
 * Half of the service client's 32 sockets: the other half stays free for what a
 * user is waiting for (a /balance, a confirmation) while thousands of items are due.
 */
export const DEFAULT_MAX_READS_IN_FLIGHT = 16;

/**
 * The tracker's reads of the service, each with an abort controller of its
 * own: a signal shared by thousands of reads would collect a listener per
 * read (slow to add, and Node's MaxListenersExceededWarning).
 *
 * At most `maxInFlight` reads are sent at once; the others wait here, in the
 * order they came, as one small entry each. Unbounded, 10,000 items due while
 * the service answered slower than they came due each held a whole HTTP request
 * (its handler, timers, retry state) in the client's queue, where the
 * per-attempt timeout ran out before the request was even sent and the retries
 * added to the queue: 170 MB of heap after 20 s.
 */
export function createTrackerReads(service: TrackerDeps["service"], maxInFlight: number = DEFAULT_MAX_READS_IN_FLIGHT): TrackerReads {
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`);
  const reading = new Set<AbortController>();
  const queue: { start: () => void; controller: AbortController }[] = [];
  let closed = false;

  /** Resolves when the read may be sent; rejects with the abort's reason when aborted first. */
  function place(controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return Promise.reject(controller.signal.reason as Error);
    if (reading.size < maxInFlight) {
      reading.add(controller);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        controller,
        start: () => {
          controller.signal.removeEventListener("abort", onAbort);
          reading.add(controller);
          resolve();
        },
      };
      function onAbort(): void {
        const at = queue.indexOf(entry);
        if (at >= 0) queue.splice(at, 1);
        reject(controller.signal.reason as Error);
      }
      controller.signal.addEventListener("abort", onAbort, { once: true });
      queue.push(entry);
    });
  }

  function release(controller: AbortController): void {
    if (!reading.delete(controller)) return;
    queue.shift()?.start();
  }

  return {
    async read(item, apiKey) {
      const controller = new AbortController();
      if (closed) controller.abort();
      await place(controller);
      const { signal } = controller;
      try {
        return item.kind === "order"
          ? { kind: "order", record: await service.getOrder(apiKey, item.id, { signal }) }
          : { kind: "broadcast", record: await service.getBroadcast(apiKey, item.id, { signal }) };
      } finally {
        release(controller);
      }
    },
    abortAll() {
      closed = true;
      for (const { controller } of queue.splice(0)) controller.abort();
      for (const controller of reading) controller.abort();
      reading.clear();
    },
    open() {
      closed = false;
    },
    get size() {
      return reading.size;
    },
    get waiting() {
      return queue.length;
    },
  };
}
