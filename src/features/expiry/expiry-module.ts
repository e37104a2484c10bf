import type { Logger } from "pino";
import type { AppEventSubscriber } from "../../shared/events.js";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { createExpiryNotifier, type ExpiryNotifierDeps } from "./expiry-notifier.js";
import { createExpiryReminders, remindWhenFulfilled, type ExpiryReminders, type ExpiryRemindersDeps } from "./expiry-reminders.js";

export interface ExpiryModuleDeps {
  store: StoreBackend;
  jobs: JobsEngine;
  logger: Logger;
  /** The tracker's `tracking.changed`: a fulfilled order gets its reminder (when the chat opted in). */
  events: AppEventSubscriber;
  /** How the reminder is told: the chat's language and zone, through the push queue. */
  notices: ExpiryNotifierDeps;
  /** Lead, its cap, rescans (config); `claim` when several processes share the store. */
  tuning?: Pick<ExpiryRemindersDeps, "leadMs" | "maxLeadPercent" | "rescanIntervalMs" | "claim" | "now">;
}

/**
 * Reminders before a delegation ends (docs/expiry.md): scheduled as the tracker sees an order fulfilled, told
 * through the expiry notifier. Built before the tracking notifier subscribes: the card it draws shows the switch.
 */
export function createExpiryModule(deps: ExpiryModuleDeps): ExpiryReminders {
  const notifier = createExpiryNotifier(deps.notices);
  const reminders = createExpiryReminders({
    store: deps.store,
    jobs: deps.jobs,
    logger: deps.logger,
    ...deps.tuning,
    announce: (reminder) => notifier.onReminder(reminder),
  });
  remindWhenFulfilled(deps.events, reminders);
  return reminders;
}
