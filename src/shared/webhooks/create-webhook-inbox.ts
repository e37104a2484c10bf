import { createBullmqInbox } from "./create-bullmq-inbox.js";
import { createLocalInbox } from "./create-local-inbox.js";
import type { WebhookInbox, WebhookInboxDeps } from "./types.js";

/** The persisted webhook inbox: BullMQ when asked (the app's `queueModeFor`), else the store itself. */
export function createWebhookInbox(deps: WebhookInboxDeps): WebhookInbox {
  if (deps.queue === "bullmq") {
    if (!deps.redisUrl) throw new Error('createWebhookInbox: queue "bullmq" needs redisUrl');
    return createBullmqInbox({ ...deps, redisUrl: deps.redisUrl });
  }
  return createLocalInbox(deps);
}
