import type { Logger } from "pino";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { isOutcomeUnknown, sendUntilKnown, type UntilKnownOptions } from "../../platform/service/until-known.js";
import type { Balance, Order } from "../../platform/service/schemas.js";
import type { AddressBook } from "../address-book.js";
import type { SpendGate, SpendKind, SpendRefusal } from "../limits/spend-guard.js";
import { keyTagOf, type PendingConfirmations } from "../confirmations/pending-confirmations.js";
import type { Tracker } from "../tracking/tracker.js";
import type { OrderHistory } from "./order-history.js";
import { placedBatchProgress, type BatchStore } from "./batch-progress.js";
import { isQuoteExpired, orderItemsOf, type PlacedOrder, type Quote } from "./quote.js";
import type { QuoteStore } from "./quote-store.js";

/**
 * Sends a confirmed quote exactly once. All attempts of one quote use the
 * quote's Idempotency-Key and the same body, so a double tap, a retry after a
 * top-up (402), after the receiver was activated (422), after
 * `idempotency.in_progress` or after a timeout can never charge twice. An
 * answer lost after sending is not a refusal: the same request goes again
 * until the service's answer says what happened (sendUntilKnown).
 */

export type PlaceResult =
  | { status: "placed"; quote: Quote; orders: PlacedOrder[]; replayed: boolean; alreadyPlaced: boolean }
  | { status: "not_found" }
  /** The chat's limits refuse it (frozen, or a cap it would cross): nothing was sent. */
  | { status: "over_limit"; quote: Quote; refusal: SpendRefusal }
  /** Above the chat's confirm threshold: the same quote again with `confirmedAgain` sends it. */
  | { status: "needs_second_tap"; quote: Quote }
  | { status: "cancelled"; quote: Quote }
  | { status: "expired"; quote: Quote }
  /** Asked to resolve (`resolving`) a quote whose outcome is known already: nothing was sent. */
  | { status: "settled"; quote: Quote }
  | {
      status: "failed";
      quote: Quote;
      error: ServiceError;
      /** Whether a Retry button (same key) makes sense. */
      retryable: boolean;
      /** 402 only: the balance read right after, when it could be read. */
      balance?: Balance;
      /** 402 only: the balance endpoint answered 404, the account has no wallet (nor deposit address) yet. */
      noWallet?: boolean;
    };

export interface OrderPlacerDeps {
  service: ServiceClient;
  quotes: QuoteStore;
  history: OrderHistory;
  addressBook: AddressBook;
  /** Tracking starts in the same step that records the service's acceptance. */
  tracker: Pick<Tracker, "track">;
  /** Confirmations in flight: what a crash leaves here is resolved at start-up. */
  pending: PendingConfirmations;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
  logger: Logger;
  /** How many `idempotency.in_progress` answers are waited out before giving up. Default 5. */
  maxInProgressWaits?: number;
  /** The chat's spend limits, asked before a quote's first send; without it nothing is limited. */
  spend?: SpendGate;
  /** Several orders of one quote become a batch with one card; without it each order is shown on its own. */
  batches?: Pick<BatchStore, "register">;
  /** How long a lost answer is checked by sending again before the journal takes over (tests shorten it). */
  untilKnown?: Pick<UntilKnownOptions, "delaysMs" | "sleep">;
}

export interface PlaceInput {
  chatId: number;
  quoteId: string;
  apiKey: string;
  /** The chat's language, for the notifications of the orders. */
  locale?: string;
  /**
   * The caller draws the orders' first card (a single order's card on the
   * quote message, a batch's list) and reports it to the tracker; without it
   * the tracker announces the placement itself.
   */
  drawsCard?: boolean;
  /** The message that becomes a single order's card (the button's message); defaults to the quote message. */
  cardMessageId?: number;
  /** The second tap a quote above the chat's confirm threshold needs. */
  confirmedAgain?: boolean;
  /** What the limits count it as; default "order" for one item, "batch" for more. */
  spendKind?: SpendKind;
  /** Called once when the first answer is lost (it may have been placed), before the same request goes again. */
  onUnknown?: () => Promise<void>;
  /** Only a quote whose outcome is still unknown may be sent (the journal's resolution); any other is `settled`. */
  resolving?: boolean;
  /**
   * A keep plan's slot (the plan's id): its order is recorded and tracked as the plan's renewal, whose
   * changes the plan's card shows instead of a card and notice of the order's own. The slot's quote
   * carries it too (`Quote.renewalOf`), so the journal's resolution after a crash marks it alike.
   */
  renewalOf?: string;
}

export interface OrderPlacer {
  place(input: PlaceInput): Promise<PlaceResult>;
  cancel(chatId: number, quoteId: string): Promise<Quote | undefined>;
}

export function toPlacedOrder(o: Order): PlacedOrder {
  return {
    orderId: o.orderId,
    status: o.status,
    receiver: o.receiver,
    resourceAmount: o.resourceAmount,
    durationSec: o.durationSec,
    totalCostSun: o.totalCostSun,
    createdAt: o.createdAt,
  };
}

const renewalOfPlacement = (quote: Quote, input: PlaceInput): string | undefined => input.renewalOf ?? quote.renewalOf;

const cardOf = (messageId: number | undefined) => (messageId === undefined ? {} : { cardMessageId: messageId });

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createOrderPlacer(deps: OrderPlacerDeps): OrderPlacer {
  const { service, quotes, history, addressBook, now, logger } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  const maxWaits = deps.maxInProgressWaits ?? 5;
  const mutex = createKeyedMutex();

  /** Every order of a placed quote tracked; a single order's card is the quote message. */
  async function trackPlaced(quote: Quote, orders: readonly PlacedOrder[], input: PlaceInput): Promise<void> {
    const cardMessageId = orders.length === 1 ? (input.cardMessageId ?? quote.messageId) : undefined;
    const renewalOf = renewalOfPlacement(quote, input);
    for (const o of orders) {
      await deps.tracker.track({
        chatId: quote.chatId,
        kind: "order",
        id: o.orderId,
        ...(renewalOf === undefined ? {} : { renewalOf }),
        ...(input.locale === undefined ? {} : { locale: input.locale }),
        ...(cardMessageId === undefined ? {} : { cardMessageId }),
        ...(input.drawsCard ? { pendingCard: true } : {}),
      });
    }
  }

  /**
   * The acceptance recorded in one step, before anything is shown: history,
   * tracking, the quote's state, and only then the journal entry goes.
   */
  async function markPlaced(quote: Quote, orders: Order[], input: PlaceInput): Promise<Quote> {
    const placed = orders.map(toPlacedOrder);
    const at = now();
    const renewalOf = renewalOfPlacement(quote, input);
    await history.add(
      quote.chatId,
      orders.map((o) => ({
        kind: "order" as const,
        id: o.orderId,
        ...(renewalOf === undefined ? {} : { renewalOf }),
        createdAtMs: Number.isNaN(Date.parse(o.createdAt)) ? at : Date.parse(o.createdAt),
        status: o.status,
        address: o.receiver,
        amount: o.resourceAmount,
        durationSec: o.durationSec,
        totalCostSun: o.totalCostSun,
      })),
    );
    // Registered before tracking starts: no change of one of its orders can be shown as a single order's.
    if (placed.length > 1)
      await deps.batches?.register({
        batchId: quote.quoteId,
        chatId: quote.chatId,
        orderIds: placed.map((o) => o.orderId),
        placedFulfilled: placedBatchProgress(placed).fulfilled,
        ...cardOf(input.cardMessageId ?? quote.messageId),
        ...(input.locale === undefined ? {} : { locale: input.locale }),
      });
    await trackPlaced(quote, placed, input);
    const saved = await quotes.update(quote.quoteId, (q) => ({ ...q, state: "placed", orders: placed, lastErrorCode: undefined }));
    await deps.pending.remove("order", quote.quoteId);
    for (const address of new Set(quote.items.map((i) => i.toAddress))) {
      await addressBook.remember(quote.chatId, address, at);
    }
    return saved ?? { ...quote, state: "placed", orders: placed };
  }

  async function attempt(quote: Quote, input: PlaceInput): Promise<PlaceResult> {
    const { apiKey } = input;
    const items = orderItemsOf(quote);
    let toldUnknown = false;
    const onUnknown = async (error: ServiceError): Promise<void> => {
      await quotes.update(quote.quoteId, (q) => ({ ...q, state: "unknown", lastErrorCode: error.code }));
      logger.warn({ quoteId: quote.quoteId, code: error.code, status: error.status }, "order's answer lost; checking by sending the same request again");
      if (toldUnknown) return;
      toldUnknown = true;
      await input.onUnknown?.();
    };
    for (let waits = 0; ; waits += 1) {
      try {
        const { orders, replayed } = await sendUntilKnown(() => service.createOrders(apiKey, items, quote.idempotencyKey), { ...deps.untilKnown, onUnknown });
        const saved = await markPlaced(quote, orders, input);
        logger.info({ quoteId: quote.quoteId, orderIds: orders.map((o) => o.orderId), replayed }, "quote placed");
        return { status: "placed", quote: saved, orders: saved.orders ?? [], replayed, alreadyPlaced: false };
      } catch (error) {
        if (!ServiceError.isInstance(error)) throw error;
        if (error.code === "idempotency.in_progress" && waits < maxWaits) {
          await sleep(Math.max(1, error.retryAfterSec ?? 2) * 1000);
          continue;
        }
        return refused(quote, apiKey, error);
      }
    }
  }

  async function refused(quote: Quote, apiKey: string, error: ServiceError): Promise<PlaceResult> {
    // A 4xx is a definite "not applied"; anything else may have been applied.
    const definite = !isOutcomeUnknown(error) && error.status >= 400 && error.status < 500 && error.code !== "idempotency.in_progress";
    const state = definite ? "open" : "unknown";
    const saved = (await quotes.update(quote.quoteId, (q) => ({ ...q, state, lastErrorCode: error.code }))) ?? quote;
    // Certainly nothing charged: nothing left to resolve. An unknown outcome stays in the journal.
    if (definite) await deps.pending.remove("order", quote.quoteId);
    logger.warn({ quoteId: quote.quoteId, code: error.code, status: error.status, requestId: error.requestId, state }, "quote not placed");
    // A definite refusal is worth a Retry (same key) only when its cause may pass.
    const retryable = !definite || error.isRetryable;
    if (error.code !== "wallet.insufficient_balance") return { status: "failed", quote: saved, error, retryable };
    try {
      const balance = await service.getBalance(apiKey);
      return { status: "failed", quote: saved, error, retryable, balance };
    } catch (balanceError) {
      if (ServiceError.isInstance(balanceError) && balanceError.isNotFound) return { status: "failed", quote: saved, error, retryable, noWallet: true };
      logger.debug({ err: balanceError }, "balance unavailable after 402");
      return { status: "failed", quote: saved, error, retryable };
    }
  }

  async function send(quote: Quote, input: PlaceInput): Promise<PlaceResult> {
    // Journaled and persisted before sending: a crash mid-request leaves "placing", resolved at start-up.
    await deps.pending.add({
      kind: "order",
      keyTag: keyTagOf(input.apiKey),
      id: quote.quoteId,
      chatId: quote.chatId,
      sinceMs: now(),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    });
    const sending = (await quotes.update(quote.quoteId, (q) => ({ ...q, state: "placing", attempts: q.attempts + 1 }))) ?? quote;
    return attempt(sending, input);
  }

  return {
    place(input) {
      const { chatId, quoteId } = input;
      return mutex.run(quoteId, async () => {
        const quote = await quotes.get(quoteId);
        if (!quote || quote.chatId !== chatId) return { status: "not_found" };
        if (quote.state === "placed") {
          const orders = quote.orders ?? [];
          // Charged means tracked, whichever tap or restart gets here: tracking an item twice is one item.
          // Nothing new to draw: the tracker shows what it has not announced yet.
          await trackPlaced(quote, orders, { ...input, drawsCard: false });
          await deps.pending.remove("order", quoteId);
          return { status: "placed", quote, orders, replayed: true, alreadyPlaced: true };
        }
        if (quote.state === "cancelled") return { status: "cancelled", quote };
        // A Confirm still checking may have settled it while this waited for the quote's turn.
        if (input.resolving && quote.state !== "placing" && quote.state !== "unknown") return { status: "settled", quote };
        if (isQuoteExpired(quote, now())) return { status: "expired", quote };
        const { spend } = deps;
        // A quote that may already have charged (placing, unknown) was allowed when first sent: only its key may follow.
        if (!spend || quote.state !== "open") return send(quote, input);
        // The check and the charge it allows in one step per chat: two confirmations cannot both fit under a cap.
        return spend.exclusive(chatId, async () => {
          const kind = input.spendKind ?? (quote.items.length > 1 ? "batch" : "order");
          const decision = await spend.authorize(chatId, BigInt(quote.totalSun), kind);
          if (!decision.allowed) return { status: "over_limit", quote, refusal: decision };
          if (decision.needsSecondTap && !input.confirmedAgain) return { status: "needs_second_tap", quote };
          return send(quote, input);
        });
      });
    },
    cancel(chatId, quoteId) {
      return mutex.run(quoteId, async () => {
        const quote = await quotes.get(quoteId);
        if (!quote || quote.chatId !== chatId) return undefined;
        // Only a quote that certainly charged nothing can be cancelled.
        if (quote.state !== "open") return quote;
        return quotes.update(quoteId, (q) => ({ ...q, state: "cancelled" }));
      });
    },
  };
}
