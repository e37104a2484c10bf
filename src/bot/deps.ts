import type { PushQueue } from "../platform/push/types.js";
import type { ReadMemo } from "../platform/store/read-memo.js";
import type { BotI18n } from "./i18n.js";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { ChatRepository } from "../shared/chats/chat-repository.js";
import type { Metrics } from "../platform/metrics.js";
import type { PricingCache } from "../platform/service/pricing-cache.js";
import type { ServiceClient } from "../platform/service/client.js";
import type { StoreBackend } from "../platform/store/types.js";
import type { BalanceWatcher } from "../features/balance/index.js";
import type { AlertSettingsStore } from "../shared/chats/alert-settings.js";
import type { Vault } from "../shared/vault.js";
import type { Flows } from "../shared/flows.js";
import type { ExpiryReminders } from "../features/expiry/index.js";
import type { KeepDaySummaries, KeepPlans } from "../features/keep/index.js";
import type { ConversationContext } from "./context.js";
import type { SendFeatureDeps } from "../features/send/index.js";

/**
 * Everything the bot needs, built by the composition root (src/app.ts) or a
 * test harness. Features receive the whole object; later features add the
 * members they need here.
 */
export interface BotDeps {
  /** Without explorerUrl the explorer is Tronscan; without dashboardUrl or supportUrl no such links are shown. */
  config: Pick<Config, "botToken" | "publicUrl" | "defaultLocale"> &
    Partial<Pick<Config, "telegramApiRoot" | "energyBurnPriceSun" | "explorerUrl" | "dashboardUrl" | "supportUrl">>;
  logger: Logger;
  metrics: Metrics;
  /** Conversations live in its "conversations" namespace. */
  store: StoreBackend;
  /** Seals conversation state; keys and secrets are sealed by `chats`. */
  vault: Pick<Vault, "seal" | "open">;
  service: ServiceClient;
  pricing: PricingCache;
  chats: ChatRepository;
  /**
   * The app's one I18n instance (`createI18n`): the bot's middleware, the
   * notifiers and the command menu all read it. Typed for the inner context;
   * the outer one extends it, so it serves both trees.
   */
  i18n: BotI18n<ConversationContext>;
  /** Orders, broadcasts, history and tracking: the use cases the flow features call. */
  flows: Flows;
  /** Keep-charged plans (/keep); without it the command is not offered. */
  keep?: KeepPlans;
  /** The opt-in daily summary of a chat's plans (its /settings switch); absent: no switch. */
  keepSummaries?: Pick<KeepDaySummaries, "isEnabled" | "setEnabled">;
  /** What the balance watch tells each chat (/alerts). */
  alerts: AlertSettingsStore;
  /** Watches the balance while a quote or a refused broadcast waits for a top-up; absent when the app wires none. */
  topUps?: BalanceWatcher;
  /** Opt-in reminders before a delegation ends (/settings switch, the card's switch); absent: no switches. */
  reminders?: ExpiryReminders;
  /** /send's intents and network; without it the command is not offered. */
  send?: SendFeatureDeps;
  /** Each update one unit of work: the records it reads more than once are read once (`read-memo.ts`). */
  memo?: Pick<ReadMemo, "run"> | undefined;
  /**
   * The outbox the notifiers queue their sends and card edits in: an answer that redraws a card they may still
   * have an edit of waiting goes through it too, so the newer edit replaces the waiting one.
   */
  push?: Pick<PushQueue, "enqueue">;
}
