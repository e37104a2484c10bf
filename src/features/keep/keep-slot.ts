import type { QuoteStore } from "../../shared/orders/quote-store.js";
import type { OrderPlacer, PlaceResult } from "../../shared/orders/place-order.js";
import { buildQuote, type Quote } from "../../shared/orders/quote.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { slotKey, slotQuoteId, type KeepPlan } from "./keep-plan.js";

/**
 * One slot of a plan bought through the ordinary placement path: a quote
 * whose id and Idempotency-Key come from the plan and the slot number, placed
 * by the order placer (history, tracking and the journal of confirmations in
 * flight work as for any order; its status changes are drawn on the plan's
 * card instead of a card and notice of their own).
 */

export interface SlotDeps {
  quotes: Pick<QuoteStore, "get" | "save">;
  placer: Pick<OrderPlacer, "place">;
  now: () => number;
}

/** A slot quote that may be (re)built: never sent, or sent and certainly not charged. */
function isRebuildable(quote: Quote | undefined, nowMs: number): boolean {
  if (quote === undefined || quote.state === "cancelled") return true;
  return quote.state === "open" && nowMs >= quote.expiresAtMs;
}

/**
 * The slot's quote as it stands, or a fresh one under the slot's fixed key.
 * Re-pricing under the same key is safe only while nothing was charged under
 * it: a 402 or a receiver 422 does not consume the key (API section 4, rule 5);
 * a quote whose attempt may have applied is never rebuilt, only resent as is.
 */
export async function slotQuote(deps: SlotDeps, plan: KeepPlan, pricing: Pricing): Promise<Quote | { error: "unknown_duration" }> {
  const quoteId = slotQuoteId(plan.planId, plan.nextSlot);
  const existing = await deps.quotes.get(quoteId);
  const nowMs = deps.now();
  if (existing !== undefined && !isRebuildable(existing, nowMs)) return existing;
  const built = buildQuote(plan.chatId, [{ toAddress: plan.address, amount: plan.amount, durationSec: plan.durationSec }], pricing, nowMs);
  if (!built.ok) return { error: "unknown_duration" };
  const quote: Quote = {
    ...built.quote,
    quoteId,
    idempotencyKey: slotKey(plan.planId, plan.nextSlot),
    renewalOf: plan.planId,
    ...(plan.linkId === undefined ? {} : { linkId: plan.linkId }),
  };
  await deps.quotes.save(quote);
  return quote;
}

/** Whether this slot's quote may already have charged (then no cap or guard may hold it back: only its own key may follow). */
export function isCommitted(quote: Quote): boolean {
  return quote.state === "placing" || quote.state === "unknown" || quote.state === "placed";
}

export function placeSlot(deps: SlotDeps, plan: KeepPlan, quote: Quote, apiKey: string): Promise<PlaceResult> {
  // "renewal": the limits check it under the chat's lock like any charge, and never ask for a second tap.
  return deps.placer.place({
    chatId: plan.chatId,
    quoteId: quote.quoteId,
    apiKey,
    spendKind: "renewal",
    // Its changes are the plan card's digest, not a card or notice of their own.
    renewalOf: plan.planId,
    ...(plan.locale === undefined ? {} : { locale: plan.locale }),
  });
}
