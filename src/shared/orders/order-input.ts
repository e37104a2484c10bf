import { readEnergyAmount } from "../energy-amount.js";
import type { Pricing, PricingTier } from "../../platform/service/schemas.js";
import { parseDurationText } from "./duration-input.js";

/**
 * Reading the parts of an order typed by a person: amount and duration.
 * Shared by the guided flow, the one-shot command, deep links and batches.
 */

export type AmountCheck =
  | { ok: true; amount: number }
  /** `readings` is set when the locale makes the text ambiguous ("65,000" in ru: 65 000 or 65). */
  | { ok: false; reason: "bad_amount"; readings?: [number, number] }
  | { ok: false; reason: "amount_out_of_range"; min: number; max: number };

/** "100k", "65,000", "65 000", "10万" → integer within the pricing's accepted range; `locale` as in `readEnergyAmount`. */
export function checkAmount(text: string, pricing: Pick<Pricing, "amountMin" | "amountMax">, locale?: string): AmountCheck {
  const read = readEnergyAmount(text, locale);
  if (!read.ok && read.reason === "ambiguous") return { ok: false, reason: "bad_amount", readings: read.readings };
  const amount = read.ok ? read.value : undefined;
  if (amount === undefined || amount <= 0) return { ok: false, reason: "bad_amount" };
  if (amount < pricing.amountMin || amount > pricing.amountMax) {
    return { ok: false, reason: "amount_out_of_range", min: pricing.amountMin, max: pricing.amountMax };
  }
  return { ok: true, amount };
}

/**
 * A tier label ("1h", "express") or a duration in any of our languages
 * ("3600", "3600s", "60 мин", "1 час", "1小时"; duration-input.ts), matched
 * against the live tiers only: a new tier is accepted as soon as it is listed.
 */
export function resolveTier(text: string, tiers: readonly PricingTier[]): PricingTier | undefined {
  const t = text.trim().toLowerCase();
  if (t === "") return undefined;
  const byLabel = tiers.find((tier) => tier.label.toLowerCase() === t);
  if (byLabel) return byLabel;
  const seconds = parseDurationText(t);
  return seconds === undefined ? undefined : tiers.find((tier) => tier.durationSec === seconds);
}

/** Tiers ordered by duration, the order buttons are shown in. */
export function sortedTiers(tiers: readonly PricingTier[]): PricingTier[] {
  return [...tiers].sort((a, b) => a.durationSec - b.durationSec);
}
