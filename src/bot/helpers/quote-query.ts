import { parseEnergyAmount } from "../../shared/money.js";
import { parseDurationText, trailingDurations } from "../../shared/orders/duration-input.js";
import { resolveTier } from "../../shared/orders/order-input.js";
import type { Pricing, PricingTier } from "../../platform/service/schemas.js";
import { SAMPLE_AMOUNT, sortedTiers } from "./tiers.js";

export type QuoteQuery =
  | { kind: "quote"; amount: number; tiers: PricingTier[] }
  | { kind: "out-of-range"; amount: number }
  /** The last word is a duration, but no tier has it ("100k 2h"). */
  | { kind: "unknown-tier"; duration: string }
  | { kind: "unparsed" };

/** A tier by label or by a duration in any of our languages ("1h", "3600s", "1ч", "1 час", "1小时"); bare digits are an amount. */
function findTier(text: string, tiers: PricingTier[]): PricingTier | undefined {
  return /^\d+$/.test(text.trim()) ? undefined : resolveTier(text, tiers);
}

/** "2h", "30m", "2w" -> a word that names a duration (with duration-input.ts's words: "2ч", "2小时"). */
const DURATION_WORD = /^\d+(?:[.,]\d+)?(?:s|sec|m|min|h|hr|d|day|days|w)$/i;

function namesDuration(text: string): boolean {
  return DURATION_WORD.test(text) || (!/^\d+$/.test(text.trim()) && parseDurationText(text) !== undefined);
}

/**
 * Inline query text -> what to quote: "100000", "100k 1h", "65,000 15m",
 * "10万 1小时", "65 000 1 час", "1h", "" (every tier at 100k, or the smallest
 * accepted amount above it). A last word (or two: "1 час") naming a tier picks
 * that tier; the rest is the amount, read with the user's `locale`.
 */
export function parseQuoteQuery(query: string, pricing: Pricing, locale?: string): QuoteQuery {
  const tiers = sortedTiers(pricing);
  const words = query.trim().split(/\s+/).filter(Boolean);
  let chosen: PricingTier[] = tiers;
  const last = words.at(-1);
  const isAmount = (n: number) => parseEnergyAmount(words.slice(0, -n).join(" "), locale) !== undefined;
  const tier = last === undefined ? undefined : findTier(last, tiers);
  // Several words: "1 час", "1 000 с"; the longest that names a tier wins.
  const several = tier ? undefined : trailingDurations(words).find((d) => findTier(d.text, tiers));
  const unknown = trailingDurations(words).find((d) => isAmount(d.words));
  if (tier) {
    chosen = [tier];
    words.pop();
  } else if (several) {
    chosen = [findTier(several.text, tiers)!];
    words.splice(-several.words);
  } else if (last !== undefined && words.length > 1 && namesDuration(last) && isAmount(1)) {
    return { kind: "unknown-tier", duration: last };
  } else if (unknown) {
    return { kind: "unknown-tier", duration: unknown.text };
  }
  if (words.length === 0) {
    const amount = Math.min(Math.max(SAMPLE_AMOUNT, pricing.amountMin), pricing.amountMax);
    return { kind: "quote", amount, tiers: chosen };
  }
  const amount = parseEnergyAmount(words.join(" "), locale);
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
