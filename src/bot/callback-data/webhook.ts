import { createCallbackData } from "./create-callback-data.js";

/** /webhook buttons: `webhook:<secret|remove|rotate|rotate-yes|show>`. */
export const webhookData = createCallbackData("webhook", ["action"]);

export const WEBHOOK_ACTIONS = ["secret", "remove", "rotate", "rotate-yes", "show"] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

export function isWebhookAction(value: string | undefined): value is WebhookAction {
  return WEBHOOK_ACTIONS.some((a) => a === value);
}
