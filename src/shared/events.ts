import type { Events } from "../platform/events.js";
import type { RecoveryOutcome } from "./confirmations/confirmation-recovery.js";
import type { TrackerChange } from "./tracking/tracker-types.js";
import type { WebhookNotice } from "./webhooks/types.js";

/** What happens in the app that more than one module acts on, by name. */
export interface AppEvents {
  /** The tracker saw an order or a broadcast move to a new status (its polling, or a webhook's hint). */
  "tracking.changed": TrackerChange;
  /** A signed service webhook, verified and deduplicated, for the chat its route names. */
  "webhook.received": WebhookNotice;
  /** A chat linked an API key (a first link, or another key in place of its own). */
  "chat.linked": { chatId: number };
  /** A chat's key was removed. */
  "chat.unlinked": { chatId: number };
  /** Telegram refused to deliver to the chat for good (403: blocked, kicked, deleted). */
  "chat.unreachable": { chatId: number };
  /** A confirmation a crash or a lost answer left open turned out not to have gone through (the recovery at start-up or its sweeps). */
  "confirmation.refused": RecoveryOutcome;
  /** A chat froze its spending (/limits): nothing it or its account's chats spend goes through from now on. */
  "chat.frozen": { chatId: number };
}

export type AppEventBus = Events<AppEvents>;
/** What a module that only tells needs. */
export type AppEventEmitter = Pick<AppEventBus, "emit">;
/** What a module that only listens needs. */
export type AppEventSubscriber = Pick<AppEventBus, "on">;
