import { setImmediate as nextTurn } from "node:timers/promises";
import type { RecordStore } from "../store/record-store.js";
import type { ItemLeases } from "./item-leases.js";
import type { TrackedItem } from "./tracked-item.js";

/** Rows parsed, or leases claimed in one store call, between two turns of the event loop (about 10 ms of work on a busy machine). */
const SLICE = 100;

/**
 * Every stored item with whether this process holds its lease now (taken or
 * renewed): the leases in one store call per 100 items, not one per item.
 * The store answers synchronously on SQLite, so the event loop gets a turn
 * after each slice: a scan of 10k items never holds webhooks and updates
 * back for its whole length. Undefined when `stopped()` says so meanwhile
 * (the leases taken by then given up).
 */
export async function listAndHold(items: RecordStore<TrackedItem>, held: ItemLeases, stopped: () => boolean): Promise<Array<[string, TrackedItem, boolean]> | undefined> {
  const listed: [string, TrackedItem][] = [];
  for await (const entry of items.list()) {
    if (stopped()) return undefined;
    listed.push(entry);
    if (listed.length % SLICE === 0) await nextTurn();
  }
  const out: Array<[string, TrackedItem, boolean]> = [];
  for (let i = 0; i < listed.length; i += SLICE) {
    const slice = listed.slice(i, i + SLICE);
    const holds = await held.holdAll(slice.map(([key]) => key));
    slice.forEach(([key, item], j) => out.push([key, item, holds[j] === true]));
    if (stopped()) {
      // Stopped meanwhile: what this scan took is handed back, as stop() does for the items polled.
      await releaseAll(held, out.filter(([, , mine]) => mine).map(([key]) => key));
      return undefined;
    }
    if (i + SLICE < listed.length) await nextTurn();
  }
  return out;
}

/** Gives the leases of `keys` up; a failure only leaves a lease to run out by itself. */
export async function releaseAll(held: ItemLeases, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => held.release(key)));
}
