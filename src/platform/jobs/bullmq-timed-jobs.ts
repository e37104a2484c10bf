import type { Job } from "bullmq";
import { createBullmqConnection, toBullJobId } from "../queue/bullmq-connection.js";
import { createRecordStore } from "../store/record-store.js";
import { DEFAULT_LEASE_MS, DEFAULT_RETRY_DELAY_MS, retryDelayAfter, type TimedJobs, type TimedJobsDeps } from "./timed-jobs.js";

/** The time the retry waits are logged under and the worker's backoff reads: one name for both. */
const BACKOFF_TYPE = "timed-job";
/** Jobs of one kind run together in one process, as the store engine's timers do. */
const CONCURRENCY = 32;
/** A job left running by a process that died is taken back this often (after its lease lapsed). */
const STALLED_CHECK_MS = 5_000;

/**
 * The timed jobs of one kind on BullMQ (Redis), for processes that share a Redis: the record in the store stays
 * the truth (what `get`, `list` and `cancel` read, and what a run re-reads), and a BullMQ delayed job with the id
 * `<key>@<due time>` (made legal by `toBullJobId`, as the push queue's are) stands for each record's timer. So no
 * process rescans the store for what another scheduled: Redis hands a due job to one worker, holds its lock (the
 * lease) while it runs, gives it back after a process died holding it, and retries a run that threw with backoff.
 *
 * A start reads the records once and adds a job for each (an id that exists is left alone): a record stored
 * without a job (a process that died between the two writes) is armed, and so is a record whose due time the
 * rule computes differently now. A job whose record is gone, or due later than the job, ends without a run; its
 * record's own job runs it. Records of a kind written without `schedule` (a journal) are read again every
 * `rescanIntervalMs` when `recordsWrittenElsewhere` says so.
 */
export function createBullmqTimedJobs<P>(deps: TimedJobsDeps<P> & { redisUrl: string; bullPrefix?: string }): TimedJobs<P> {
  const logger = deps.logger.child({ kind: deps.kind, jobs: "bullmq" });
  const now = deps.now ?? Date.now;
  const claim = deps.claim ?? (() => Promise.resolve(true));
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const records = createRecordStore({ kv: deps.store.namespace(deps.namespace), schema: deps.schema, version: deps.version, logger, name: deps.namespace });
  const bull = createBullmqConnection({
    name: `jobs-${deps.namespace}`,
    redisUrl: deps.redisUrl,
    logger,
    ...(deps.bullPrefix === undefined ? {} : { prefix: deps.bullPrefix }),
  });
  /** Runs under way in this process. */
  const running = new Set<Promise<void>>();
  let started = false;
  let rescanTimer: NodeJS.Timeout | undefined;
  let rescanning: Promise<void> | undefined;

  const dueOf = (payload: P) => Math.max(0, Math.trunc(deps.dueAtMs(payload)));
  const jobIdOf = (key: string, dueAtMs: number) => toBullJobId(`${key}@${dueAtMs}`);

  /** The BullMQ job each key's run here is under: a schedule from inside that run must not reuse its id. */
  const runningIds = new Map<string, string>();

  /** `scheduled`: a schedule, not a rescan arming what is stored. */
  async function add(key: string, payload: P, scheduled = false): Promise<void> {
    const dueAtMs = dueOf(payload);
    const id = jobIdOf(key, dueAtMs);
    // A job id that exists is left alone, and the running job's is removed once it completes: a key scheduled for the
    // same time while its run is under way here (by that run, say) gets a job of its own.
    const jobId = scheduled && runningIds.get(key) === id ? toBullJobId(`${key}@${dueAtMs}@again`) : id;
    await (
      await bull.queue()
    ).add(
      deps.kind,
      { key },
      {
        jobId,
        delay: Math.max(0, dueAtMs - now()),
        attempts: Number.MAX_SAFE_INTEGER,
        backoff: { type: BACKOFF_TYPE },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** Drops the job standing for a record's earlier due time, unless it is running (it then finds the record moved). */
  async function dropJob(key: string, payload: P): Promise<void> {
    try {
      await (await bull.queue()).remove(jobIdOf(key, dueOf(payload)));
    } catch (error) {
      logger.debug({ err: error, key }, "a timed job's earlier BullMQ job stays: it is running");
    }
  }

  async function runJob(job: Job<{ key: string }>, token: string | undefined): Promise<void> {
    const { key } = job.data;
    const payload = await records.get(key);
    if (payload === undefined) return;
    const dueAtMs = dueOf(payload);
    // The record moved later (rescheduled, or a rule that changed): its own job runs it then.
    if (jobIdOf(key, dueAtMs) !== job.id && dueAtMs > now()) {
      await add(key, payload);
      return;
    }
    if (!(await claim(`${deps.kind}:${key}`, leaseMs))) {
      // Another process holds the lease (a run of its own, or one that died with it): looked at again once it may have lapsed.
      await job.moveToDelayed(now() + Math.min(leaseMs, retryDelayAfter(deps, 1)), token);
      throw new (await bull.bullmq()).DelayedError();
    }
    runningIds.set(key, job.id ?? "");
    try {
      await deps.run(payload, key);
    } catch (error) {
      logger.warn({ err: error, key, retryInMs: retryDelayAfter(deps, job.attemptsMade + 1) }, "timed job did not run; will retry");
      throw error;
    } finally {
      runningIds.delete(key);
    }
    if (deps.handlerKeepsRecords !== true) await records.delete(key);
  }

  async function rescan(): Promise<void> {
    for await (const [key, payload] of records.list()) {
      if (!started) return;
      await add(key, payload);
    }
  }

  function rescanInBackground(): void {
    rescanning ??= rescan()
      .catch((error: unknown) => {
        if (started) logger.error({ err: error }, "timed jobs rescan failed");
      })
      .finally(() => {
        rescanning = undefined;
      });
  }

  /** Starts this process's worker and adds a job for every record; a Redis or store that cannot be reached now is tried again. */
  async function armAll(): Promise<void> {
    try {
      await bull.startWorker(
        (job: Job<{ key: string }>, token?: string) => {
          const run = runJob(job, token);
          const settled = run.then(
            () => undefined,
            () => undefined,
          );
          running.add(settled);
          void settled.finally(() => running.delete(settled));
          return run;
        },
        {
          concurrency: CONCURRENCY,
          lockDuration: leaseMs,
          stalledInterval: STALLED_CHECK_MS,
          // A job whose process died is run again however often that happens: delivery is at least once.
          maxStalledCount: Number.MAX_SAFE_INTEGER,
          settings: { backoffStrategy: (attemptsMade: number) => retryDelayAfter(deps, attemptsMade) },
        },
      );
      rescanning = rescan();
      await rescanning;
      logger.info("timed jobs started");
    } catch (error) {
      if (!started) return;
      logger.error({ err: error }, "timed jobs not armed at start; trying again");
      rescanTimer = setTimeout(() => void armAll(), deps.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS);
      return;
    } finally {
      rescanning = undefined;
    }
    if (deps.recordsWrittenElsewhere === true && deps.rescanIntervalMs !== undefined && started) {
      rescanTimer = setInterval(rescanInBackground, deps.rescanIntervalMs);
    }
  }

  return {
    async start() {
      started = true;
      await armAll();
    },
    async stop() {
      started = false;
      if (rescanTimer) clearTimeout(rescanTimer);
      rescanTimer = undefined;
      await rescanning;
      await bull.close();
    },
    async schedule(key, payload, keepMs) {
      const before = await records.get(key);
      await records.set(key, payload, keepMs);
      if (before !== undefined && dueOf(before) !== dueOf(payload)) await dropJob(key, before);
      await add(key, payload, true);
    },
    async cancel(key) {
      const before = await records.get(key);
      await records.delete(key);
      if (before !== undefined) await dropJob(key, before);
    },
    get: (key) => records.get(key),
    list: () => records.list(),
    async armed() {
      return (await bull.queue()).getJobCountByTypes("delayed", "waiting", "prioritized");
    },
    async idle() {
      for (;;) {
        await Promise.allSettled([...running, rescanning]);
        const queue = await bull.queue();
        const [waiting, active, dueNow] = await Promise.all([
          queue.getJobCountByTypes("waiting", "prioritized"),
          queue.getActiveCount(),
          queue.getDelayedCount(now() + 1),
        ]);
        if (running.size === 0 && waiting + active + dueNow === 0) return;
        await new Promise<void>((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}
