import type { I18nFlavor } from "../i18n.js";
import { mulSun } from "../../shared/money.js";
import type { Pricing, PricingTier } from "../../platform/service/schemas.js";
import { formatDuration } from "./duration.js";
import { formatInteger, formatTrx } from "./format.js";
import { translate } from "./html.js";

/** The amount the price table quotes ("price of 100k energy"). */
export const SAMPLE_AMOUNT = 100_000;

/** Tiers by duration, whatever order (and however many) the service sends. */
export function sortedTiers(pricing: Pricing): PricingTier[] {
  return [...pricing.tiers].sort((a, b) => a.durationSec - b.durationSec);
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hr: 3600, d: 86_400 };

/** "15m" -> 900, "1h" -> 3600; undefined for a label that is not a plain duration ("express"). */
export function labelSeconds(label: string): number | undefined {
  const m = /^(\d{1,6})\s*([a-z]{1,3})$/i.exec(label.trim());
  const unit = m ? UNIT_SECONDS[m[2]!.toLowerCase()] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : undefined;
}

/** The unit a duration is said in: the largest of h, m, s that divides it (as `formatDuration`). */
function durationUnit(seconds: number): { unit: "h" | "m" | "s"; count: number } {
  if (seconds >= 3600 && seconds % 3600 === 0) return { unit: "h", count: seconds / 3600 };
  if (seconds >= 60 && seconds % 60 === 0) return { unit: "m", count: seconds / 60 };
  return { unit: "s", count: seconds };
}

/**
 * A tier's short label in the reader's language, for buttons and lists of
 * what can be typed: "1 ч", "15 мин" (ru), "1小时", "15分钟" (zh), "1h", "15m"
 * (en, as the service writes them). In ru and zh it is the same text `/prices`
 * names the tier with. A label that is a word ("express") is the service's
 * name for the tier and is kept as it is.
 */
export function tierLabel(ctx: Pick<I18nFlavor, "t">, tier: Pick<PricingTier, "label" | "durationSec">): string {
  return labelSeconds(tier.label) === tier.durationSec ? ctx.t("input-tier-label", durationUnit(tier.durationSec)) : tier.label;
}

/**
 * How a tier is named to people: the localized duration ("1 min", "1 h")
 * when the label only abbreviates it, otherwise the label with the duration
 * ("express (2 h)"), so nothing is said twice and nothing is lost.
 */
export function tierName(ctx: Pick<I18nFlavor, "t">, tier: Pick<PricingTier, "label" | "durationSec">): string {
  const duration = formatDuration(ctx, tier.durationSec);
  return labelSeconds(tier.label) === tier.durationSec ? duration : `${tier.label} (${duration})`;
}

/** The /prices table: one line per tier, the accepted range, the base price. */
export function pricesText(ctx: Pick<I18nFlavor, "t">, pricing: Pricing, locale: string): string {
  const lines = sortedTiers(pricing).map((tier) =>
    translate(ctx, "prices-tier", {
      tier: tierName(ctx, tier),
      unitPriceSun: formatInteger(tier.unitPriceSun, locale),
      sampleAmount: formatInteger(SAMPLE_AMOUNT, locale),
      sampleTrx: formatTrx(mulSun(SAMPLE_AMOUNT, tier.unitPriceSun), locale),
    }),
  );
  return [
    translate(ctx, "prices-title"),
    lines.join("\n"),
    translate(ctx, "prices-range", { amountMin: formatInteger(pricing.amountMin, locale), amountMax: formatInteger(pricing.amountMax, locale) }),
    translate(ctx, "prices-footer", { baseUnitPriceSun: formatInteger(pricing.baseUnitPriceSun, locale) }),
  ].join("\n\n");
}
