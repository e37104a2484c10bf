import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { openStore } from "../../../src/platform/store/open-store.js";
import { createReadMemo } from "../../../src/platform/store/read-memo.js";
import { createRecordStore, type RecordStore } from "../../../src/platform/store/record-store.js";
import type { KeyValue, StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "./helpers.js";

const recordSchema = z.object({ name: z.string(), tags: z.array(z.string()) });
type Item = z.infer<typeof recordSchema>;

let backend: StoreBackend;
/** Ids read from the store, in order (a batch counts each of its ids). */
let read: string[];
/** Gates the next store read: it answers once `release` is called. */
let gate: { release(): void; reached: Promise<void> } | undefined;

function counted(kv: KeyValue): KeyValue {
  const held = async () => {
    const current = gate;
    gate = undefined;
    if (current) await current.reached;
  };
  return {
    ...kv,
    get: async <T>(key: string): Promise<T | undefined> => {
      read.push(key);
      const value = await kv.get<T>(key);
      await held();
      return value;
    },
    ...(kv.getMany
      ? {
          getMany: async (keys: readonly string[]) => {
            read.push(...keys);
            return kv.getMany!(keys);
          },
        }
      : {}),
  };
}

function cachedStore(maxEntries = 10): RecordStore<Item> {
  const { logger } = captureLogger();
  return createRecordStore({ kv: counted(backend.namespace("items")), schema: recordSchema, version: 1, logger, name: "items", cache: { maxEntries } });
}

beforeEach(async () => {
  backend = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  read = [];
  gate = undefined;
});
afterEach(async () => {
  await backend.close();
});

describe("a record store that keeps records across units of work (a sole writer)", () => {
  it("keeps what it wrote, and a record read twice: the store is not read for it again", async () => {
    const records = cachedStore();
    await records.set("a", { name: "first", tags: [] });
    expect(await records.get("a")).toEqual({ name: "first", tags: [] });
    for (let i = 0; i < 3; i += 1) expect(await records.get("b")).toBeUndefined();
    expect(read).toEqual(["b", "b"]);
  });

  it("keeps nothing of a pass that reads many records once each, so what it kept stays", async () => {
    const records = cachedStore(2);
    await records.set("busy", { name: "busy", tags: [] });
    for (const id of ["p1", "p2", "p3", "p4", "p5"]) await records.get(id);
    await records.get("busy");
    expect(read).toEqual(["p1", "p2", "p3", "p4", "p5"]);
  });

  it("answers with what it wrote since: a set, an update's result, a delete", async () => {
    const records = cachedStore();
    await records.set("a", { name: "first", tags: [] });
    await records.update("a", (current) => ({ name: "second", tags: [...(current?.tags ?? []), "x"] }));
    expect(await records.get("a")).toEqual({ name: "second", tags: ["x"] });
    await records.delete("a");
    expect(await records.get("a")).toBeUndefined();
    // The update read the store (it always does: a versioned read, not counted here); the gets did not.
    expect(read).toEqual([]);
  });

  it("gives each reader its own copy", async () => {
    const records = cachedStore();
    await records.set("a", { name: "first", tags: [] });
    const mine = await records.get("a");
    mine!.tags.push("changed by a reader");
    expect(await records.get("a")).toEqual({ name: "first", tags: [] });
  });

  it("refuses a record with an expiry, which it could serve past its end", async () => {
    const records = cachedStore();
    await expect(records.set("short", { name: "expires", tags: [] }, 60_000)).rejects.toThrow(/expiry/);
    await expect(records.update("short", () => ({ name: "expires", tags: [] }), 60_000)).rejects.toThrow(/expiry/);
    expect(await backend.namespace("items").get("short")).toBeUndefined();
  });

  it("keeps the records used last: beyond its size the least recently used is read from the store again", async () => {
    const records = cachedStore(2);
    for (const id of ["a", "b", "c"]) await records.set(id, { name: id, tags: [] });
    await records.get("b");
    await records.get("c");
    expect(read).toEqual([]);
    // a went when c was written; read twice, it is kept again, and b, now the least recently used, goes.
    await records.get("a");
    await records.get("a");
    await records.get("c");
    await records.get("b");
    expect(read).toEqual(["a", "a", "b"]);
  });

  it("does not keep what a read found when a write came while it was under way", async () => {
    const records = cachedStore();
    await backend.namespace("items").set("a", { v: 1, data: { name: "old", tags: [] } });
    let release!: () => void;
    gate = { release: () => release(), reached: new Promise<void>((resolve) => (release = resolve)) };
    const slow = records.get("a");
    await records.set("a", { name: "new", tags: [] });
    release();
    expect(await slow).toEqual({ name: "old", tags: [] });
    expect(await records.get("a")).toEqual({ name: "new", tags: [] });
  });

  it("reads only the records it does not hold when asked for several, and keeps them", async () => {
    const records = cachedStore();
    await records.set("a", { name: "a", tags: [] });
    await backend.namespace("items").set("b", { v: 1, data: { name: "b", tags: [] } });
    expect(await records.getMany(["a", "b", "c"])).toEqual([{ name: "a", tags: [] }, { name: "b", tags: [] }, undefined]);
    expect(await records.getMany(["c", "b"])).toEqual([undefined, { name: "b", tags: [] }]);
    expect(await records.getMany(["b", "c"])).toEqual([{ name: "b", tags: [] }, undefined]);
    expect(read).toEqual(["b", "c", "c", "b"]);
  });

  it("answers inside a unit of work from the unit's memo, and later units from the cache", async () => {
    const memo = createReadMemo();
    const { logger } = captureLogger();
    const records = createRecordStore({
      kv: counted(backend.namespace("items")),
      schema: recordSchema,
      version: 1,
      logger,
      name: "items",
      memo,
      cache: { maxEntries: 10 },
    });
    await backend.namespace("items").set("a", { v: 1, data: { name: "a", tags: [] } });
    await memo.run(async () => {
      await records.get("a");
      await records.get("a");
    });
    await memo.run(() => records.get("a"));
    await memo.run(() => records.get("a"));
    memo.close();
    // The first unit read it once; the second read it again, and kept it; the third read none.
    expect(read).toEqual(["a", "a"]);
  });
});
