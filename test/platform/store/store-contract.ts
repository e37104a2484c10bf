/**
 * The one behaviour every store backend must show. Each backend's test file
 * calls `describeStoreContract` with a target that opens a backend over the
 * same storage every time (so close + reopen shows persistence).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRecordStore, type CorruptRecordEvent } from "../../../src/platform/store/record-store.js";
import type { KeyValue, StoreBackend, StoreKind } from "../../../src/platform/store/types.js";
import { atomicRecordTests } from "./atomic-records-contract.js";
import { captureLogger, collect, eventually, runId } from "./helpers.js";

export interface StoreTarget {
  kind: StoreKind;
  /** What `open` opens: a second process opens the same storage with it. */
  url: string;
  open(): Promise<StoreBackend>;
  /** Runs once after the suite, after namespaces were cleared (drop tables, remove files). */
  cleanup?(): Promise<void>;
}

export function describeStoreContract(label: string, target: StoreTarget | undefined, skipReason: string): void {
  if (!target) console.log(`[store] skipping "${label}": ${skipReason}`);

  describe.skipIf(!target)(label, () => {
    const run = runId();
    let counter = 0;
    const used = new Set<string>();
    let backend: StoreBackend;
    const log = captureLogger();

    /** A namespace no other test or run uses. */
    function fresh(suffix = ""): string {
      counter += 1;
      const name = `${run}-${counter}${suffix}`;
      used.add(name);
      return name;
    }

    beforeEach(async () => {
      backend = await target!.open();
    });
    afterEach(async () => {
      await backend.close();
    });
    afterAll(async () => {
      if (!target) return;
      const cleaner = await target.open();
      for (const name of used) await cleaner.namespace(name).clear();
      await cleaner.close();
      await target.cleanup?.();
    });

    it("reports its kind", () => {
      expect(backend.kind).toBe(target!.kind);
    });

    it("reads back what it wrote and nothing after delete", async () => {
      const kv = backend.namespace(fresh());
      const value = { text: "héllo ✓ 日本 🙂", n: 42, list: [1, "two", null], nested: { ok: true } };
      await kv.set("a", value);
      await kv.set("b", "plain string");
      await kv.set("c", 7);
      expect(await kv.get("a")).toEqual(value);
      expect(await kv.get("b")).toBe("plain string");
      expect(await kv.get("c")).toBe(7);
      expect(await kv.delete("a")).toBe(true);
      expect(await kv.get("a")).toBeUndefined();
      expect(await kv.delete("a")).toBe(false);
      expect(await kv.get("never-written")).toBeUndefined();
    });

    it("overwrites a value, keeping one entry", async () => {
      const kv = backend.namespace(fresh());
      await kv.set("k", { n: 1 });
      await kv.set("k", { n: 2 });
      expect(await kv.get("k")).toEqual({ n: 2 });
      expect(await collect(kv.entries())).toEqual([["k", { n: 2 }]]);
    });

    it("keeps keys containing colons and unicode intact, in get and in entries", async () => {
      const kv = backend.namespace(fresh());
      await kv.set("convo:123:step", 1);
      await kv.set("ключ", 2);
      expect(await kv.get("convo:123:step")).toBe(1);
      const entries = await collect(kv.entries());
      expect(new Map(entries)).toEqual(
        new Map<string, unknown>([
          ["convo:123:step", 1],
          ["ключ", 2],
        ]),
      );
    });

    it("lets an entry with a ttl expire, in get and in entries", async () => {
      const kv = backend.namespace(fresh());
      await kv.set("short", "gone soon", 150);
      await kv.set("long", "stays", 600_000);
      await eventually(async () => (await kv.get("short")) === undefined);
      expect(await kv.get("long")).toBe("stays");
      await kv.set("short2", "gone soon", 150);
      await eventually(async () => (await collect(kv.entries())).every(([key]) => key !== "short2"));
      expect(await collect(kv.entries())).toEqual([["long", "stays"]]);
    });

    it("writes, reads and deletes several entries in one call each, ttls included", async () => {
      const kv = backend.namespace(fresh());
      await kv.set("old", "replaced");
      await kv.setMany!([
        { key: "old", value: { n: 1 } },
        { key: "new", value: "two" },
        // Long enough to be read back at once on a loaded machine (150 ms once ran out between the two calls).
        { key: "short", value: 3, ttlMs: 3_000 },
      ]);
      expect(await kv.getMany!(["old", "missing", "new", "short"])).toEqual([{ n: 1 }, undefined, "two", 3]);
      await eventually(async () => (await kv.getMany!(["short"]))[0] === undefined, 15_000);
      await kv.deleteMany!(["old", "missing"]);
      expect(await kv.getMany!(["old", "new"])).toEqual([undefined, "two"]);
      expect(await kv.getMany!([])).toEqual([]);
      await expect(kv.setMany!([{ key: "bad", value: 1, ttlMs: 0 }])).rejects.toThrow(RangeError);
      expect(await kv.get("bad")).toBeUndefined();
    });

    it("refuses a ttl that is zero, negative or not a number", async () => {
      const kv = backend.namespace(fresh());
      await expect(kv.set("k", 1, 0)).rejects.toThrow(RangeError);
      await expect(kv.set("k", 1, -5)).rejects.toThrow(RangeError);
      await expect(kv.set("k", 1, Number.NaN)).rejects.toThrow(RangeError);
      expect(await kv.get("k")).toBeUndefined();
    });

    it("clears one namespace and leaves the others, even with LIKE/glob-like names", async () => {
      // "_" is a LIKE wildcard: clearing "<run>-n_1" must not touch "<run>-nx1".
      const base = fresh();
      const names = [`${base}-n_1`, `${base}-nx1`, `${base}-n_1.more`];
      for (const name of names) used.add(name);
      const [a, b, c] = names.map((name) => backend.namespace(name)) as [KeyValue, KeyValue, KeyValue];
      await a.set("k", "a");
      await b.set("k", "b");
      await c.set("k", "c");
      await a.clear();
      expect(await a.get("k")).toBeUndefined();
      expect(await b.get("k")).toBe("b");
      expect(await c.get("k")).toBe("c");
    });

    it("lists the live entries of one namespace only", async () => {
      const name = fresh();
      const a = backend.namespace(name);
      const b = backend.namespace(`${name}x`);
      used.add(`${name}x`);
      await a.set("1", "a1");
      await a.set("2", "a2");
      await b.set("1", "b1");
      expect(new Map(await collect(a.entries()))).toEqual(
        new Map([
          ["1", "a1"],
          ["2", "a2"],
        ]),
      );
      expect(await collect(b.entries())).toEqual([["1", "b1"]]);
      expect(await collect(backend.namespace(fresh()).entries())).toEqual([]);
    });

    it("lists every entry when there are more than a page of them", async () => {
      const kv = backend.namespace(fresh());
      const count = 450;
      await Promise.all(Array.from({ length: count }, (_, i) => kv.set(`key-${i}`, i)));
      const entries = await collect(kv.entries());
      expect(entries).toHaveLength(count);
      expect(new Set(entries.map(([, value]) => value)).size).toBe(count);
    });

    it("lists the live keys of one namespace alone, in pages, expired ones left out", async () => {
      const name = fresh();
      const a = backend.namespace(name);
      const b = backend.namespace(`${name}x`);
      used.add(`${name}x`);
      const count = 1_250;
      await a.setMany!(Array.from({ length: count }, (_, i) => ({ key: `key-${i}`, value: { i } })));
      await a.set("convo:1:ключ", 1);
      await a.set("short", "gone soon", 150);
      await b.set("key-0", "b");
      await eventually(async () => (await a.get("short")) === undefined);
      const pages = await collect(a.keyPages());
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.every((page) => page.length > 0)).toBe(true);
      const keys = pages.flat();
      expect(keys).toHaveLength(count + 1);
      expect(new Set(keys)).toEqual(new Set([...Array.from({ length: count }, (_, i) => `key-${i}`), "convo:1:ключ"]));
      expect(await collect(b.keyPages())).toEqual([["key-0"]]);
      expect(await collect(backend.namespace(fresh()).keyPages())).toEqual([]);
    });

    it("hands out the same handle for the same namespace name", () => {
      const name = fresh();
      expect(backend.namespace(name)).toBe(backend.namespace(name));
    });

    it("refuses namespace names that could overlap others", () => {
      for (const bad of ["", "a:b", "a*", "a b", "-lead"]) expect(() => backend.namespace(bad)).toThrow(/namespace/);
    });

    it("keeps data across close and reopen", async () => {
      const name = fresh();
      await backend.namespace(name).set("persisted", { at: "first open" });
      await backend.namespace(name).set("expiring", "x", 600_000);
      await backend.close();
      backend = await target!.open();
      expect(await backend.namespace(name).get("persisted")).toEqual({ at: "first open" });
      expect(await backend.namespace(name).get("expiring")).toBe("x");
    });

    it("answers ping while open, false after close, and closes twice without error", async () => {
      expect(await backend.ping()).toBe(true);
      const kv = backend.namespace(fresh());
      await backend.close();
      await expect(kv.get("k")).rejects.toThrow(/closed/);
      await expect(kv.set("k", 1)).rejects.toThrow(/closed/);
      await backend.close();
      expect(await backend.ping()).toBe(false);
      expect(() => backend.namespace(fresh())).toThrow(/closed/);
      backend = await target!.open();
    });

    describe("record store", () => {
      const linkSchema = z.object({ address: z.string().min(1), count: z.number().int() });
      type Link = z.infer<typeof linkSchema>;

      function records(kv: KeyValue, version = 1, onCorrupt?: (e: CorruptRecordEvent) => void) {
        return createRecordStore<Link>({ kv, schema: linkSchema, version, logger: log.logger, name: "links", ...(onCorrupt && { onCorrupt }) });
      }

      it("round-trips a record and lists it", async () => {
        const store = records(backend.namespace(fresh()));
        await store.set("42", { address: "TXYZ", count: 1 });
        expect(await store.get("42")).toEqual({ address: "TXYZ", count: 1 });
        expect(await collect(store.list())).toEqual([["42", { address: "TXYZ", count: 1 }]]);
        expect(await store.delete("42")).toBe(true);
        expect(await store.get("42")).toBeUndefined();
      });

      it("stores the record inside a versioned envelope", async () => {
        const kv = backend.namespace(fresh());
        await records(kv, 3).set("1", { address: "A", count: 2 });
        expect(await kv.get("1")).toEqual({ v: 3, data: { address: "A", count: 2 } });
      });

      it("reads a record of another version as absent and reports it", async () => {
        const kv = backend.namespace(fresh());
        await records(kv, 1).set("7", { address: "A", count: 1 });
        const events: CorruptRecordEvent[] = [];
        const v2 = records(kv, 2, (e) => events.push(e));
        expect(await v2.get("7")).toBeUndefined();
        expect(events).toEqual([{ name: "links", id: "7", reason: "wrong-version", foundVersion: 1 }]);
        expect(v2.corruptCount).toBe(1);
        const warning = log.records().find((r) => r["msg"] === "unreadable record treated as absent" && r["id"] === "7");
        expect(warning).toMatchObject({ level: 40, name: "links", id: "7" });
      });

      it("skips and reports corrupt records in get and list, never throwing", async () => {
        const kv = backend.namespace(fresh());
        const events: CorruptRecordEvent[] = [];
        const store = records(kv, 1, (e) => events.push(e));
        await store.set("good", { address: "A", count: 1 });
        await kv.set("no-envelope", "just a string");
        await kv.set("bad-shape", { v: 1, data: { address: "", count: 1.5 } });
        expect(await store.get("no-envelope")).toBeUndefined();
        expect(await store.get("bad-shape")).toBeUndefined();
        expect(await collect(store.list())).toEqual([["good", { address: "A", count: 1 }]]);
        expect(events.map((e) => `${e.id}:${e.reason}`).sort()).toEqual([
          "bad-shape:schema-mismatch",
          "bad-shape:schema-mismatch",
          "no-envelope:not-an-envelope",
          "no-envelope:not-an-envelope",
        ]);
      });

      it("lists the ids of every stored record, unreadable ones too, and reads several in one call as get does", async () => {
        const kv = backend.namespace(fresh());
        const events: CorruptRecordEvent[] = [];
        const store = records(kv, 1, (e) => events.push(e));
        await store.set("a", { address: "A", count: 1 });
        await store.set("b", { address: "B", count: 2 });
        await kv.set("bad-shape", { v: 1, data: { address: "", count: 1.5 } });
        expect((await collect(store.idPages())).flat().sort()).toEqual(["a", "b", "bad-shape"]);
        expect(await store.getMany(["b", "missing", "bad-shape", "a"])).toEqual([{ address: "B", count: 2 }, undefined, undefined, { address: "A", count: 1 }]);
        expect(await store.getMany([])).toEqual([]);
        expect(events).toEqual([{ name: "links", id: "bad-shape", reason: "schema-mismatch" }]);
      });

      it("refuses to write a value its schema rejects", async () => {
        const kv = backend.namespace(fresh());
        await expect(records(kv).set("1", { address: "", count: 1 })).rejects.toThrow(/schema/);
        expect(await kv.get("1")).toBeUndefined();
      });

      it("serializes concurrent updates of one id so no increment is lost", async () => {
        const store = records(backend.namespace(fresh()));
        const rounds = 40;
        await Promise.all(
          Array.from({ length: rounds }, () =>
            store.update("counter", async (current) => {
              // Yield between read and write: without the mutex these would interleave.
              await new Promise((resolve) => setImmediate(resolve));
              return { address: "A", count: (current?.count ?? 0) + 1 };
            }),
          ),
        );
        expect(await store.get("counter")).toEqual({ address: "A", count: rounds });
      });

      atomicRecordTests(
        target!,
        () => backend,
        () => fresh(),
      );

      it("deletes the record when update returns undefined, and passes an expiry through", async () => {
        const store = records(backend.namespace(fresh()));
        await store.set("x", { address: "A", count: 1 });
        expect(await store.update("x", () => undefined)).toBeUndefined();
        expect(await store.get("x")).toBeUndefined();
        await store.update("y", () => ({ address: "B", count: 1 }), 150);
        await eventually(async () => (await store.get("y")) === undefined);
      });
    });
  });
}
