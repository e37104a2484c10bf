/** An order's expiry reminder: the ⏰ switch on its card, the reminder itself, and Resend after a failed broadcast. */
export { createExpiryNotifier } from "./expiry-notifier.js";
export { createExpiryFeature } from "./expiry-feature.js";
// The reminders themselves: the app builds them with the module; the tracking notifier and /settings read their switches.
export { createExpiryModule, type ExpiryModuleDeps } from "./expiry-module.js";
export type { ExpiryReminders, ExpiryReminder, FulfilledOrder, ReminderToggle } from "./expiry-reminders.js";
