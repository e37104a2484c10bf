import type { StoreBackend } from "../store/types.js";

/**
 * Where the push queue and the webhook inbox keep their jobs. Decided once,
 * when the app is assembled, and handed to both: on Redis they run on BullMQ
 * so several processes share the work; on SQLite/Postgres the jobs live in
 * the store and this process paces them.
 */
export type QueueMode = { readonly queue: "local" } | { readonly queue: "bullmq"; readonly redisUrl: string };

export function queueModeFor(store: Pick<StoreBackend, "kind">, storageUrl: string): QueueMode {
  return store.kind === "redis" ? { queue: "bullmq", redisUrl: storageUrl } : { queue: "local" };
}
