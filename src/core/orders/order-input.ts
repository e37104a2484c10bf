import { parseEnergyAmount } from "../money.js";
import type { Pricing, PricingTier } from "../service/schemas.js";

/**
 * Reading the parts of an order typed by a person: amount and duration.
 * Shared by the guided flow, the one-shot command, deep links and batches.
 */

export type AmountCheck =
  | { ok: true; amount: number }
  | { ok: false; reason: "bad_amount" }
  | { ok: false; reason: "amount_out_of_range"; min: number; max: number };

/** "100k", "65,000", "65 000" → integer within the pricing's accepted range. */
export function checkAmount(text: string, pricing: Pick<Pricing, "amountMin" | "amountMax">): AmountCheck {
  const amount = parseEnergyAmount(text);
  if (amount === undefined || amount <= 0) return { ok: false, reason: "bad_amount" };
  if (amount < pricing.amountMin || amount > pricing.amountMax) {
    return { ok: false, reason: "amount_out_of_range", min: pricing.amountMin, max: pricing.amountMax };
  }
  return { ok: true, amount };
}

/**
 * A duration as seconds ("3600", "3600s") or a tier label ("1h"), matched
 * against the live tiers only: a new tier is accepted as soon as it is listed.
 */
export function resolveTier(text: string, tiers: readonly PricingTier[]): PricingTier | undefined {
  const t = text.trim().toLowerCase();
  if (t === "") return undefined;
  const seconds = /^(\d+)\s*s?$/.exec(t);
  if (seconds) return tiers.find((tier) => tier.durationSec === Number(seconds[1]));
  return tiers.find((tier) => tier.label.toLowerCase() === t);
}

/** Tiers ordered by duration, the order buttons are shown in. */
export function sortedTiers(tiers: readonly PricingTier[]): PricingTier[] {
  return [...tiers].sort((a, b) => a.durationSec - b.durationSec);
}
