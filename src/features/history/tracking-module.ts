import type { Logger } from "pino";
import type { Translations } from "../../bot/i18n.js";
import type { Links } from "../../bot/helpers/links.js";
import { otherChatsOfAccount } from "../../bot/helpers/notifier-deps.js";
import type { SupportedLocale } from "../../config.js";
import type { Metrics } from "../../platform/metrics.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { runStopSteps } from "../../platform/stop-steps.js";
import type { ReadMemo } from "../../platform/store/read-memo.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { createAddressBook, type AddressBook } from "../../shared/address-book.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { AppEventBus } from "../../shared/events.js";
import type { ChatZones } from "../../shared/limits/chat-zone.js";
import { createBatchStore } from "../../shared/orders/batch-progress.js";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import { createTracker, type Tracker, type TrackerDeps } from "../../shared/tracking/tracker.js";
import type { WebhookNotice } from "../../shared/webhooks/types.js";
import type { ExpiryReminders } from "../expiry/index.js";
import { createBatchNotifier } from "./batch-notifier.js";
import { createTrackingNotifier } from "./tracking-notifier.js";
import { createPendingConfirmations, keyTagOf } from "../../shared/confirmations/pending-confirmations.js";

export interface TrackingModuleDeps {
  store: StoreBackend;
  chats: ChatRepository;
  history: OrderHistory;
  /** Each unit of work (a poll and the change it announces, a webhook event) reads its chat's record once. */
  memo?: ReadMemo | undefined;
  /** The process's address book (`Storage`); without it, one of the module's own. */
  addressBook?: AddressBook;
  service: Pick<ServiceClient, "getOrder" | "getBroadcast">;
  /**
   * The tracker tells `tracking.changed` here (the expiry reminders, the keep plans and this module's notifier
   * subscribe); it takes `webhook.received` as a hint and `chat.unreachable` as the end of a chat's tracking, and
   * the notifier draws `confirmation.refused` on the confirmation's card.
   */
  events: AppEventBus;
  push: Pick<PushQueue, "enqueue">;
  /** The app's one I18n instance. */
  i18n: Translations;
  defaultLocale: SupportedLocale;
  /** The chats' zones, read by the cards each time they are drawn. */
  zones: Pick<ChatZones, "zoneOf">;
  /** The explorer under finished cards (EXPLORER_URL); Tronscan when absent. */
  links?: Links;
  /** The ⏰ switch on a fulfilled order's card; none when absent. */
  reminders?: Pick<ExpiryReminders, "isEnabled" | "isScheduled" | "setForOrder">;
  logger: Logger;
  metrics: Metrics;
  tuning?: {
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
    now?: () => number;
    /** How long a batch's card gathers changes before one edit. */
    batchCoalesceMs?: number;
  };
}

export interface TrackingModule {
  tracker: Tracker;
  /** Thousands of stored items are picked up in the background, while the bot already takes updates. */
  start(): Promise<void>;
  /** The tracker, then the batch cards it last changed. Failures are logged. */
  stop(): Promise<void>;
}

/**
 * The live card of an order or broadcast, kept current: the tracker polls what it tracks and takes webhooks as
 * hints; each change it tells (`tracking.changed`) is drawn on the record's card (or its batch's) and, when the
 * user must hear it, told. Webhooks and polls share one announced-(id, status) memory, so a status is told once
 * whichever saw it first.
 */
export function createTrackingModule(deps: TrackingModuleDeps): TrackingModule {
  const { store, chats, history, events, logger, tuning = {} } = deps;
  const unit = <T>(work: () => Promise<T>): Promise<T> => (deps.memo ? deps.memo.run(work) : work());
  const now = tuning.now === undefined ? {} : { now: tuning.now };
  const batches = createBatchNotifier({
    push: deps.push,
    batches: createBatchStore({ store, logger }),
    history,
    logger,
    ...(tuning.batchCoalesceMs === undefined ? {} : { coalesceMs: tuning.batchCoalesceMs }),
  });
  const notifier = createTrackingNotifier({
    push: deps.push,
    chats,
    i18n: deps.i18n,
    defaultLocale: deps.defaultLocale,
    logger,
    zones: deps.zones,
    accountChatsOf: otherChatsOfAccount(chats),
    ...now,
    ...(deps.reminders ? { reminders: deps.reminders } : {}),
    batches,
    addressBook: deps.addressBook ?? createAddressBook({ store, logger }),
    ...(deps.links ? { links: deps.links } : {}),
  });
  events.on("tracking.changed", (change) => notifier.onChange(change));
  // The card of a confirmation the recovery found refused tells the outcome in place of "checking".
  events.on("confirmation.refused", (outcome) => notifier.onRecovered(outcome));
  // The journal the placer writes before each POST, read here: a first sight while one is in flight may be its order.
  const journal = createPendingConfirmations({ store, logger });
  async function confirmationInFlight(chatId: number): Promise<boolean> {
    const entries = await journal.list();
    if (entries.length === 0) return false;
    const apiKey = await chats.getApiKey(chatId);
    const tag = apiKey === undefined ? undefined : keyTagOf(apiKey);
    return entries.some((entry) => entry.chatId === chatId || (tag !== undefined && entry.keyTag === tag));
  }
  const tracker = createTracker({
    store,
    service: deps.service,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    confirmationInFlight,
    onChange: (change) => unit(() => events.emit("tracking.changed", change)),
    onGiveUp: (event) => notifier.onGiveUp(event),
    unit,
    history,
    logger,
    metrics: deps.metrics,
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
  return {
    tracker,
    start: () => tracker.start({ inBackground: true }),
    stop: () =>
      runStopSteps(logger, [
        ["tracker", () => tracker.stop()],
        ["batch-cards", () => batches.stop()],
      ]),
  };
}
