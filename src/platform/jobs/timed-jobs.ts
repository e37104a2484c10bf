import type { Logger } from "pino";
import type { z } from "zod";
import { createRecordStore } from "../store/record-store.js";
import { createDueQueue } from "./due-queue.js";
import { createRepeatedPass } from "./repeated-pass.js";
import type { StoreBackend } from "../store/types.js";

/**
 * Durable jobs that fall due at a time: a record per key in the store (so they survive restarts and every process
 * on the store sees them), the jobs each process knows on its due queue (one timer for all of them), a rescan from time to time for the jobs
 * other processes scheduled, and a lease so one process runs a due job. Delivery is at least once: a process that
 * dies while running a job leaves its record, and the job runs again once the lease has lapsed; handlers are
 * idempotent (a push job id per job, a re-read of what the job is about).
 *
 * When a job falls due is computed from its payload each time it is armed (`dueAtMs`), so a changed setting (a
 * reminder's lead) applies to stored jobs too. The record is re-read when the job falls due: a job cancelled or
 * done by another process in the meantime does not run.
 */
export interface TimedJobsDeps<P> {
  store: StoreBackend;
  /** Names the kind of job in its leases (`<kind>:<key>`) and logs. */
  kind: string;
  /** The store namespace the jobs of this kind live in. */
  namespace: string;
  schema: z.ZodType<P>;
  /** The records' version (`record-store.ts`). */
  version: number;
  logger: Logger;
  dueAtMs(payload: P): number;
  /** Runs a due job. Resolving ends it (its record is removed); throwing runs it again after `retryDelayMs`. */
  run(payload: P, key: string): Promise<void>;
  /**
   * The handler ends or reschedules each run's job itself (`cancel`, `schedule`, e.g. under a lock of its own), and
   * the engine leaves the record as the run left it.
   */
  handlerKeepsRecords?: boolean;
  /** One process runs a due job (a lease); default: always true (one process). */
  claim?: (key: string, ttlMs: number) => Promise<boolean>;
  now?: () => number;
  /** How often the store is read again for jobs another process scheduled; without it, only at start. */
  rescanIntervalMs?: number;
  /** A job whose run threw is run again after this long, doubled after each further failure up to `maxRetryDelayMs`. Default 5 s. */
  retryDelayMs?: number;
  /** The longest wait between two runs of a job that keeps failing. Default: `retryDelayMs` (no backoff). */
  maxRetryDelayMs?: number;
  /** Long enough for one run; a process that dies holding it frees it by itself. Default 30 s. */
  leaseMs?: number;
  /**
   * Records of this kind are also written without `schedule` (a journal others append to): the store is read
   * again every `rescanIntervalMs` even by an engine that needs no rescans otherwise (BullMQ).
   */
  recordsWrittenElsewhere?: boolean;
}

export interface TimedJobs<P> {
  /**
   * Arms every stored job and starts the rescans. A store that cannot be read now does not fail the start: it is
   * logged, and the jobs are armed by the next read that works (a rescan, or a retry after `retryDelayMs`).
   */
  start(): Promise<void>;
  /** Stops arming jobs and waits for the runs under way; the jobs stay stored. */
  stop(): Promise<void>;
  /** Stores the job (replacing one under the same key) and arms it; the record is kept `keepMs` at most. */
  schedule(key: string, payload: P, keepMs: number): Promise<void>;
  cancel(key: string): Promise<void>;
  get(key: string): Promise<P | undefined>;
  /** The stored jobs, of every process. */
  list(): AsyncIterable<[key: string, payload: P]>;
  /** Jobs armed and waiting for their time: on this process's due queue (store), or the kind's delayed jobs (BullMQ). */
  armed(): Promise<number>;
  /** Resolves once no job this process knows is due and none is running here (what a start or a rescan found is done or waits for a retry). */
  idle(): Promise<void>;
}

export const DEFAULT_RETRY_DELAY_MS = 5_000;

/** The wait before a job's next run after its `failed`-th failure in a row: doubled after each, up to the longest. */
export function retryDelayAfter(deps: Pick<TimedJobsDeps<unknown>, "retryDelayMs" | "maxRetryDelayMs">, failed: number): number {
  const retryDelayMs = deps.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const maxRetryDelayMs = Math.max(retryDelayMs, deps.maxRetryDelayMs ?? retryDelayMs);
  return Math.min(maxRetryDelayMs, retryDelayMs * 2 ** Math.min(Math.max(failed, 1) - 1, 30));
}

export const DEFAULT_LEASE_MS = 30_000;

export function createTimedJobs<P>(deps: TimedJobsDeps<P>): TimedJobs<P> {
  const logger = deps.logger.child({ kind: deps.kind });
  const now = deps.now ?? Date.now;
  const claim = deps.claim ?? (() => Promise.resolve(true));
  const retryDelayMs = deps.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  /** Failed runs in a row, per job: its next retry waits twice as long as the last. */
  const failures = new Map<string, number>();
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const records = createRecordStore({ kv: deps.store.namespace(deps.namespace), schema: deps.schema, version: deps.version, logger, name: deps.namespace });
  const inFlight = new Set<Promise<void>>();
  /** Keys whose run is under way here: a rescan must not arm them again (this process holds their lease). */
  const firing = new Set<string>();
  let running = false;
  // The engine re-arms a job itself (a retry, a job not due yet); the queue only keeps the time, on the real clock
  // (`now` may be a test's: a due time becomes a delay when it is armed).
  const queue = createDueQueue<string>({
    name: deps.kind,
    logger,
    run: (key) => {
      firing.add(key);
      const p = fire(key)
        .catch((error: unknown) => logger.error({ err: error, key }, "timed job failed"))
        .finally(() => firing.delete(key));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      return p.then(() => undefined);
    },
  });

  function arm(key: string, payload: P, delayMs?: number): void {
    if (!running) return;
    queue.at(key, delayMs ?? Math.max(0, deps.dueAtMs(payload) - now()));
  }

  async function fire(key: string): Promise<void> {
    // The store is the truth: the job may have been cancelled, or run by another process.
    const payload = await records.get(key);
    if (payload === undefined || !running) return;
    // Stored again meanwhile with a later time, or fired early by a tick: not due yet, so armed again.
    if (deps.dueAtMs(payload) > now()) {
      arm(key, payload);
      return;
    }
    if (!(await claim(`${deps.kind}:${key}`, leaseMs))) return;
    try {
      await deps.run(payload, key);
    } catch (error) {
      const failed = (failures.get(key) ?? 0) + 1;
      failures.set(key, failed);
      const delayMs = retryDelayAfter(deps, failed);
      logger.warn({ err: error, key, retryInMs: delayMs }, "timed job did not run; will retry");
      arm(key, payload, delayMs);
      return;
    }
    failures.delete(key);
    if (deps.handlerKeepsRecords !== true) await records.delete(key);
  }

  async function rescan(signal: AbortSignal): Promise<void> {
    for await (const [key, payload] of records.list()) {
      if (signal.aborted) return;
      if (!queue.has(key) && !firing.has(key)) arm(key, payload);
    }
  }

  // Without rescans, a first read that failed is tried again until one works.
  const rescans = createRepeatedPass({
    pass: rescan,
    failed: (error) => logger.error({ err: error }, "timed jobs not read; reading them again later"),
    everyMs: deps.rescanIntervalMs,
    retryMs: deps.rescanIntervalMs ?? retryDelayMs,
  });

  return {
    async start() {
      running = true;
      queue.start();
      try {
        await rescans.start();
        logger.info({ jobs: queue.size() }, "timed jobs started");
      } catch (error) {
        logger.error({ err: error }, "timed jobs not read at start; reading them again");
      }
    },
    async stop() {
      running = false;
      await Promise.allSettled([rescans.stop(), queue.stop(), ...inFlight]);
    },
    async schedule(key, payload, keepMs) {
      await records.set(key, payload, keepMs);
      arm(key, payload);
    },
    async cancel(key) {
      queue.cancel(key);
      failures.delete(key);
      await records.delete(key);
    },
    get: (key) => records.get(key),
    list: () => records.list(),
    armed: () => Promise.resolve(queue.size()),
    async idle() {
      for (;;) {
        await Promise.allSettled([...inFlight, rescans.current]);
        const dueNow = (queue.nextDueAt() ?? Number.POSITIVE_INFINITY) <= Date.now();
        if (inFlight.size === 0 && !dueNow) return;
        // A timer due now fires on the next turn of the loop.
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
      }
    },
  };
}
