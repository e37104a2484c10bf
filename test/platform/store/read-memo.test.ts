import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createReadMemo, type ReadMemo } from "../../../src/platform/store/read-memo.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { createRecordStore, type RecordStore } from "../../../src/platform/store/record-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { getMany } from "../../../src/platform/store/batch.js";
import { captureLogger, countingReads } from "./helpers.js";

const recordSchema = z.object({ name: z.string(), tags: z.array(z.string()) });
type Item = z.infer<typeof recordSchema>;

let backend: StoreBackend;
let reads: number;
let memo: ReadMemo;
let records: RecordStore<Item>;

function storeOf(withMemo: ReadMemo | undefined): RecordStore<Item> {
  const { logger } = captureLogger();
  const kv = countingReads(backend.namespace("items"), () => (reads += 1));
  return createRecordStore({ kv, schema: recordSchema, version: 1, logger, name: "items", ...(withMemo ? { memo: withMemo } : {}) });
}

beforeEach(async () => {
  backend = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  reads = 0;
  memo = createReadMemo();
  records = storeOf(memo);
  await records.set("a", { name: "first", tags: [] });
  reads = 0;
});
afterEach(async () => {
  memo.close();
  await backend.close();
});

describe("a unit of work reads each record once", () => {
  it("outside a unit, every read goes to the store", async () => {
    await records.get("a");
    await records.get("a");
    expect(reads).toBe(2);
  });

  it("inside a unit, a second read of a record (or of its absence) is answered from the first", async () => {
    await memo.run(async () => {
      expect(await records.get("a")).toEqual({ name: "first", tags: [] });
      expect(await records.get("a")).toEqual({ name: "first", tags: [] });
      expect(await records.get("missing")).toBeUndefined();
      expect(await records.get("missing")).toBeUndefined();
    });
    expect(reads).toBe(2);
  });

  it("a read of several records asks the store only for those the unit has not read, in one call, and keeps them", async () => {
    await storeOf(undefined).set("b", { name: "second", tags: ["x"] });
    const asked: string[][] = [];
    const kv = backend.namespace("items");
    const counted = createRecordStore({
      kv: { ...kv, get: (key) => (asked.push([key]), kv.get(key)), getMany: (keys) => (asked.push([...keys]), getMany(kv, keys)) },
      schema: recordSchema,
      version: 1,
      logger: captureLogger().logger,
      name: "items",
      memo,
    });
    await memo.run(async () => {
      await counted.get("a");
      expect(await counted.getMany(["a", "b", "missing"])).toEqual([{ name: "first", tags: [] }, { name: "second", tags: ["x"] }, undefined]);
      expect(await counted.get("b")).toEqual({ name: "second", tags: ["x"] });
      expect(await counted.getMany(["missing", "a"])).toEqual([undefined, { name: "first", tags: [] }]);
    });
    expect(asked).toEqual([["a"], ["b", "missing"]]);
    // Outside a unit, every key goes to the store.
    await counted.getMany(["a", "b"]);
    expect(asked.at(-1)).toEqual(["a", "b"]);
  });

  it("each unit reads the store afresh: a write made between two units is seen by the second", async () => {
    await memo.run(() => records.get("a"));
    await storeOf(undefined).set("a", { name: "changed elsewhere", tags: [] });
    expect(await memo.run(() => records.get("a"))).toEqual({ name: "changed elsewhere", tags: [] });
  });

  it("sees its own writes: set, update and delete", async () => {
    await memo.run(async () => {
      await records.get("a");
      await records.set("a", { name: "set", tags: [] });
      expect((await records.get("a"))?.name).toBe("set");
      await records.update("a", (r) => r && { ...r, name: "updated" });
      expect((await records.get("a"))?.name).toBe("updated");
      await records.delete("a");
      expect(await records.get("a")).toBeUndefined();
    });
  });

  it("an update always reads the store, whatever the unit read before", async () => {
    await memo.run(async () => {
      await records.get("a");
      await storeOf(undefined).set("a", { name: "changed elsewhere", tags: ["x"] });
      const next = await records.update("a", (r) => r && { ...r, tags: [...r.tags, "y"] });
      expect(next).toEqual({ name: "changed elsewhere", tags: ["x", "y"] });
      expect(await records.get("a")).toEqual({ name: "changed elsewhere", tags: ["x", "y"] });
    });
  });

  it("a read that began before the unit's own write never puts its older answer in", async () => {
    await memo.run(async () => {
      const reading = records.get("a");
      await records.set("a", { name: "written", tags: [] });
      await reading;
      expect((await records.get("a"))?.name).toBe("written");
    });
  });

  it("hands each reader its own copy: changing one changes nothing else", async () => {
    await memo.run(async () => {
      const first = await records.get("a");
      first!.tags.push("mutated by a reader");
      expect(await records.get("a")).toEqual({ name: "first", tags: [] });
    });
  });

  it("a unit opened inside another is part of it; units run side by side do not share", async () => {
    await memo.run(async () => {
      await records.get("a");
      await memo.run(() => records.get("a"));
    });
    expect(reads).toBe(1);
    reads = 0;
    await Promise.all([memo.run(() => records.get("a")), memo.run(() => records.get("a"))]);
    expect(reads).toBe(2);
  });

  it("stores that take no memo read the store inside a unit too", async () => {
    const plain = storeOf(undefined);
    await memo.run(async () => {
      await plain.get("a");
      await plain.get("a");
    });
    expect(reads).toBe(2);
  });

  it("what a unit starts and leaves running reads the store once the unit has ended", async () => {
    let later: (() => Promise<Item | undefined>) | undefined;
    await memo.run(async () => {
      await records.get("a");
      later = () => records.get("a");
    });
    await storeOf(undefined).set("a", { name: "changed after the unit", tags: [] });
    expect((await later!())?.name).toBe("changed after the unit");
    // A unit it opens then is a unit of its own, with a memo of its own.
    let opensLater: (() => Promise<void>) | undefined;
    await memo.run(async () => {
      await records.get("a");
      opensLater = () =>
        memo.run(async () => {
          await records.get("a");
          await records.get("a");
        });
    });
    reads = 0;
    await opensLater!();
    expect(reads).toBe(1);
  });

  it("once closed, a unit reads the store again, and a unit under way goes on without the memo", async () => {
    await memo.run(async () => {
      await records.get("a");
      memo.close();
      await records.get("a");
    });
    expect(reads).toBe(2);
    reads = 0;
    await memo.run(async () => {
      await records.get("a");
      await records.get("a");
    });
    expect(reads).toBe(2);
  });
});
