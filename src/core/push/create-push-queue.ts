import { createBullmqPushQueue } from "./create-bullmq-push-queue.js";
import { createLocalPushQueue } from "./create-local-push-queue.js";
import type { PushQueue, PushQueueDeps } from "./types.js";

/**
 * The one outgoing queue for every message the bot sends on its own.
 * BullMQ when asked (`queue: "bullmq"`) or when the store is Redis and its
 * URL is given (several processes may then share the work); otherwise the
 * jobs live in the store and this process paces them.
 */
export function createPushQueue(deps: PushQueueDeps): PushQueue {
  const useBullmq = deps.queue === "bullmq" || (deps.queue === undefined && deps.store.kind === "redis" && !!deps.redisUrl);
  if (useBullmq) {
    if (!deps.redisUrl) throw new Error("createPushQueue: queue \"bullmq\" needs redisUrl");
    return createBullmqPushQueue({ ...deps, redisUrl: deps.redisUrl });
  }
  return createLocalPushQueue(deps);
}
