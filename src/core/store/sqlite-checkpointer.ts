import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * The checkpointer's thread: its own connection to the same file, a PASSIVE
 * checkpoint every `intervalMs` (it never waits for the writer or readers;
 * frames they still need stay for the next one), and a message back after
 * each with the frames in the WAL and those checkpointed. CommonJS source
 * evaluated as is: the same under tsx, vitest and the compiled app.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
const timer = setInterval(() => {
  const [result] = db.pragma("wal_checkpoint(PASSIVE)");
  parentPort.postMessage({ walFrames: result.log, checkpointed: result.checkpointed });
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointReport {
  /** Frames in the WAL when the checkpoint ran, and how many of them are now in the database file. */
  walFrames: number;
  checkpointed: number;
}

export interface SqliteCheckpointer {
  /** Ends the thread (and its connection); idempotent. */
  stop(): void;
}

export interface CheckpointerOptions {
  filename: string;
  intervalMs: number;
  /** The thread failed (it is gone): the writer must checkpoint again itself. */
  onFailure(error: unknown): void;
  onCheckpoint?(report: CheckpointReport): void;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. With the writer's own
 * automatic checkpoints, every thousandth page written made one commit copy
 * the WAL into the database file and sync it, holding the event loop for
 * milliseconds at a time; under a burst of webhooks that was the p99 of the
 * acknowledgements. The writer turns its automatic checkpoints off
 * (`wal_autocheckpoint = 0`) and this thread checkpoints instead. The thread
 * does not keep the process alive.
 */
export function startSqliteCheckpointer(options: CheckpointerOptions): SqliteCheckpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { filename: options.filename, driver, intervalMs: options.intervalMs } });
  worker.unref();
  let stopped = false;
  worker.on("message", (report: CheckpointReport) => options.onCheckpoint?.(report));
  worker.on("error", (error) => {
    if (stopped) return;
    stopped = true;
    options.onFailure(error);
  });
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage("stop");
    },
  };
}
