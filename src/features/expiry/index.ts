/** An order's expiry reminder: the ⏰ switch on its card, the reminder itself, and Resend after a failed broadcast. */
export { createExpiryNotifier } from "./expiry-notifier.js";
export { createExpiryFeature } from "./expiry-feature.js";
export { createResendKeyboard, reminderToggleButton } from "./expiry-keyboards.js";
