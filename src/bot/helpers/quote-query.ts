import { parseEnergyAmount } from "../../core/money.js";
import type { Pricing, PricingTier } from "../../core/service/schemas.js";
import { SAMPLE_AMOUNT, sortedTiers } from "./tiers.js";

export type QuoteQuery =
  | { kind: "quote"; amount: number; tiers: PricingTier[] }
  | { kind: "out-of-range"; amount: number }
  /** The last word is a duration, but no tier has it ("100k 2h"). */
  | { kind: "unknown-tier"; duration: string }
  | { kind: "unparsed" };

function findTier(token: string, tiers: PricingTier[]): PricingTier | undefined {
  const t = token.toLowerCase();
  return tiers.find((tier) => tier.label.toLowerCase() === t || `${tier.durationSec}s` === t);
}

/** "2h", "30m", "45 min" -> a word that names a duration. */
const DURATION_WORD = /^\d+(?:[.,]\d+)?(?:s|sec|m|min|h|hr|d|day|days|w)$/i;

/**
 * Inline query text -> what to quote: "100000", "100k 1h", "65,000 15m",
 * "1h", "" (every tier at 100k, or the smallest accepted amount above it).
 * A last word naming a tier label picks that tier; the rest is the amount.
 */
export function parseQuoteQuery(query: string, pricing: Pricing): QuoteQuery {
  const tiers = sortedTiers(pricing);
  const words = query.trim().split(/\s+/).filter(Boolean);
  let chosen: PricingTier[] = tiers;
  const last = words.at(-1);
  const tier = last === undefined ? undefined : findTier(last, tiers);
  if (tier) {
    chosen = [tier];
    words.pop();
  } else if (last !== undefined && words.length > 1 && DURATION_WORD.test(last) && parseEnergyAmount(words.slice(0, -1).join(" ")) !== undefined) {
    return { kind: "unknown-tier", duration: last };
  }
  if (words.length === 0) {
    const amount = Math.min(Math.max(SAMPLE_AMOUNT, pricing.amountMin), pricing.amountMax);
    return { kind: "quote", amount, tiers: chosen };
  }
  const amount = parseEnergyAmount(words.join(" "));
  if (amount === undefined) return { kind: "unparsed" };
  if (amount < pricing.amountMin || amount > pricing.amountMax) return { kind: "out-of-range", amount };
  return { kind: "quote", amount, tiers: chosen };
}

/**
 * The /start payload of `orderDeepLink`, read back. Any safe amount and any
 * duration up to 9 digits: the order flow checks both against the live price
 * list, like typed ones. Undefined for any other payload (which /start greets).
 */
export function parseOrderDeepLink(payload: string): { amount: number; durationSec: number } | undefined {
  const m = /^order_(\d{1,15})_(\d{1,9})$/.exec(payload);
  return m ? { amount: Number(m[1]), durationSec: Number(m[2]) } : undefined;
}

/** The deep link that opens the order flow on this quote (issue 4: `start=order_<amount>_<durationSec>`). */
export function orderDeepLink(botUsername: string, amount: number, durationSec: number): string {
  return `https://t.me/${botUsername}?start=order_${amount}_${durationSec}`;
}
