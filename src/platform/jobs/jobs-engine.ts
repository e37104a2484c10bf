import type { QueueMode } from "../queue/queue-mode.js";
import type { StoreBackend } from "../store/types.js";
import { createBullmqTimedJobs } from "./bullmq-timed-jobs.js";
import { createTimedJobs, type TimedJobs, type TimedJobsDeps } from "./timed-jobs.js";

/** What a feature says about one kind of timed job; the engine adds where the jobs live. */
export type JobKind<P> = Omit<TimedJobsDeps<P>, "store">;

/**
 * The one jobs engine of a process: every kind of timed job a feature defines runs on it, in the store's own
 * records and timers on SQLite and Postgres, and on BullMQ's delayed jobs when the store is Redis (the queue mode
 * decided once with the store), so processes sharing a Redis share the work without rescanning it.
 */
export interface JobsEngine {
  define<P>(kind: JobKind<P>): TimedJobs<P>;
}

export function createJobsEngine(deps: { store: StoreBackend } & QueueMode): JobsEngine {
  return {
    define<P>(kind: JobKind<P>): TimedJobs<P> {
      if (deps.queue === "bullmq") {
        return createBullmqTimedJobs<P>({
          ...kind,
          store: deps.store,
          redisUrl: deps.redisUrl,
          ...(deps.bullPrefix === undefined ? {} : { bullPrefix: deps.bullPrefix }),
        });
      }
      return createTimedJobs<P>({ ...kind, store: deps.store });
    },
  };
}
