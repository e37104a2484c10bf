/**
 * How the SQLite store runs its synchronous statements on the event loop:
 * as promises, with a turn for the loop after a long unbroken chain of them,
 * and with retries off the loop while another connection holds the file.
 */

/**
 * better-sqlite3 waits for a lock synchronously, inside the call: with a long
 * busy_timeout one locked file (a backup, `sqlite3` open in a shell, another
 * process) would freeze webhooks and polling for seconds. So each attempt
 * waits at most this long, and the waiting between attempts is a timer.
 */
export const BUSY_ATTEMPT_MS = 10;
/** Total time a statement keeps retrying a locked file before it fails. */
export const DEFAULT_BUSY_BUDGET_MS = 5_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A statement resolves at once, so a loop of store calls (a scan over every
 * record, a sweep scheduling each chat) runs as one unbroken chain of
 * microtasks: timers, sockets and polling wait for the whole of it. Once the
 * event loop has had no turn for this long, the next statement first yields
 * one (`setImmediate` runs after pending I/O).
 */
export const YIELD_AFTER_MS = 10;

let lastTurnAt = performance.now();
let turnPending = false;

function noteTurn(): void {
  turnPending = false;
  lastTurnAt = performance.now();
}

/** Resolves at once while the event loop had a turn recently; otherwise after one. */
function giveTheLoopATurn(): Promise<void> | undefined {
  if (performance.now() - lastTurnAt < YIELD_AFTER_MS) {
    if (!turnPending) {
      turnPending = true;
      setImmediate(noteTurn);
    }
    return undefined;
  }
  return new Promise((resolve) =>
    setImmediate(() => {
      noteTurn();
      resolve();
    }),
  );
}

/**
 * Runs a synchronous statement as a promise (a throw becomes a rejection);
 * while the file is locked, retries with backoff off the event loop.
 */
export async function withRetry<T>(fn: () => T, budgetMs: number): Promise<T> {
  const turn = giveTheLoopATurn();
  if (turn) await turn;
  const deadline = Date.now() + budgetMs;
  let delay = 2;
  for (;;) {
    try {
      return fn();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await sleep(Math.min(delay, Math.max(1, deadline - Date.now())) * (0.75 + Math.random() / 2));
    delay = Math.min(delay * 2, 100);
  }
}
