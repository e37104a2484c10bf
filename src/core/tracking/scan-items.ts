import { setImmediate as nextTurn } from "node:timers/promises";
import type { RecordStore } from "../store/record-store.js";
import type { ItemLeases } from "./item-leases.js";
import type { TrackedItem } from "./tracked-item.js";

/** Records listed and leases claimed in one store call between two turns of the event loop (about 10 ms of work on a busy machine). */
const SLICE = 100;

export interface ScanSides {
  /** Whether this process polls the item now. */
  isLive(key: string): boolean;
  /** A live item whose lease another process holds now: it is that one's to poll. */
  lost(key: string): void;
  stopped(): boolean;
}

/**
 * One pass over the stored items: the leases of each slice of 100 taken or
 * renewed in one store call as the listing goes, so a scan keeps at most a
 * slice of records in hand. A whole listing kept until its end (10,000 items,
 * every few seconds) lived long enough to be promoted to V8's old space and
 * was most of what grew the process between collections. The store answers
 * synchronously on SQLite, so the event loop gets a turn after each slice.
 *
 * Answers the items this process took now and does not poll yet (to adopt);
 * undefined when `stopped()` says so meanwhile, the leases of those items
 * and of the slice in hand given up (stop() gives up those of the live ones).
 */
export async function holdStoredItems(items: RecordStore<TrackedItem>, held: ItemLeases, sides: ScanSides): Promise<Array<[string, TrackedItem]> | undefined> {
  const adopted: [string, TrackedItem][] = [];
  let slice: [string, TrackedItem][] = [];

  /** Holds the slice in hand; false when stopped meanwhile (its leases and the adopted ones handed back). */
  async function holdSlice(): Promise<boolean> {
    const holds = await held.holdAll(slice.map(([key]) => key));
    if (sides.stopped()) {
      const taken = slice.filter((_, i) => holds[i] === true).map(([key]) => key);
      await releaseAll(held, [...taken, ...adopted.map(([key]) => key)]);
      return false;
    }
    slice.forEach(([key, item], i) => {
      const mine = holds[i] === true;
      const live = sides.isLive(key);
      if (live && !mine) sides.lost(key);
      else if (!live && mine) adopted.push([key, item]);
    });
    slice = [];
    await nextTurn();
    return true;
  }

  for await (const entry of items.list()) {
    if (sides.stopped()) {
      await releaseAll(held, adopted.map(([key]) => key));
      return undefined;
    }
    slice.push(entry);
    if (slice.length === SLICE && !(await holdSlice())) return undefined;
  }
  if (slice.length > 0 && !(await holdSlice())) return undefined;
  return adopted;
}

/** Gives the leases of `keys` up; a failure only leaves a lease to run out by itself. */
export async function releaseAll(held: ItemLeases, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => held.release(key)));
}
