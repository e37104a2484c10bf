import { setImmediate as nextTurn } from "node:timers/promises";
import type { RecordStore } from "../../platform/store/record-store.js";
import type { ItemLeases } from "./item-leases.js";
import type { TrackedItem } from "./tracked-item.js";

/** Ids listed and leases claimed in one store call between two turns of the event loop. */
const SLICE = 100;

export interface ScanSides {
  /** Whether this process polls the item now. */
  isLive(key: string): boolean;
  /** A live item whose lease another process holds now: it is that one's to poll. */
  lost(key: string): void;
  stopped(): boolean;
}

/**
 * One pass over the stored items: the ids are listed (a page at a time), and the leases of each
 * slice of 100 taken or renewed in one store call as the listing goes. Only
 * the records of the items taken now (to adopt) are read, a slice's in one
 * call: the items this process polls already, almost all of them in a steady
 * state, cost their lease and nothing else. Listing and parsing every record
 * (10,000 items every 5 s) was most of what the process allocated while it
 * tracked them, and what it promoted to V8's old space. The store answers
 * synchronously on SQLite, so the event loop gets a turn after each slice.
 *
 * Answers the items this process took now and does not poll yet (to adopt);
 * undefined when `stopped()` says so meanwhile, the leases of those items
 * and of the slice in hand given up (stop() gives up those of the live ones).
 * An item taken whose record is gone meanwhile (or unreadable) has nothing
 * to poll: its lease is given up at once.
 */
export async function holdStoredItems(items: RecordStore<TrackedItem>, held: ItemLeases, sides: ScanSides): Promise<Array<[string, TrackedItem]> | undefined> {
  const adopted: [string, TrackedItem][] = [];
  let slice: string[] = [];

  /** Holds the slice in hand; false when stopped meanwhile (its leases and the adopted ones handed back). */
  async function holdSlice(): Promise<boolean> {
    const holds = await held.holdAll(slice);
    if (sides.stopped()) {
      const claimed = slice.filter((_, i) => holds[i] === true);
      await releaseAll(held, [...claimed, ...adopted.map(([key]) => key)]);
      return false;
    }
    const taken: string[] = [];
    slice.forEach((key, i) => {
      const mine = holds[i] === true;
      const live = sides.isLive(key);
      if (live && !mine) sides.lost(key);
      else if (!live && mine) taken.push(key);
    });
    slice = [];
    if (taken.length > 0) {
      const records = await items.getMany(taken);
      const gone: string[] = [];
      taken.forEach((key, i) => {
        const item = records[i];
        if (item) adopted.push([key, item]);
        else gone.push(key);
      });
      await releaseAll(held, gone);
    }
    await nextTurn();
    return true;
  }

  for await (const page of items.idPages()) {
    for (const key of page) {
      if (sides.stopped()) {
        await releaseAll(
          held,
          adopted.map(([adoptedKey]) => adoptedKey),
        );
        return undefined;
      }
      slice.push(key);
      if (slice.length === SLICE && !(await holdSlice())) return undefined;
    }
  }
  if (slice.length > 0 && !(await holdSlice())) return undefined;
  return adopted;
}

/** Gives the leases of `keys` up; a failure only leaves a lease to run out by itself. */
export async function releaseAll(held: ItemLeases, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => held.release(key)));
}
