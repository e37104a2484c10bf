import type { Logger } from "pino";
import type { Translations } from "../../bot/i18n.js";
import { createBalanceNotifier } from "./balance-notifier.js";
import type { Links } from "../../bot/helpers/links.js";
import type { SupportedLocale } from "../../config.js";
import type { AppEventSubscriber } from "../../core/events.js";
import { createPendingConfirmations } from "../../core/confirmations/pending-confirmations.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { createAccountWatch, type AccountWatch, type AccountWatchDeps } from "./balance-account-watch.js";
import { createAlertSettings, type AlertSettingsStore } from "./alerts-settings.js";
import type { BalanceWatcher, BalanceWatcherDeps } from "../../core/topup/balance-watcher.js";
import type { ChatRepository } from "../../core/chats/chat-repository.js";
import type { OrderHistory } from "../../core/orders/order-history.js";
import type { StoreBackend } from "../../platform/store/types.js";

export interface BalanceModuleDeps {
  storage: { store: StoreBackend; chats: ChatRepository; history: OrderHistory };
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
}

export interface BalanceModule {
  watch: AccountWatch;
  alerts: AlertSettingsStore;
  /** What the top-up watcher takes so its reads go through this watch's judgment (one message per deposit). */
  topUpHooks: Pick<BalanceWatcherDeps, "exclusive" | "readBalance">;
  /** The top-up watcher, once the flows built it: a deposit covering a waiting quote is told there. */
  attachTopUps(topUps: BalanceWatcher | undefined): void;
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
  let topUps: BalanceWatcher | undefined;
  const watch = createAccountWatch({
    store: storage.store,
    service: deps.service,
    chats: storage.chats,
    history: storage.history,
    // The same journal the placer and the submitter write (one store namespace).
    pending: createPendingConfirmations({ store: storage.store, logger }),
    settings: alerts,
    announce: (event) => notifier.announce(event),
    topUps: { offer: (chatId, availableSun, depositSun) => topUps?.offer(chatId, availableSun, depositSun) ?? Promise.resolve(false) },
    logger,
    ...deps.tuning,
    ...(deps.nextRenewalCostSun ? { nextRenewalCostSun: deps.nextRenewalCostSun } : {}),
    ...(deps.claim ? { claim: deps.claim } : {}),
  });
  deps.events.on("chat.linked", ({ chatId }) => watch.linked(chatId));
  deps.events.on("chat.unlinked", ({ chatId }) => watch.unlinked(chatId));
  return {
    watch,
    alerts,
    topUpHooks: {
      exclusive: (chatId, fn) => watch.exclusive(chatId, fn),
      readBalance: (chatId, apiKey, claim, signal) => watch.observe(chatId, apiKey, claim, signal),
    },
    attachTopUps(value) {
      topUps = value;
    },
  };
}
