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
 * back for its whole length. Undefined when `stopped()` says so meanwhile.
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
    if (stopped()) return undefined;
    slice.forEach(([key, item], j) => out.push([key, item, holds[j] === true]));
    if (i + SLICE < listed.length) await nextTurn();
  }
  return out;
}
