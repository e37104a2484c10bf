import type { Logger } from "pino";
import type { Translations } from "../bot/i18n.js";
import { createBalanceNotifier } from "../bot/notifiers/balance-notifier.js";
import type { Links } from "../bot/helpers/links.js";
import type { SupportedLocale } from "../config.js";
import type { ChatRepository } from "../core/chats/chat-repository.js";
import { createPendingConfirmations } from "../core/confirmations/pending-confirmations.js";
import type { PushQueue } from "../core/push/index.js";
import type { ServiceClient } from "../core/service/client.js";
import { createAccountWatch, type AccountWatch, type AccountWatchDeps } from "../core/topup/account-watch.js";
import { createAlertSettings, type AlertSettingsStore } from "../core/topup/alert-settings.js";
import type { BalanceWatcher, BalanceWatcherDeps } from "../core/topup/balance-watcher.js";
import type { Storage } from "./storage.js";

export interface BalanceWatchAssemblyDeps {
  storage: Pick<Storage, "store" | "chats" | "history">;
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

export interface BalanceWatchAssembly {
  watch: AccountWatch;
  alerts: AlertSettingsStore;
  /** The chats as the bot sees them: a link starts the chat's watch, an unlink ends it. */
  chats: ChatRepository;
  /** What the top-up watcher takes so its reads go through this watch's judgment (one message per deposit). */
  topUpHooks: Pick<BalanceWatcherDeps, "exclusive" | "readBalance">;
  /** The top-up watcher, once the flows built it: a deposit covering a waiting quote is told there. */
  attachTopUps(topUps: BalanceWatcher | undefined): void;
}

/** The balance watch of linked chats, its notifier and its settings (docs/balance-watch.md). */
export function createBalanceWatchAssembly(deps: BalanceWatchAssemblyDeps): BalanceWatchAssembly {
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
  const base = storage.chats;
  const chats: ChatRepository = {
    ...base,
    async link(chatId, input) {
      const record = await base.link(chatId, input);
      watch.linked(chatId);
      return record;
    },
    async unlink(chatId) {
      const was = await base.unlink(chatId);
      await watch.unlinked(chatId);
      return was;
    },
  };
  return {
    watch,
    alerts,
    chats,
    topUpHooks: {
      exclusive: (chatId, fn) => watch.exclusive(chatId, fn),
      readBalance: (chatId, apiKey, claim, signal) => watch.observe(chatId, apiKey, claim, signal),
    },
    attachTopUps(value) {
      topUps = value;
    },
  };
}
