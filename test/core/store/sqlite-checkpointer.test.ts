import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startSqliteCheckpointer, type CheckpointReport } from "../../../src/core/store/sqlite-checkpointer.js";
import { openSqliteDatabase } from "../../../src/core/store/sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "sqlite-checkpoints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROUNDS = 6;
/** 500 rows of 4 KB, one commit each: several MB of WAL per round. */
const ROWS_PER_ROUND = 500;

describe("SQLite checkpoints in a thread of their own", () => {
  it("copy the WAL into the database file while the writer's own commits do not, so the WAL stays the size of one round", async () => {
    const file = join(dir, "bounded.sqlite");
    const reports: CheckpointReport[] = [];
    const failures: unknown[] = [];
    const database = openSqliteDatabase(file, {
      backgroundCheckpoint: { intervalMs: 10, onFailure: (error) => failures.push(error), onCheckpoint: (report) => reports.push(report) },
    });
    try {
      const store = database.createStore();
      store.namespace = "rows";
      const value = "x".repeat(4_000);
      let oneRound = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        for (let i = 0; i < ROWS_PER_ROUND; i += 1) await store.set(`r${round}-${i}`, value);
        const seen = reports.length;
        // Every frame of this round in the database file: the next round's commits start the WAL over.
        // The WAL file keeps its largest size; the first round, written into an empty WAL, is one round's worth.
        if (round === 0) oneRound = statSync(`${file}-wal`).size;
        await vi.waitFor(() => expect(reports.slice(seen).some((r) => r.walFrames >= ROWS_PER_ROUND && r.checkpointed === r.walFrames)).toBe(true), { timeout: 20_000 });
      }
      // Six rounds written: with nobody checkpointing, the WAL would hold all six.
      expect(statSync(`${file}-wal`).size).toBeLessThan(2 * oneRound);
      expect(failures).toEqual([]);
      expect(await store.get(`r${ROUNDS - 1}-0`)).toBe(value);
    } finally {
      database.close();
    }
  });

  it("reports a thread that cannot work, so the writer checkpoints again itself", async () => {
    const failures: unknown[] = [];
    const checkpointer = startSqliteCheckpointer({ filename: join(dir, "missing", "nothing.sqlite"), intervalMs: 10, onFailure: (error) => failures.push(error) });
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    checkpointer.stop();
  });
});
