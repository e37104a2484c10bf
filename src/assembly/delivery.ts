import { createAddressBook } from "../core/address-book.js";
import type { Logger } from "pino";
import type { Translations } from "../bot/i18n.js";
import { createTopUpNotifier, type TopUpNotifier } from "../features/balance/index.js";
import { createExpiryNotifier } from "../features/expiry/index.js";
import { createExpiryReminders, remindWhenFulfilled, type ExpiryReminders, type ExpiryRemindersDeps } from "../core/autopilot/expiry-reminders.js";
import type { AppEventBus } from "../core/events.js";
import { createBatchNotifier } from "../bot/notifiers/batch-notifier.js";
import { createBatchStore } from "../core/orders/batch-progress.js";
import { createTrackingNotifier, type TrackingNotifier } from "../bot/notifiers/tracking-notifier.js";
import type { Links } from "../bot/helpers/links.js";
import { otherChatsOfAccount } from "../bot/notifiers/notifier-deps.js";
import type { SupportedLocale } from "../config.js";
import type { Metrics } from "../platform/metrics.js";
import { createPushQueue, type PushQueue, type PushQueueDeps } from "../platform/push/index.js";
import { createTelegramBudget, type TelegramBudget } from "../platform/push/telegram-budget.js";
import type { ServiceClient } from "../platform/service/client.js";
import { createTracker, type Tracker, type TrackerDeps } from "../core/tracking/tracker.js";
import { createWebhookInbox } from "../core/webhooks/create-webhook-inbox.js";
import type { WebhookInbox, WebhookInboxDeps, WebhookNotice } from "../core/webhooks/types.js";
import { createChatZones } from "../core/limits/chat-zone.js";
import { createLimitSettingsStore } from "../core/limits/limit-settings.js";
import { runStopSteps } from "./shutdown.js";
import type { Storage } from "./storage.js";

export interface DeliveryDeps {
  storage: Pick<Storage, "store" | "chats" | "history" | "queueMode"> & Partial<Pick<Storage, "memo">>;
  service: Pick<ServiceClient, "getOrder" | "getBroadcast">;
  /** The app's events: the tracker tells `tracking.changed` there, the inbox `webhook.received`. */
  events: AppEventBus;
  /** The app's one I18n instance, for the notifiers. */
  i18n: Translations;
  defaultLocale: SupportedLocale;
  /** The zone of chats that set none (LIMITS_TIME_ZONE); UTC when absent. */
  defaultTimeZone?: string;
  /** The explorer under finished cards (EXPLORER_URL); Tronscan when absent. */
  links?: Links;
  logger: Logger;
  metrics: Metrics;
  /** Sends one job to Telegram and throws Telegram's error: no auto-retry, the queue must see 429s to pace itself. */
  transport: PushQueueDeps["transport"];
  /** Faster clocks and limits (tests); production defaults otherwise. */
  tuning?: {
    push?: Pick<PushQueueDeps, "limits" | "retry">;
    /** `leases` when several processes share the store (each item polled by one of them). */
    tracker?: Pick<
      TrackerDeps,
      | "minDelayMs"
      | "maxDelayMs"
      | "orderHorizonMs"
      | "broadcastMarginMs"
      | "leases"
      | "leaseTtlMs"
      | "scanIntervalMs"
      | "firstReadSpread"
      | "readLimits"
      | "notFound"
    >;
    inbox?: Pick<WebhookInboxDeps, "baseDelayMs" | "maxInMemory">;
    /** Expiry reminders: lead, its cap, rescans (config); `claim` when several processes share the store. */
    expiry?: Pick<ExpiryRemindersDeps, "leadMs" | "maxLeadPercent" | "rescanIntervalMs" | "claim">;
    now?: () => number;
    /** How long a batch's card gathers changes before one edit. */
    batchCoalesceMs?: number;
  };
}

/** Everything that tells a chat something nobody asked for just now. */
export interface Delivery {
  push: PushQueue;
  /** The process's one allowance of Telegram messages: the push queue's, and the bot's answers' (which go first). */
  budget: TelegramBudget;
  tracker: Tracker;
  notifier: TrackingNotifier;
  topUpNotifier: TopUpNotifier;
  /** Reminders before a delegation ends; scheduled when the tracker sees an order fulfilled. */
  reminders: ExpiryReminders;
  inbox: WebhookInbox;
  /** Push queue, inbox, tracker: the queue runs before anything can enqueue. */
  start(): Promise<void>;
  /** Inbox, tracker, then the queue (so what they enqueued last still goes out). Failures are logged. */
  stop(): Promise<void>;
}

/**
 * Push queue, tracker, webhook inbox and the notifiers that turn what they see
 * into messages. The inbox tells `webhook.received`, which the tracker takes
 * as a hint; the tracker tells `tracking.changed`, which the expiry reminders
 * and the tracking notifier (and the keep plans, where they run) subscribe to.
 * Webhooks and the tracker's own polling share one announced-(id, status)
 * memory, so a status is told once whichever saw it first.
 */
export function createDelivery(deps: DeliveryDeps): Delivery {
  const { storage, logger, metrics, tuning = {} } = deps;
  const { store, chats, history, queueMode } = storage;
  const { events } = deps;
  /** A tracker poll (with the change it announces) and a webhook event are each one unit of work: its chat's record is read once. */
  const unit = <T>(work: () => Promise<T>): Promise<T> => (storage.memo ? storage.memo.run(work) : work());
  const now = tuning.now === undefined ? {} : { now: tuning.now };
  const budget = createTelegramBudget({ ...queueMode, logger, ...(tuning.push?.limits === undefined ? {} : { limits: tuning.push.limits }) });
  const push = createPushQueue({
    store,
    logger,
    metrics,
    ...queueMode,
    ...tuning.push,
    ...(budget.kind === "local" ? { budget } : {}),
    transport: deps.transport,
    isChatBlocked: async (chatId) => (await chats.get(chatId))?.active === false,
    onChatUnreachable: (chatId) => events.emit("chat.unreachable", { chatId }),
  });
  events.on("chat.unreachable", ({ chatId }) => chats.markInactive(chatId));
  // The chats' zones as /settings stored them, read by the notices each time they are drawn.
  const zones = createChatZones({
    settings: createLimitSettingsStore({ store, logger, ...(storage.memo ? { memo: storage.memo } : {}) }),
    defaultTimeZone: deps.defaultTimeZone,
  });
  const accountChatsOf = otherChatsOfAccount(chats);
  const notifierDeps = { push, chats, i18n: deps.i18n, defaultLocale: deps.defaultLocale, logger, zones, accountChatsOf, ...now };
  const expiryNotifier = createExpiryNotifier(notifierDeps);
  const reminders = createExpiryReminders({ store, logger, ...now, ...tuning.expiry, announce: (reminder) => expiryNotifier.onReminder(reminder) });
  const batches = createBatchNotifier({
    push,
    batches: createBatchStore({ store, logger }),
    history,
    logger,
    ...(tuning.batchCoalesceMs === undefined ? {} : { coalesceMs: tuning.batchCoalesceMs }),
  });
  const notifier = createTrackingNotifier({
    ...notifierDeps,
    reminders,
    batches,
    addressBook: createAddressBook({ store, logger, ...(storage.memo ? { memo: storage.memo } : {}) }),
    ...(deps.links ? { links: deps.links } : {}),
  });
  // The reminder first: the card the notifier draws shows its switch.
  remindWhenFulfilled(events, reminders);
  events.on("tracking.changed", (change) => notifier.onChange(change));
  const topUpNotifier = createTopUpNotifier({ push, chats, i18n: deps.i18n, defaultLocale: deps.defaultLocale, logger });
  const tracker = createTracker({
    store,
    service: deps.service,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    onChange: (change) => unit(() => events.emit("tracking.changed", change)),
    onGiveUp: (event) => notifier.onGiveUp(event),
    unit,
    history,
    logger,
    metrics,
    ...now,
    ...tuning.tracker,
  });
  /**
   * An account's chats share one route, which resolves to one of them: a webhook about a record another chat of
   * the account placed is that chat's (its card, its tracking), whichever chat the route names.
   */
  async function placingChatOf(notice: WebhookNotice): Promise<WebhookNotice> {
    const placedIn = (await history.get(notice.chatId, notice.kind, notice.id))?.chatId;
    if (placedIn === undefined || placedIn === notice.chatId) return notice;
    const [routed, placing] = await Promise.all([chats.get(notice.chatId), chats.get(placedIn)]);
    const sameAccount = placing?.apiKeySealed !== undefined && placing.accountId !== undefined && placing.accountId === routed?.accountId;
    return sameAccount ? { ...notice, chatId: placedIn } : notice;
  }
  events.on("chat.unreachable", async ({ chatId }) => {
    await tracker.stopChat(chatId);
  });
  events.on("webhook.received", async (notice) => tracker.hint(await placingChatOf(notice)));
  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    ...queueMode,
    ...tuning.inbox,
    onEvent: (notice) => unit(() => events.emit("webhook.received", notice)),
    resolveTxId: async (chatId, txId) => (await history.findBroadcastByTxId(chatId, txId))?.id,
  });

  return {
    push,
    budget,
    tracker,
    notifier,
    topUpNotifier,
    reminders,
    inbox,
    async start() {
      await push.start();
      await inbox.start();
      // Thousands of stored items are picked up while the bot already polls Telegram.
      await tracker.start({ inBackground: true });
      await reminders.start();
    },
    stop: () =>
      runStopSteps(logger, [
        ["inbox", () => inbox.stop()],
        ["tracker", () => tracker.stop()],
        ["batch-cards", () => batches.stop()],
        ["expiry-reminders", () => reminders.stop()],
        ["push", () => push.stop()],
        ["telegram-budget", () => budget.close()],
      ]),
  };
}
