import { createBullmqPushQueue } from "./create-bullmq-push-queue.js";
import { createLocalPushQueue } from "./create-local-push-queue.js";
import type { PushQueue, PushQueueDeps } from "./types.js";

/**
 * The one outgoing queue for every message the bot sends on its own.
 * BullMQ when asked (`queue: "bullmq"`, several processes may then share the
 * work; the app decides it once with `queueModeFor`); otherwise the jobs live
 * in the store and this process paces them.
 */
export function createPushQueue(deps: PushQueueDeps): PushQueue {
  if (deps.queue === "bullmq") {
    if (!deps.redisUrl) throw new Error('createPushQueue: queue "bullmq" needs redisUrl');
    return createBullmqPushQueue({ ...deps, redisUrl: deps.redisUrl });
  }
  return createLocalPushQueue(deps);
}
