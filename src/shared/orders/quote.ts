import { randomBytes } from "node:crypto";
import { z } from "zod";
import { mulSun } from "../money.js";
import type { OrderItemInput, Pricing } from "../../platform/service/schemas.js";

/**
 * A quote is the unit of exactly-once charging: its Idempotency-Key is made
 * together with it, stored with it, and every retry of this quote sends the
 * same key with the same body. A fresh quote always gets a fresh key.
 */

/** Prices move; after this a quote that was never sent is offered afresh. */
export const QUOTE_LIFETIME_MS = 10 * 60_000;
/**
 * Kept past the service's 24 h replay window so an attempt with an unknown
 * outcome can still be resolved by replaying its key.
 */
export const QUOTE_RETENTION_MS = 25 * 60 * 60_000;

export const quoteItemSchema = z.object({
  toAddress: z.string(),
  amount: z.number().int().positive(),
  durationSec: z.number().int().positive(),
  unitPriceSun: z.number().int().nonnegative(),
  /** amount × unitPriceSun, exact decimal string. */
  costSun: z.string().regex(/^\d+$/),
});
export type QuoteItem = z.infer<typeof quoteItemSchema>;

/**
 * open: never sent, or sent and refused with a definite "nothing charged";
 * unknown: an attempt may have been applied; only the same key may follow;
 * placed: orders exist; cancelled: the user said no.
 */
export const QUOTE_STATES = ["open", "placing", "unknown", "placed", "cancelled"] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

export const placedOrderSchema = z.object({
  orderId: z.string(),
  status: z.string(),
  receiver: z.string(),
  resourceAmount: z.number().int(),
  durationSec: z.number().int(),
  totalCostSun: z.number().int(),
  createdAt: z.string(),
});
export type PlacedOrder = z.infer<typeof placedOrderSchema>;

export const quoteSchema = z.object({
  quoteId: z.string(),
  chatId: z.number().int(),
  items: z.array(quoteItemSchema).min(1),
  totalSun: z.string().regex(/^\d+$/),
  idempotencyKey: z.string().max(128),
  createdAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
  state: z.enum(QUOTE_STATES),
  attempts: z.number().int().nonnegative(),
  /** Code of the last refusal, for logs and the retry text. */
  lastErrorCode: z.string().optional(),
  orders: z.array(placedOrderSchema).optional(),
  /** Message id of the quote message, so a fresh quote can replace it. */
  messageId: z.number().int().optional(),
  /** The chat's link when quoted (`ChatRecord.linkId`): a later link, of any account, never confirms it. */
  linkId: z.string().optional(),
  /** A keep plan's slot: the plan's id, so whoever places it (the plan, or the journal after a crash) marks its order a renewal. */
  renewalOf: z.string().optional(),
});
export type Quote = z.infer<typeof quoteSchema>;

export interface QuoteRequestItem {
  toAddress: string;
  amount: number;
  durationSec: number;
}

export type QuoteBuild = { ok: true; quote: Quote } | { ok: false; reason: "unknown_duration"; durationSec: number } | { ok: false; reason: "empty" };

function randomId(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Prices each item at its tier's current unit price. */
export function buildQuote(chatId: number, items: readonly QuoteRequestItem[], pricing: Pricing, nowMs: number): QuoteBuild {
  if (items.length === 0) return { ok: false, reason: "empty" };
  const priced: QuoteItem[] = [];
  let total = 0n;
  for (const item of items) {
    const tier = pricing.tiers.find((t) => t.durationSec === item.durationSec);
    if (!tier) return { ok: false, reason: "unknown_duration", durationSec: item.durationSec };
    const cost = mulSun(item.amount, tier.unitPriceSun);
    total += cost;
    priced.push({ ...item, unitPriceSun: tier.unitPriceSun, costSun: cost.toString() });
  }
  const quoteId = randomId(8);
  return {
    ok: true,
    quote: {
      quoteId,
      chatId,
      items: priced,
      totalSun: total.toString(),
      // Random, not derived from the body: two identical orders on purpose are two orders.
      idempotencyKey: `tg-${chatId}-${quoteId}-${randomId(8)}`,
      createdAtMs: nowMs,
      expiresAtMs: nowMs + QUOTE_LIFETIME_MS,
      state: "open",
      attempts: 0,
    },
  };
}

/** The exact POST body items; identical on every retry of the quote. */
export function orderItemsOf(quote: Quote): OrderItemInput[] {
  return quote.items.map((i) => ({ toAddress: i.toAddress, amount: i.amount, resource: "ENERGY", durationSec: i.durationSec }));
}

/** True when the quote may no longer be sent under its own key as a new purchase. */
export function isQuoteExpired(quote: Quote, nowMs: number): boolean {
  // An attempt that may have been applied is resolved with its key, never abandoned.
  if (quote.state === "unknown" || quote.state === "placing") return false;
  return nowMs >= quote.expiresAtMs;
}
