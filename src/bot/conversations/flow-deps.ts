import type { Logger } from "pino";
import { createAddressBook, type AddressBook } from "../../core/address-book.js";
import { createPendingConfirmations, type PendingConfirmations } from "../../core/confirmations/pending-confirmations.js";
import { createDraftStore, type DraftStore } from "../../core/broadcasts/draft.js";
import { createBroadcastSubmitter, type BroadcastSubmitter } from "../../core/broadcasts/submit-broadcast.js";
import { createOrderHistory, type OrderHistory } from "../../core/orders/order-history.js";
import { createOrderPlacer, type OrderPlacer } from "../../core/orders/place-order.js";
import { createQuoteStore, type QuoteStore } from "../../core/orders/quote-store.js";
import { isQuoteExpired } from "../../core/orders/quote.js";
import { createBalanceWatcher, type BalanceWatcher, type BalanceWatcherDeps } from "../../core/topup/balance-watcher.js";
import type { ServiceClient } from "../../core/service/client.js";
import type { StoreBackend } from "../../core/store/types.js";
import type { Tracker } from "../../core/tracking/tracker.js";
import type { BotDeps } from "../deps.js";

/**
 * What the order, broadcast, history and tracking features need beyond the
 * bot core's deps. Built once by the composition root with `createFlows`.
 */
export interface Flows {
  quotes: QuoteStore;
  placer: OrderPlacer;
  history: OrderHistory;
  addressBook: AddressBook;
  drafts: DraftStore;
  submitter: BroadcastSubmitter;
  /** Confirmations whose outcome is not recorded yet; resolved at start-up. */
  pending: PendingConfirmations;
  tracker: FlowTracker;
  /** Watches the balance while a quote or a 402 waits for a top-up; absent when the caller wires no announcer. */
  balanceWatch?: BalanceWatcher;
  now: () => number;
  /** Base58 stablecoin contract; mainnet USDT by default. */
  usdtContract?: string;
}

export type FlowTracker = Pick<Tracker, "track" | "cardShown" | "cardNotShown" | "stopChat">;

export type FlowDeps = BotDeps & { flows: Flows };

export interface CreateFlowsDeps {
  store: StoreBackend;
  service: ServiceClient;
  logger: Logger;
  /** The tracker is built by the caller (it needs the notifier, which needs the push queue). */
  tracker: FlowTracker;
  /** Reused when the caller already built it for the tracker. */
  history?: OrderHistory;
  now?: () => number;
  usdtContract?: string;
  /** Builds `balanceWatch`: who reads the chat's key, who announces a credited top-up, and (tests) faster backoff. */
  topUps?: Pick<BalanceWatcherDeps, "getApiKey" | "onCredited" | "firstDelayMs" | "maxDelayMs" | "maxWatchMs">;
}

export function createFlows(deps: CreateFlowsDeps): Flows {
  const now = deps.now ?? Date.now;
  const logger = deps.logger.child({ component: "flows" });
  const quotes = createQuoteStore({ store: deps.store, logger });
  const history = deps.history ?? createOrderHistory({ store: deps.store, logger });
  const addressBook = createAddressBook({ store: deps.store, logger });
  const drafts = createDraftStore({ store: deps.store, logger });
  const pending = createPendingConfirmations({ store: deps.store, logger });
  const { tracker } = deps;
  // A watch ends by itself once its quote or draft can no longer be sent under its key.
  const isWanted: BalanceWatcherDeps["isWanted"] = async (watch) => {
    if (watch.kind === "order") {
      const quote = await quotes.get(watch.refId);
      return quote !== undefined && quote.state === "open" && !isQuoteExpired(quote, now());
    }
    const draft = await drafts.get(watch.refId);
    return draft !== undefined && draft.state === "open" && draft.summary.expirationMs > now();
  };
  const balanceWatch = deps.topUps ? createBalanceWatcher({ ...deps.topUps, store: deps.store, service: deps.service, isWanted, logger, now }) : undefined;
  return {
    ...(balanceWatch ? { balanceWatch } : {}),
    quotes,
    history,
    addressBook,
    drafts,
    pending,
    placer: createOrderPlacer({ service: deps.service, quotes, history, addressBook, tracker, pending, now, logger }),
    submitter: createBroadcastSubmitter({ service: deps.service, drafts, history, tracker, pending, now, logger }),
    tracker,
    now,
    ...(deps.usdtContract === undefined ? {} : { usdtContract: deps.usdtContract }),
  };
}
