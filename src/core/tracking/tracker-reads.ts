import type { TrackedItem } from "./tracked-item.js";
import type { TrackedRecord, TrackerDeps } from "./tracker-types.js";

export interface TrackerReads {
  read(item: TrackedItem, apiKey: string): Promise<TrackedRecord>;
  /** Aborts every read in flight, and any begun before `open()`: a shutdown does not wait for a slow service. */
  abortAll(): void;
  open(): void;
  /** Reads in flight now. */
  readonly size: number;
}

/**
 * The tracker's reads of the service, each with an abort controller of its
 * own: a signal shared by thousands of reads would collect a listener per
 * read (slow to add, and Node's MaxListenersExceededWarning).
 */
export function createTrackerReads(service: TrackerDeps["service"]): TrackerReads {
  const reading = new Set<AbortController>();
  let closed = false;
  return {
    async read(item, apiKey) {
      const controller = new AbortController();
      if (closed) controller.abort();
      reading.add(controller);
      const { signal } = controller;
      try {
        return item.kind === "order"
          ? { kind: "order", record: await service.getOrder(apiKey, item.id, { signal }) }
          : { kind: "broadcast", record: await service.getBroadcast(apiKey, item.id, { signal }) };
      } finally {
        reading.delete(controller);
      }
    },
    abortAll() {
      closed = true;
      for (const controller of reading) controller.abort();
      reading.clear();
    },
    open() {
      closed = false;
    },
    get size() {
      return reading.size;
    },
  };
}
