/**
 * Record updates hold across store instances and processes: part of the
 * store contract (store-contract.ts), run on every backend.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { createChatIndex } from "../../../src/platform/store/chat-index.js";
import { RecordConflictError } from "../../../src/platform/store/record-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { appendTags, tagRecords } from "./appender.js";
import { captureLogger, collect, eventually } from "./helpers.js";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const WRITER = join(import.meta.dirname, "fixtures", "append-writer.ts");

export interface AtomicTarget {
  url: string;
  open(): Promise<StoreBackend>;
}

/** A second Node process appending to the record; resolves once it has opened the store, with `go()` to start it. */
async function startWriter(url: string, namespace: string, id: string, tag: string, count: number) {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, url, namespace, id, tag, String(count)], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((done) => child.on("exit", done));
  await eventually(() => stdout.includes("ready") || child.exitCode !== null, 60_000);
  if (!stdout.includes("ready")) throw new Error(`writer did not start: ${stderr}`);
  return {
    go: () => child.stdin.end("go\n"),
    async finished(): Promise<void> {
      const code = await exited;
      expect({ code, stdout, stderr }).toMatchObject({ code: 0, stdout: "ready\ndone\n" });
    },
  };
}

const expected = (tag: string, count: number) => Array.from({ length: count }, (_, i) => `${tag}-${i}`);

export function atomicRecordTests(target: AtomicTarget, backend: () => StoreBackend, fresh: () => string): void {
  const log = captureLogger();

  it("loses none of 40 additions made at once by two store instances", async () => {
    const name = fresh();
    const other = await target.open();
    try {
      await Promise.all([
        appendTags(tagRecords(backend().namespace(name), log.logger), "r", "a", 20),
        appendTags(tagRecords(other.namespace(name), log.logger), "r", "b", 20),
      ]);
    } finally {
      await other.close();
    }
    const tags = (await tagRecords(backend().namespace(name), log.logger).get("r"))?.tags ?? [];
    expect([...tags].sort()).toEqual([...expected("a", 20), ...expected("b", 20)].sort());
  });

  it("loses none of 40 additions made at once by this process and a second Node process", async () => {
    const name = fresh();
    const writer = await startWriter(target.url, name, "r", "child", 20);
    writer.go();
    await appendTags(tagRecords(backend().namespace(name), log.logger), "r", "parent", 20);
    await writer.finished();
    const tags = (await tagRecords(backend().namespace(name), log.logger).get("r"))?.tags ?? [];
    expect([...tags].sort()).toEqual([...expected("child", 20), ...expected("parent", 20)].sort());
  }, 90_000);

  it("loses no id a chat index is given at once through two store instances", async () => {
    const name = fresh();
    const other = await target.open();
    const options = { max: 50, ttlMs: 600_000 };
    const mine = createChatIndex(backend().namespace(name), options);
    const theirs = createChatIndex(other.namespace(name), options);
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? mine : theirs).add(7, `id-${i}`)));
    } finally {
      await other.close();
    }
    expect([...(await mine.list(7))].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `id-${i}`).sort());
  });

  it("gives up with a RecordConflictError, writing nothing, when another writer wins every time", async () => {
    const name = fresh();
    const otherBackend = await target.open();
    const other = otherBackend.namespace(name);
    try {
      const records = tagRecords(backend().namespace(name), log.logger, 3);
      let runs = 0;
      const update = records.update("r", async (current) => {
        runs += 1;
        // Someone else writes between this read and this write, every time.
        await tagRecords(other, log.logger).set("r", { tags: [`other-${runs}`] });
        return { tags: [...(current?.tags ?? []), "mine"] };
      });
      await expect(update).rejects.toBeInstanceOf(RecordConflictError);
      await expect(update).rejects.toThrow(/r kept changing under this update \(3 attempts\)/);
      expect(runs).toBe(3);
      expect(await records.get("r")).toEqual({ tags: ["other-3"] });
    } finally {
      await otherBackend.close();
    }
  });

  it("updates rows written before by a plain set (no migration), and its writes read back through get, entries and expiry", async () => {
    const kv = backend().namespace(fresh());
    const records = tagRecords(kv, log.logger);
    await kv.set("old", { v: 1, data: { tags: ["from-before"] } });
    // Keyv takes a key already starting with "<namespace>:" as prefixed; the update must meet the same row.
    await kv.set("x:y", { v: 1, data: { tags: ["colon"] } });
    await records.update("old", (current) => ({ tags: [...(current?.tags ?? []), "added"] }));
    await records.update("x:y", (current) => ({ tags: [...(current?.tags ?? []), "added"] }));
    // A write with a TTL is listed until it runs out (a minute: a loaded machine never gets there
    // before the list); a 150 ms one is gone afterwards.
    await records.update("timed", () => ({ tags: ["with a ttl"] }), 60_000);
    await records.update("short", () => ({ tags: ["soon gone"] }), 150);
    expect(await kv.get("old")).toEqual({ v: 1, data: { tags: ["from-before", "added"] } });
    expect(await kv.get("x:y")).toEqual({ v: 1, data: { tags: ["colon", "added"] } });
    expect(new Map(await collect(records.list())).get("timed")).toEqual({ tags: ["with a ttl"] });
    await eventually(async () => (await kv.get("short")) === undefined);
    // An expired record reads as absent in an update too, and is replaced.
    expect(await records.update("short", (current) => ({ tags: [current === undefined ? "absent" : "still there"] }))).toEqual({ tags: ["absent"] });
  });

  it("compare-and-set writes only over the state it read, and deletes the same way", async () => {
    const kv = backend().namespace(fresh());
    const absent = await kv.getVersioned("k");
    expect(absent).toEqual({ value: undefined, version: null });
    expect(await kv.compareAndSet("k", absent.version, { n: 1 })).toBe(true);
    expect(await kv.compareAndSet("k", absent.version, { n: 2 })).toBe(false);
    const first = await kv.getVersioned("k");
    expect(first.value).toEqual({ n: 1 });
    await kv.set("k", { n: 3 });
    expect(await kv.compareAndSet("k", first.version, { n: 4 })).toBe(false);
    expect(await kv.compareAndSet("k", first.version, undefined)).toBe(false);
    expect(await kv.get("k")).toEqual({ n: 3 });
    const third = await kv.getVersioned("k");
    expect(await kv.compareAndSet("k", third.version, undefined)).toBe(true);
    expect(await kv.get("k")).toBeUndefined();
  });
}
