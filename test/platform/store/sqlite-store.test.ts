import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import Keyv from "keyv";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openStore, sqlitePathFromUrl } from "../../../src/platform/store/open-store.js";
import { createRecordStore, type CorruptRecordEvent } from "../../../src/platform/store/record-store.js";
import { openSqliteDatabase } from "../../../src/platform/store/sqlite-store.js";
import { captureLogger, collect, eventually } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sqlite-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rawRows(file: string, namespace: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM keyv_entries WHERE namespace = ?").get(namespace) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("SQLite store", () => {
  it("gives timers a turn during a long chain of store calls, which otherwise resolve without one", async () => {
    const backend = await openStore(`sqlite://${join(dir, "turns.sqlite")}`, { logger: captureLogger().logger, purgeIntervalMs: 0 });
    try {
      const kv = backend.namespace("turns");
      await kv.set("k", 1);
      let timerRan = false;
      setTimeout(() => (timerRan = true), 0);
      let calls = 0;
      // Bounded by a count, not a duration: without the yield the timer waits for the whole loop.
      while (!timerRan && calls < 200_000) {
        await kv.get("k");
        calls += 1;
      }
      expect(timerRan).toBe(true);
      expect(calls).toBeLessThan(200_000);
    } finally {
      await backend.close();
    }
  });

  it("lists every key of a namespace once, in key order across pages, with neighbouring namespaces left out", async () => {
    const backend = await openStore(`sqlite://${join(dir, "pages.sqlite")}`, { logger: captureLogger().logger, purgeIntervalMs: 0 });
    try {
      const kv = backend.namespace("pages");
      const before = backend.namespace("page");
      const after = backend.namespace("pagesz");
      const count = 1_050;
      for (let i = 0; i < count; i += 1) await kv.set(String(i).padStart(5, "0"), i);
      await before.set("00001", "other");
      await after.set("99999", "other");
      const seen = await collect(kv.entries());
      expect(seen.map(([key]) => key)).toEqual(Array.from({ length: count }, (_, i) => String(i).padStart(5, "0")));
    } finally {
      await backend.close();
    }
  });

  it("resolves sqlite:// paths against the working directory and sqlite:/// as absolute", () => {
    expect(sqlitePathFromUrl("sqlite://data/bot.sqlite", "/srv/app")).toBe("/srv/app/data/bot.sqlite");
    expect(sqlitePathFromUrl("sqlite:///var/lib/bot/bot.sqlite", "/srv/app")).toBe("/var/lib/bot/bot.sqlite");
    expect(sqlitePathFromUrl("sqlite://:memory:")).toBe(":memory:");
    expect(() => sqlitePathFromUrl("sqlite://")).toThrow(/SQLite store URL/);
    expect(() => sqlitePathFromUrl("sqlite:///")).toThrow(/SQLite store URL/);
  });

  it("creates missing parent directories and runs in WAL mode", async () => {
    const file = join(dir, "a", "b", "bot.sqlite");
    const backend = await openStore(`sqlite://${file}`, { logger: captureLogger().logger });
    await backend.namespace("x").set("k", 1);
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    await backend.close();
  });

  it("works in memory with sqlite://:memory:", async () => {
    const backend = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
    await backend.namespace("x").set("k", "v");
    expect(await backend.namespace("x").get("k")).toBe("v");
    expect(await backend.ping()).toBe(true);
    await backend.close();
  });

  it("deletes expired rows on its purge timer, leaving live ones", async () => {
    const file = join(dir, "purge.sqlite");
    const backend = await openStore(`sqlite://${file}`, { logger: captureLogger().logger, purgeIntervalMs: 20 });
    const kv = backend.namespace("p");
    await kv.set("short", 1, 30);
    await kv.set("long", 2);
    expect(rawRows(file, "p")).toBe(2);
    // Only the timer can remove the row: nothing reads it through keyv.
    await eventually(() => rawRows(file, "p") === 1);
    expect(await kv.get("long")).toBe(2);
    await backend.close();
  });

  it("purgeExpired removes expired leases too, and leaves live ones", async () => {
    const database = openSqliteDatabase(":memory:");
    expect(await database.claimLease("one-off", "mark-1", 1_000)).toBe(true);
    expect(await database.claimLease("held", "owner", 60_000)).toBe(true);
    expect(database.purgeExpired(Date.now() + 5_000)).toBe(1);
    expect(await database.claimLease("held", "someone-else", 60_000)).toBe(false);
    expect(await database.claimLease("one-off", "mark-2", 1_000)).toBe(true);
    await database.close();
  });

  it("purgeExpired removes expired rows of every namespace and reports how many", async () => {
    const database = openSqliteDatabase(":memory:");
    const a = database.createStore();
    a.namespace = "a";
    const b = database.createStore();
    b.namespace = "b";
    await a.set("x", "1", 1_000);
    await b.set("y", "2", 1_000);
    await b.set("z", "3");
    expect(a.purgeExpired(Date.now() + 5_000)).toBe(2);
    expect(await b.get("z")).toBe("3");
    expect(await b.has("y")).toBe(false);
    await database.close();
    await database.close();
    expect(database.ping()).toBe(false);
  });

  it("lists live entries across pages, skipping expired ones interleaved with them", async () => {
    const database = openSqliteDatabase(":memory:");
    const keyv = new Keyv({ store: database.createStore(), namespace: "it", useKeyPrefix: false, throwOnErrors: true });
    for (let i = 0; i < 500; i++) await keyv.set(`k${String(i).padStart(3, "0")}`, i, i % 2 === 0 ? 1 : undefined);
    const start = Date.now();
    await eventually(() => Date.now() > start + 5);
    const entries = await collect(keyv.iterator!(undefined) as AsyncIterable<[string, number]>);
    expect(entries).toHaveLength(250);
    expect(entries.every(([, value]) => value % 2 === 1)).toBe(true);
    await database.close();
  });

  it("reads a row holding unparsable JSON as a corrupt record", async () => {
    const file = join(dir, "corrupt.sqlite");
    const backend = await openStore(`sqlite://${file}`, { logger: captureLogger().logger });
    const events: CorruptRecordEvent[] = [];
    const store = createRecordStore({
      kv: backend.namespace("r"),
      schema: z.object({ n: z.number() }),
      version: 1,
      logger: captureLogger().logger,
      name: "r",
      onCorrupt: (e) => events.push(e),
    });
    await store.set("1", { n: 1 });
    const db = new Database(file);
    db.prepare("UPDATE keyv_entries SET value = '{not json' WHERE namespace = 'r' AND key = '1'").run();
    db.close();
    expect(await store.get("1")).toBeUndefined();
    expect(events).toEqual([{ name: "r", id: "1", reason: "not-json" }]);
    // Read with others in one call, it costs only itself.
    await store.set("2", { n: 2 });
    expect(await store.getMany(["2", "1"])).toEqual([{ n: 2 }, undefined]);
    expect(events).toHaveLength(2);
    await backend.close();
  });

  it("waits for a file locked by another connection without holding up the event loop, then writes", async () => {
    const file = join(dir, "locked.sqlite");
    const backend = await openStore(`sqlite://${file}`, { logger: captureLogger().logger });
    const kv = backend.namespace("x");
    await kv.set("before", 1);
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE; INSERT INTO keyv_entries (namespace, key, value) VALUES ('y', 'held', '1');");
    let written = false;
    const write = kv.set("during", 2).then(() => (written = true));
    // The loop turns: timers fire and a read (WAL readers are not blocked) completes meanwhile.
    for (let i = 0; i < 20; i += 1) await new Promise((r) => setTimeout(r, 1));
    expect(await kv.get("before")).toBe(1);
    expect(written).toBe(false);
    // Released from this same thread: impossible if the write had blocked it while waiting.
    other.exec("COMMIT");
    other.close();
    await write;
    expect(await kv.get("during")).toBe(2);
    await backend.close();
  });

  it("gives up on a lock held past its budget with SQLITE_BUSY, and works again once it is released", async () => {
    const file = join(dir, "locked-long.sqlite");
    const database = openSqliteDatabase(file, { busyBudgetMs: 50 });
    const store = database.createStore();
    store.namespace = "x";
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE; INSERT INTO keyv_entries (namespace, key, value) VALUES ('y', 'held', '1');");
    await expect(store.set("k", "v")).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
    other.exec("COMMIT");
    other.close();
    await store.set("k", "v");
    expect(await store.get("k")).toBe("v");
    await database.close();
  });
});
