import type { StoreBackend } from "../store/types.js";

/**
 * Where the push queue and the webhook inbox keep their jobs. Decided once,
 * when the app is assembled, and handed to both: on Redis they run on BullMQ
 * so several processes share the work; on SQLite/Postgres the jobs live in
 * the store and this process paces them.
 */
export type QueueMode = { readonly queue: "local" } | { readonly queue: "bullmq"; readonly redisUrl: string; readonly bullPrefix?: string };

/** `scope`: the deployment's `<STORAGE_PREFIX>/` (see `storageScope`); BullMQ's keys then start with it too. */
export function queueModeFor(store: Pick<StoreBackend, "kind">, storageUrl: string, scope = ""): QueueMode {
  if (store.kind !== "redis") return { queue: "local" };
  return { queue: "bullmq", redisUrl: storageUrl, ...(scope === "" ? {} : { bullPrefix: `${scope}bull` }) };
}
