import { createBullmqInbox } from "./create-bullmq-inbox.js";
import { createLocalInbox } from "./create-local-inbox.js";
import type { WebhookInbox, WebhookInboxDeps } from "./types.js";

/** The persisted webhook inbox: BullMQ when asked or when the store is Redis, else the store itself. */
export function createWebhookInbox(deps: WebhookInboxDeps): WebhookInbox {
  const useBullmq = deps.queue === "bullmq" || (deps.queue === undefined && deps.store.kind === "redis" && !!deps.redisUrl);
  if (useBullmq) {
    if (!deps.redisUrl) throw new Error("createWebhookInbox: queue \"bullmq\" needs redisUrl");
    return createBullmqInbox({ ...deps, redisUrl: deps.redisUrl });
  }
  return createLocalInbox(deps);
}
