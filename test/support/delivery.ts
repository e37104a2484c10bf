/**
 * What the app builds for the messages nobody asked for just now, as the test harnesses need it in one piece:
 * the outbox (push queue and Telegram budget), the expiry reminders, the tracking module, the top-up notifier
 * and the service-webhook inbox, wired as src/app.ts wires them.
 */
import type { Logger } from "pino";
import type { Translations } from "../../src/bot/i18n.js";
import { otherChatsOfAccount } from "../../src/bot/helpers/notifier-deps.js";
import type { SupportedLocale } from "../../src/config.js";
import { createTopUpNotifier, type TopUpNotifier } from "../../src/features/balance/index.js";
import { createExpiryModule, type ExpiryReminders } from "../../src/features/expiry/index.js";
import { createTrackingModule, type TrackingModuleDeps } from "../../src/features/history/index.js";
import { createJobsEngine } from "../../src/platform/jobs/jobs-engine.js";
import type { Metrics } from "../../src/platform/metrics.js";
import { createOutbox, type PushQueue, type PushQueueDeps, type TelegramBudget } from "../../src/platform/push/index.js";
import type { ServiceClient } from "../../src/platform/service/client.js";
import { runStopSteps } from "../../src/platform/stop-steps.js";
import type { Storage } from "../../src/shared/storage.js";
import type { AppEventBus } from "../../src/shared/events.js";
import { createChatZones } from "../../src/shared/limits/chat-zone.js";
import { createLimitSettingsStore } from "../../src/shared/limits/limit-settings.js";
import type { Tracker } from "../../src/shared/tracking/tracker.js";
import { createWebhookInbox } from "../../src/shared/webhooks/create-webhook-inbox.js";
import type { WebhookInbox, WebhookInboxDeps } from "../../src/shared/webhooks/types.js";

export interface TestDeliveryDeps {
  storage: Pick<Storage, "store" | "chats" | "history" | "queueMode"> & Partial<Pick<Storage, "memo" | "addressBook" | "limitSettings">>;
  service: Pick<ServiceClient, "getOrder" | "getBroadcast">;
  events: AppEventBus;
  i18n: Translations;
  defaultLocale: SupportedLocale;
  defaultTimeZone?: string;
  logger: Logger;
  metrics: Metrics;
  transport: PushQueueDeps["transport"];
  tuning?: {
    push?: Pick<PushQueueDeps, "limits" | "retry">;
    tracker?: NonNullable<TrackingModuleDeps["tuning"]>["tracker"];
    inbox?: Pick<WebhookInboxDeps, "baseDelayMs" | "maxInMemory">;
    now?: () => number;
    batchCoalesceMs?: number;
  };
}

export interface TestDelivery {
  push: PushQueue;
  budget: TelegramBudget;
  tracker: Tracker;
  topUpNotifier: TopUpNotifier;
  reminders: ExpiryReminders;
  inbox: WebhookInbox;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createTestDelivery(deps: TestDeliveryDeps): TestDelivery {
  const { storage, events, logger, metrics, tuning = {} } = deps;
  const { store, chats, history } = storage;
  const now = tuning.now === undefined ? {} : { now: tuning.now };
  const memo = storage.memo ? { memo: storage.memo } : {};
  const outbox = createOutbox({
    store,
    logger,
    metrics,
    ...storage.queueMode,
    ...tuning.push,
    transport: deps.transport,
    isChatBlocked: async (chatId) => (await chats.get(chatId))?.active === false,
    onChatUnreachable: (chatId) => events.emit("chat.unreachable", { chatId }),
  });
  const { push } = outbox;
  events.on("chat.unreachable", ({ chatId }) => chats.markInactive(chatId));
  const zones = createChatZones({ settings: storage.limitSettings ?? createLimitSettingsStore({ store, logger }), defaultTimeZone: deps.defaultTimeZone });
  const notices = { push, chats, i18n: deps.i18n, defaultLocale: deps.defaultLocale, logger, zones, accountChatsOf: otherChatsOfAccount(chats), ...now };
  const reminders = createExpiryModule({ store, jobs: createJobsEngine({ store, ...storage.queueMode }), logger, events, notices, tuning: now });
  const tracking = createTrackingModule({
    store,
    chats,
    history,
    ...memo,
    ...(storage.addressBook ? { addressBook: storage.addressBook } : {}),
    service: deps.service,
    events,
    push,
    i18n: deps.i18n,
    defaultLocale: deps.defaultLocale,
    zones,
    reminders,
    logger,
    metrics,
    tuning: {
      ...now,
      ...(tuning.tracker ? { tracker: tuning.tracker } : {}),
      ...(tuning.batchCoalesceMs === undefined ? {} : { batchCoalesceMs: tuning.batchCoalesceMs }),
    },
  });
  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    ...storage.queueMode,
    ...tuning.inbox,
    onEvent: (notice) => (storage.memo ? storage.memo.run(() => events.emit("webhook.received", notice)) : events.emit("webhook.received", notice)),
    resolveTxId: async (chatId, txId) => (await history.findBroadcastByTxId(chatId, txId))?.id,
  });
  return {
    push,
    budget: outbox.budget,
    tracker: tracking.tracker,
    topUpNotifier: createTopUpNotifier({ push, chats, i18n: deps.i18n, defaultLocale: deps.defaultLocale, logger }),
    reminders,
    inbox,
    async start() {
      await push.start();
      await inbox.start();
      await tracking.start();
      await reminders.start();
    },
    stop: () =>
      runStopSteps(logger, [
        ["inbox", () => inbox.stop()],
        ["tracking", () => tracking.stop()],
        ["expiry-reminders", () => reminders.stop()],
        ["push", () => outbox.stop()],
      ]),
  };
}
