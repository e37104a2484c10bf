/**
 * WAL checkpoints in a thread of their own while the SQLite store is busy:
 * the database file keeps up with the log although the main connection no
 * longer checkpoints every 1,000 pages, a quiet store gives the thread up and checkpoints on its
 * own connection again, a thread that cannot start changes nothing, and
 * closing ends the thread before the main connection, also in a process
 * with nothing else left to do.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_AUTOCHECKPOINT_PAGES, SAFETY_AUTOCHECKPOINT_PAGES, type CheckpointOptions } from "../../../src/platform/store/sqlite-checkpoints.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../../src/platform/store/sqlite-store.js";
import { waitUntil } from "../../support/wait.js";

/** A page and a bit per row: every write dirties pages of its own, so the log grows by several pages per commit. */
const ROW = "x".repeat(3_000);
const PAGE = 4_096;
/** What the main connection alone lets the log reach before it copies it back (1,000 pages), with room. */
const SMALL_LOG = 1_500 * PAGE;

describe("SQLite checkpoints off the event loop", () => {
  let dir: string;
  let file: string;
  const opened: SqliteDatabase[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sqlite-checkpoints-"));
    file = join(dir, "bot.sqlite");
  });
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function open(checkpoints: CheckpointOptions): SqliteDatabase {
    const database = openSqliteDatabase(file, { checkpoints });
    opened.push(database);
    return database;
  }

  const logSize = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

  /** Commit number `n` of the rewrites: 10 of the same 50 keys, a row of about a page each. */
  function commit(store: ReturnType<SqliteDatabase["createStore"]>, n: number): Promise<unknown> {
    return store.setMany(Array.from({ length: 10 }, (_, i) => ({ key: `k${String((n * 10 + i) % 50)}`, value: `${ROW}${String(n)}` })));
  }

  function hooksStore(database: SqliteDatabase): ReturnType<SqliteDatabase["createStore"]> {
    const store = database.createStore();
    store.namespace = "hooks";
    return store;
  }

  /** Rewrites until `pages` rows have been written and `until` holds; the largest log seen. */
  async function write(database: SqliteDatabase, pages: number, until?: () => boolean): Promise<number> {
    const store = hooksStore(database);
    let largest = 0;
    for (let n = 0; n * 10 < pages || (until !== undefined && !until()); n += 1) {
      await commit(store, n);
      largest = Math.max(largest, logSize());
    }
    return largest;
  }

  /** Rewrites until `done` holds or `pages` rows have been written, whichever comes first. */
  async function writeAtMost(database: SqliteDatabase, pages: number, done: () => boolean): Promise<void> {
    const store = hooksStore(database);
    for (let n = 0; n * 10 < pages && !done(); n += 1) await commit(store, n);
  }

  /** The log's end and how far the database file has caught up with it, from the header of the log's index (native order). */
  function walIndex(): { end: number; copied: number } {
    const shm = readFileSync(`${file}-shm`);
    return { end: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
  }

  it("copies the log back from a thread while the store is busy, the main connection's checkpoints pushed out", async () => {
    const database = open({ busyMsPerSecond: 1, windowMs: 20, idleMs: 60_000, intervalMs: 10 });
    await write(database, 0, () => database.checkpointsOffloaded);
    expect(database.autocheckpointPages).toBe(SAFETY_AUTOCHECKPOINT_PAGES);
    // Only the thread copies now. Either the log grows past the 1,000 pages at which the main connection copied it back
    // itself, the thread close behind, or (writes slower than the thread's copies, as on a loaded machine) the thread
    // catches up and the log starts over, far below the main connection's 20,000. Bounded by the rows written, so a
    // machine of any speed ends it.
    let closest = Number.POSITIVE_INFINITY;
    let previousEnd = 0;
    let restarts = 0;
    let longest = 0;
    await writeAtMost(database, 8_000, () => {
      const { end, copied } = walIndex();
      if (end < previousEnd) restarts += 1;
      previousEnd = end;
      longest = Math.max(longest, end);
      if (end >= 3_000) closest = Math.min(closest, end - copied);
      return end >= 6_000;
    });
    expect(longest).toBeLessThan(SAFETY_AUTOCHECKPOINT_PAGES);
    expect(closest < 1_000 || restarts > 0).toBe(true);
    expect(database.checkpointsOffloaded).toBe(true);
  });

  it("gives the thread up once the store is quiet, and checkpoints on its own connection again", async () => {
    const changes: boolean[] = [];
    const database = open({ busyMsPerSecond: 1, windowMs: 20, idleMs: 100, intervalMs: 10, onActive: (active) => changes.push(active) });
    expect(database.autocheckpointPages).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    await write(database, 0, () => database.checkpointsOffloaded);
    expect(database.autocheckpointPages).toBe(SAFETY_AUTOCHECKPOINT_PAGES);
    await waitUntil(() => !database.checkpointsOffloaded);
    expect(database.autocheckpointPages).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    expect(changes).toEqual([true, false]);
  });

  it("never starts the thread for a store that is not busy", async () => {
    const database = open({ busyMsPerSecond: 60_000, windowMs: 10, intervalMs: 10 });
    expect(await write(database, 3_000)).toBeLessThan(SMALL_LOG);
    expect(database.checkpointsOffloaded).toBe(false);
  });

  it("checkpoints on its own connection as before when the thread cannot start, and says so", async () => {
    const troubles: unknown[] = [];
    const database = open({
      busyMsPerSecond: 1,
      windowMs: 10,
      intervalMs: 10,
      driverModule: join(dir, "missing-driver.js"),
      onTrouble: (e) => troubles.push(e),
    });
    const largest = await write(database, 4_000, () => troubles.length > 0);
    expect(String(troubles[0])).toMatch(/Cannot find module/);
    expect(largest).toBeLessThan(SMALL_LOG);
    expect(database.checkpointsOffloaded).toBe(false);
    expect(database.autocheckpointPages).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
  });

  it("ends the thread before the main connection on close, which then removes the log", async () => {
    const database = open({ busyMsPerSecond: 1, windowMs: 20, idleMs: 60_000, intervalMs: 10 });
    await write(database, 0, () => database.checkpointsOffloaded);
    await database.close();
    // The last connection to close checkpoints and deletes the log: the thread's was closed first.
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(database.checkpointsOffloaded).toBe(false);
  });

  it("keeps a process with nothing else to do alive until the thread has ended and the main connection is closed", async () => {
    // As at a shutdown: the store is the last thing open. The thread never keeps a process alive while it runs; were
    // it still unreferenced while closing, the process would exit in the middle of close() (exit code 13 here, an
    // unsettled top-level await), the main connection never closed.
    const module = pathToFileURL(join(import.meta.dirname, "../../../dist/platform/store/sqlite-store.js")).href;
    const script = join(dir, "shutdown.mjs");
    writeFileSync(
      script,
      `import { openSqliteDatabase } from ${JSON.stringify(module)};
// Never outlives the test, whatever goes wrong (unreferenced: it must not be what keeps the process alive).
setTimeout(() => process.exit(2), 15000).unref();
const database = openSqliteDatabase(${JSON.stringify(file)}, { checkpoints: { busyMsPerSecond: 1, windowMs: 10, idleMs: 60000, intervalMs: 10 } });
const store = database.createStore();
store.namespace = "hooks";
for (let n = 0; !database.checkpointsOffloaded; n += 1) {
  if (n === 100000) throw new Error("the checkpoint thread never started");
  await store.setMany(Array.from({ length: 10 }, (_, i) => ({ key: "k" + ((n * 10 + i) % 50), value: ${JSON.stringify(ROW)} + n })));
}
await database.close();
console.log("closed");
`,
    );
    // A file, not `node -e`: a worker inherits --input-type=module, which the thread's CommonJS would not survive.
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 15_000 });
    expect(stdout.trim()).toBe("closed");
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
