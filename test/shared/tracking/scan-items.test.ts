import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeases } from "../../../src/platform/store/lease.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { createRecordStore, type RecordStore } from "../../../src/platform/store/record-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createItemLeases, type ItemLeases } from "../../../src/shared/tracking/item-leases.js";
import { holdStoredItems } from "../../../src/shared/tracking/scan-items.js";
import { itemKey, newTrackedItem, trackedItemSchema, type TrackedItem } from "../../../src/shared/tracking/tracked-item.js";

/**
 * One scan of the stored tracked items: leases taken or renewed a slice at a
 * time while the listing goes on, so a scan never has the whole store in
 * hand; what it answers is what this process should start polling.
 */

const logger = pino({ level: "silent" });
const TTL_MS = 60_000;
let dir: string;
let stores: StoreBackend[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scan-items-"));
  stores = [];
});
afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A process on the shared SQLite file: its tracked items and its leases. */
async function startProcess(owner: string): Promise<{ items: RecordStore<TrackedItem>; held: ItemLeases }> {
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  stores.push(store);
  return {
    items: createRecordStore({ kv: store.namespace("tracking"), schema: trackedItemSchema, version: 1, logger, name: "tracking" }),
    held: createItemLeases(createLeases({ store, owner }), TTL_MS),
  };
}

async function seed(items: RecordStore<TrackedItem>, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const item = newTrackedItem({ chatId: 7_000 + i, kind: "order", id: `o${i}` }, "bot", Date.now(), { orderHorizonMs: 3_600_000, broadcastMarginMs: 0 });
    const key = itemKey(item.chatId, "order", item.id);
    await items.set(key, item);
    keys.push(key);
  }
  return keys;
}

const nobodyLive = { isLive: () => false, lost: () => undefined, stopped: () => false };

describe("holdStoredItems", () => {
  it("claims the leases of each slice of 100 as the listing goes, never after listing the whole store", async () => {
    const { items, held } = await startProcess("a");
    await seed(items, 350);
    let listed = 0;
    const counted: RecordStore<TrackedItem> = {
      ...items,
      // Listed one id at a time here, to see when each slice's leases are claimed.
      idPages: () => ({
        async *[Symbol.asyncIterator]() {
          for await (const page of items.idPages()) {
            for (const id of page) {
              listed += 1;
              yield [id];
            }
          }
        },
      }),
    };
    const calls: { size: number; listedBefore: number }[] = [];
    const counting: ItemLeases = {
      ...held,
      holdAll: (keys) => {
        calls.push({ size: keys.length, listedBefore: listed });
        return held.holdAll(keys);
      },
    };

    const adopted = await holdStoredItems(counted, counting, nobodyLive);

    expect(calls).toEqual([
      { size: 100, listedBefore: 100 },
      { size: 100, listedBefore: 200 },
      { size: 100, listedBefore: 300 },
      { size: 50, listedBefore: 350 },
    ]);
    expect(adopted).toHaveLength(350);
  });

  it("reads the records of the items it takes now, a slice in one call, and none of those it polls already", async () => {
    const { items, held } = await startProcess("a");
    const keys = await seed(items, 250);
    const live = new Set(keys.slice(0, 240));
    const reads: string[][] = [];
    const reading: RecordStore<TrackedItem> = {
      ...items,
      list: () => {
        throw new Error("a scan does not list records");
      },
      get: () => {
        throw new Error("a scan reads records a slice at a time");
      },
      getMany: (ids) => {
        reads.push([...ids]);
        return items.getMany(ids);
      },
    };

    const first = await holdStoredItems(reading, held, { ...nobodyLive, isLive: (key) => live.has(key) });
    const second = await holdStoredItems(reading, held, { ...nobodyLive, isLive: (key) => live.has(key) || first!.some(([k]) => k === key) });

    expect(first?.map(([key]) => key).sort()).toEqual(keys.slice(240).sort());
    expect(first?.every(([key, item]) => itemKey(item.chatId, item.kind, item.id) === key)).toBe(true);
    // The ten free items are the last slice's (ids listed in key order): one read for all of them.
    expect(reads).toHaveLength(1);
    expect(reads[0]!.sort()).toEqual(keys.slice(240).sort());
    expect(second).toEqual([]);
    expect(reads.flat()).toHaveLength(10);
  });

  it("gives the lease of an item forgotten between its listing and its reading up at once", async () => {
    const a = await startProcess("a");
    const b = await startProcess("b");
    const keys = await seed(a.items, 3);
    const forgetting: RecordStore<TrackedItem> = {
      ...a.items,
      getMany: async (ids) => {
        // Another process forgets the item right after the lease was taken.
        await a.items.delete(keys[1]!);
        return a.items.getMany(ids);
      },
    };

    const adopted = await holdStoredItems(forgetting, a.held, nobodyLive);

    expect(adopted?.map(([key]) => key).sort()).toEqual([keys[0]!, keys[2]!].sort());
    expect(await b.held.holdAll(keys)).toEqual([false, true, false]);
  });

  it("answers the free items it does not poll yet, and hands over the polled ones another process holds now", async () => {
    const a = await startProcess("a");
    const b = await startProcess("b");
    const keys = await seed(a.items, 6);
    // b polls keys 0-1; a polls keys 2-3 but b took key 3 meanwhile; keys 4-5 are free.
    await b.held.holdAll([keys[0]!, keys[1]!, keys[3]!]);
    const live = new Set([keys[2]!, keys[3]!]);
    const lost: string[] = [];

    const adopted = await holdStoredItems(a.items, a.held, { isLive: (key) => live.has(key), lost: (key) => lost.push(key), stopped: () => false });

    expect(adopted?.map(([key]) => key).sort()).toEqual([keys[4]!, keys[5]!].sort());
    expect(adopted?.every(([key, item]) => itemKey(item.chatId, item.kind, item.id) === key)).toBe(true);
    expect(lost).toEqual([keys[3]!]);
    // What a holds now, b cannot take; b's own stay b's.
    expect(await b.held.holdAll(keys)).toEqual([true, true, false, true, false, false]);
  });

  it("stopped in the middle, gives up every lease it took for items it does not poll and answers nothing", async () => {
    const a = await startProcess("a");
    const b = await startProcess("b");
    const keys = await seed(a.items, 250);
    let slices = 0;
    const stopping: ItemLeases = {
      ...a.held,
      holdAll: async (k) => {
        const holds = await a.held.holdAll(k);
        slices += 1;
        return holds;
      },
    };

    const adopted = await holdStoredItems(a.items, stopping, { ...nobodyLive, stopped: () => slices >= 2 });

    expect(adopted).toBeUndefined();
    expect(slices).toBe(2);
    // Every key is free for another process at once: the 200 taken and handed back, the 50 never reached.
    expect((await b.held.holdAll(keys)).every(Boolean)).toBe(true);
  });
});
