import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/** SQLite's own default: the log is copied back once it holds this many pages. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/**
 * The main connection's own bound while the thread checkpoints. The thread's
 * checkpoints copy the log back but cannot start it over while writes keep
 * coming (only a writer can, when it finds everything copied), so under a
 * steady stream the log grows to this bound, about 80 MB, and the main
 * connection's checkpoint there, with little left to copy, starts it over.
 */
export const SAFETY_AUTOCHECKPOINT_PAGES = 20_000;

export interface CheckpointOptions {
  /** Time spent in store calls per second (ms) from which the thread is started. Default 100 (a tenth of the loop). */
  busyMsPerSecond?: number;
  /** How often that time is looked at. Default 1 s. */
  windowMs?: number;
  /** How long the store stays below that before the thread is given up. Default 30 s. */
  idleMs?: number;
  /** How often the thread checkpoints. Default 100 ms. */
  intervalMs?: number;
  /** Told when the thread takes the checkpoints over (true) and gives them back (false). */
  onActive?: (active: boolean) => void;
  /** Told when the thread could not run; the main connection checkpoints as before. */
  onTrouble?: (error: unknown) => void;
  /** The module the thread loads (tests give a broken one). Default better-sqlite3. */
  driverModule?: string;
}

export interface CheckpointOffload {
  /** Called with the time (ms) each store call took on the main connection. */
  noteBusy(ms: number): void;
  /** True while the thread runs the checkpoints. */
  readonly active: boolean;
  /** Stops the thread (it closes its connection first) and the timer. Idempotent. */
  close(): Promise<void>;
}

// CommonJS, evaluated in the thread: the thread's connection checkpoints
// (PASSIVE: it never waits for, nor blocks, a writer) until asked to stop, then closes.
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverModule);
const db = new Database(workerData.filename);
db.pragma("busy_timeout = 0");
db.pragma("cache_size = -256");
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    if (!String(error && error.code).startsWith("SQLITE_BUSY")) throw error;
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage("ready");
`;

/**
 * WAL checkpoints off the event loop. SQLite copies its log back into the
 * database file once the log holds 1,000 pages, inside whichever commit
 * crosses that line, and syncs both files: under a stream of writes (a burst
 * of webhooks, whose dedup markers each dirty a page of their own) that commit
 * holds the event loop for milliseconds, and the copies and syncs become a
 * large share of the process's time. While the store is busy, a thread with
 * a connection of its own runs the checkpoints instead, and the main
 * connection's own are pushed out to a safety bound. The thread costs about
 * 10 MB of memory, so a quiet store gives it up again. Durability is
 * unchanged: the same checkpoints, with the same syncs, in another thread.
 */
export function offloadCheckpoints(db: Database.Database, filename: string, options: CheckpointOptions = {}): CheckpointOffload {
  const busyMsPerSecond = options.busyMsPerSecond ?? 100;
  const windowMs = options.windowMs ?? 1_000;
  const idleMs = options.idleMs ?? 30_000;
  const driverModule = options.driverModule ?? createRequire(import.meta.url).resolve("better-sqlite3");
  let busyMs = 0;
  let quietMs = 0;
  let worker: Worker | undefined;
  let exited: Promise<void> | undefined;
  let ready = false;
  /** A thread that failed once is not started again: the main connection keeps checkpointing. */
  let broken = false;

  function setAutocheckpoint(pages: number): void {
    if (db.open) db.pragma(`wal_autocheckpoint = ${String(pages)}`);
  }

  function start(): void {
    const thread = new Worker(THREAD, { eval: true, workerData: { filename, driverModule, intervalMs: options.intervalMs ?? 100 } });
    thread.unref();
    worker = thread;
    ready = false;
    exited = new Promise((resolve) => thread.once("exit", () => resolve()));
    thread.once("message", () => {
      if (worker !== thread) return;
      ready = true;
      setAutocheckpoint(SAFETY_AUTOCHECKPOINT_PAGES);
      options.onActive?.(true);
    });
    thread.once("error", (error) => {
      if (worker === thread) {
        setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
        worker = undefined;
        ready = false;
      }
      broken = true;
      options.onTrouble?.(error);
    });
  }

  async function stop(): Promise<void> {
    const thread = worker;
    if (!thread) return;
    // The main connection checkpoints again before the thread is gone, so no moment goes unchecked.
    setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    worker = undefined;
    if (ready) options.onActive?.(false);
    ready = false;
    // Unreferenced while it runs, so it never keeps a process alive; now the process must wait for it, or one with
    // nothing else left to do exits before the thread closes its connection (and before the main one is closed).
    thread.ref();
    thread.postMessage("stop");
    // Closing its connection takes the thread a moment; one that does not end is ended.
    const stuck = setTimeout(() => void thread.terminate(), 5_000);
    stuck.unref();
    await exited;
    clearTimeout(stuck);
  }

  const timer = setInterval(() => {
    const busy = busyMs * (1_000 / windowMs);
    busyMs = 0;
    if (busy >= busyMsPerSecond) {
      quietMs = 0;
      if (!worker && !broken) start();
      return;
    }
    quietMs += windowMs;
    if (worker && quietMs >= idleMs) void stop();
  }, windowMs);
  timer.unref();

  return {
    noteBusy(ms) {
      busyMs += ms;
    },
    get active() {
      return ready;
    },
    async close() {
      clearInterval(timer);
      await stop();
      // A stop the timer began is waited for too: the thread's connection must close before the main one.
      await exited;
    },
  };
}
