import type { I18nFlavor } from "@grammyjs/i18n";
import { mulSun } from "../../core/money.js";
import type { Pricing, PricingTier } from "../../core/service/schemas.js";
import { formatDuration } from "./duration.js";
import { formatInteger, formatTrx } from "./format.js";
import { translate } from "./html.js";

/** The amount the price table quotes ("price of 100k energy"). */
export const SAMPLE_AMOUNT = 100_000;

/** Tiers by duration, whatever order (and however many) the service sends. */
export function sortedTiers(pricing: Pricing): PricingTier[] {
  return [...pricing.tiers].sort((a, b) => a.durationSec - b.durationSec);
}

/** The /prices table: one line per tier, the accepted range, the base price. */
export function pricesText(ctx: Pick<I18nFlavor, "t">, pricing: Pricing, locale: string): string {
  const lines = sortedTiers(pricing).map((tier) =>
    translate(ctx, "prices-tier", {
      label: tier.label,
      duration: formatDuration(ctx, tier.durationSec),
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
