import type { Logger } from "pino";
import type { Translations } from "../../bot/i18n.js";
import { createBalanceNotifier } from "./balance-notifier.js";
import { createTopUpNotifier } from "./top-up-notifier.js";
import type { Links } from "../../bot/helpers/links.js";
import type { SupportedLocale } from "../../config.js";
import type { AppEventSubscriber } from "../../shared/events.js";
import { createPendingConfirmations } from "../../shared/confirmations/pending-confirmations.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { createAccountWatch, type AccountWatch, type AccountWatchDeps } from "./balance-account-watch.js";
import { createAlertSettings, type AlertSettingsStore } from "../../shared/chats/alert-settings.js";
import { createBalanceWatcher, whileStillSendable, type BalanceWatcher, type BalanceWatcherDeps } from "./top-up-watcher.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import type { StoreBackend } from "../../platform/store/types.js";

export interface BalanceModuleDeps {
  storage: { store: StoreBackend; jobs: JobsEngine; chats: ChatRepository; history: OrderHistory };
  /** A chat's watch starts at its `chat.linked` and ends at its `chat.unlinked`. */
  events: AppEventSubscriber;
  service: Pick<ServiceClient, "getBalance" | "getBroadcast">;
  push: Pick<PushQueue, "enqueue">;
  i18n: Translations;
  defaultLocale: SupportedLocale;
  /** The dashboard button under "revoke the key in the dashboard" (DASHBOARD_URL). */
  links?: Links;
  logger: Logger;
  tuning: Pick<AccountWatchDeps, "intervalMs" | "settleMs" | "maxBackoffMs" | "concurrency" | "maxReadsPerSecond">;
  /** Keep-charged plans: part of the default low-balance threshold. */
  nextRenewalCostSun?: AccountWatchDeps["nextRenewalCostSun"];
  /** A lease, so one process polls a chat. */
  claim?: AccountWatchDeps["claim"];
  /** The top-up watcher's backoff. */
  topUps: Pick<BalanceWatcherDeps, "firstDelayMs" | "maxDelayMs" | "maxWatchMs">;
  now?: () => number;
}

export interface BalanceModule {
  watch: AccountWatch;
  alerts: AlertSettingsStore;
  /**
   * The top-up watcher: while a quote or a 402 waits for money it reads through this watch's judgment, and a
   * deposit this watch sees that covers it is told there, as one message.
   */
  topUps: BalanceWatcher;
}

/** The balance watch of linked chats, its notifier and its settings (docs/balance-watch.md). */
export function createBalanceModule(deps: BalanceModuleDeps): BalanceModule {
  const { storage, logger } = deps;
  const alerts = createAlertSettings({ store: storage.store, logger });
  const notifier = createBalanceNotifier({
    push: deps.push,
    chats: storage.chats,
    i18n: deps.i18n,
    defaultLocale: deps.defaultLocale,
    logger,
    ...(deps.links ? { links: deps.links } : {}),
  });
  const watch = createAccountWatch({
    store: storage.store,
    service: deps.service,
    chats: storage.chats,
    history: storage.history,
    // The same journal the placer and the submitter write (one store namespace).
    pending: createPendingConfirmations({ store: storage.store, logger }),
    settings: alerts,
    announce: (event) => notifier.announce(event),
    topUps: { offer: (chatId, availableSun, depositSun) => topUps.offer(chatId, availableSun, depositSun) },
    logger,
    ...deps.tuning,
    ...(deps.nextRenewalCostSun ? { nextRenewalCostSun: deps.nextRenewalCostSun } : {}),
    ...(deps.claim ? { claim: deps.claim } : {}),
  });
  // The watches reference each other: the watcher reads inside this watch's lock of the chat, and this watch offers
  // it the deposits it sees. Both are built here; `offer` above is called only once the watch runs.
  // A credited top-up is told in the chat that waited for it.
  const topUpNotifier = createTopUpNotifier({ push: deps.push, chats: storage.chats, i18n: deps.i18n, defaultLocale: deps.defaultLocale, logger });
  const topUps: BalanceWatcher = createBalanceWatcher({
    ...deps.topUps,
    getApiKey: (chatId) => storage.chats.getApiKey(chatId),
    onCredited: (event) => topUpNotifier.onCredited(event),
    store: storage.store,
    jobs: storage.jobs,
    service: deps.service,
    isWanted: whileStillSendable({ store: storage.store, logger, ...(deps.now ? { now: deps.now } : {}) }),
    exclusive: (chatId, fn) => watch.exclusive(chatId, fn),
    readBalance: (chatId, apiKey, claim, signal) => watch.observe(chatId, apiKey, claim, signal),
    logger,
    ...(deps.now ? { now: deps.now } : {}),
  });
  deps.events.on("chat.linked", ({ chatId }) => watch.linked(chatId));
  deps.events.on("chat.unlinked", ({ chatId }) => watch.unlinked(chatId));
  return {
    watch,
    alerts,
    topUps,
  };
}
