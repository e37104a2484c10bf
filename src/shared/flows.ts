import type { UntilKnownOptions } from "../platform/service/until-known.js";
import type { Logger } from "pino";
import { createBatchStore } from "./orders/batch-progress.js";
import { createAddressBook, type AddressBook } from "./address-book.js";
import { createPendingConfirmations, type PendingConfirmations } from "./confirmations/pending-confirmations.js";
import { createDraftStore, type DraftStore } from "./broadcasts/draft.js";
import { createBroadcastSubmitter, type BroadcastSubmitter } from "./broadcasts/submit-broadcast.js";
import { createBroadcastResender, type BroadcastResender } from "./broadcasts/resend-broadcast.js";
import { createOrderHistory, type OrderHistory } from "./orders/order-history.js";
import { createOrderPlacer, type OrderPlacer } from "./orders/place-order.js";
import { createQuoteStore, type QuoteStore } from "./orders/quote-store.js";
import { createLimitSettingsStore, type LimitSettingsStore } from "./limits/limit-settings.js";
import { createSpendLimits, type SpendLimits, type SpendLimitsDeps } from "./limits/spend-guard.js";
import type { ServiceClient } from "../platform/service/client.js";
import type { StoreBackend } from "../platform/store/types.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * The use cases of orders, broadcasts, history and tracking: stores, the
 * placer and the submitter. Built once by the composition root (or a test
 * harness) with `createFlows`; the bot's features call them.
 */
export interface Flows {
  quotes: QuoteStore;
  placer: OrderPlacer;
  history: OrderHistory;
  addressBook: AddressBook;
  drafts: DraftStore;
  submitter: BroadcastSubmitter;
  /** Resend of a failed broadcast's signed transaction (docs/expiry.md). */
  resender: BroadcastResender;
  /** Confirmations whose outcome is not recorded yet; resolved at start-up. */
  pending: PendingConfirmations;
  tracker: FlowTracker;
  now: () => number;
  /** Base58 stablecoin contract; mainnet USDT by default. */
  usdtContract?: string;
  /** The chat's spend limits (/limits): the placer and the submitter ask them before money moves. */
  limits: SpendLimits;
}

export type FlowTracker = Pick<Tracker, "track" | "cardShown" | "cardNotShown" | "stopChat">;

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
  /** The process's address book and spend-limit settings (`Storage`); without them, the flows' own. */
  addressBook?: AddressBook;
  limitSettings?: LimitSettingsStore;
  /** What Freeze also does (stop the chat's keep plans) and the zone of chats that set none. */
  limits?: Pick<SpendLimitsDeps, "onFreeze" | "defaultTimeZone" | "accountOf">;
  /** How long a lost answer of a Confirm is checked by sending again before the journal takes over (tests shorten it). */
  untilKnown?: Pick<UntilKnownOptions, "delaysMs" | "sleep">;
}

export function createFlows(deps: CreateFlowsDeps): Flows {
  const now = deps.now ?? Date.now;
  const logger = deps.logger.child({ component: "flows" });
  const quotes = createQuoteStore({ store: deps.store, logger });
  const history = deps.history ?? createOrderHistory({ store: deps.store, logger });
  const addressBook = deps.addressBook ?? createAddressBook({ store: deps.store, logger });
  const drafts = createDraftStore({ store: deps.store, logger, now });
  const pending = createPendingConfirmations({ store: deps.store, logger });
  const { tracker } = deps;
  const accountOf = deps.limits?.accountOf;
  const settings = deps.limitSettings ?? createLimitSettingsStore({ store: deps.store, logger, ...(accountOf ? { accountOf } : {}) });
  const limits = createSpendLimits({ settings, history, logger, now, ...deps.limits });
  return {
    quotes,
    history,
    addressBook,
    drafts,
    pending,
    placer: createOrderPlacer({
      service: deps.service,
      quotes,
      history,
      addressBook,
      tracker,
      pending,
      now,
      logger,
      spend: limits,
      batches: createBatchStore({ store: deps.store, logger }),
      ...(deps.untilKnown === undefined ? {} : { untilKnown: deps.untilKnown }),
    }),
    submitter: createBroadcastSubmitter({
      service: deps.service,
      drafts,
      history,
      tracker,
      pending,
      now,
      logger,
      spend: limits,
      ...(deps.untilKnown === undefined ? {} : { untilKnown: deps.untilKnown }),
    }),
    resender: createBroadcastResender({ service: deps.service, drafts, history, tracker, pending, now, logger, spend: limits }),
    limits,
    tracker,
    now,
    ...(deps.usdtContract === undefined ? {} : { usdtContract: deps.usdtContract }),
  };
}
