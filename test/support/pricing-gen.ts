/** Random but well-formed price lists: distinct durations, labels that name them ("15m") or words ("express"). */
import fc from "fast-check";
import type { Pricing, PricingTier } from "../../src/platform/service/schemas.js";

const UNITS = [
  ["s", 1],
  ["m", 60],
  ["min", 60],
  ["h", 3600],
  ["d", 86_400],
] as const;

const tierArb: fc.Arbitrary<{ durationSec: number; unitPriceSun: number; word: string | undefined }> = fc.record({
  durationSec: fc.oneof(fc.constantFrom(60, 300, 900, 3600, 86_400), fc.integer({ min: 1, max: 2_000_000 })),
  unitPriceSun: fc.integer({ min: 1, max: 10_000 }),
  word: fc.option(fc.stringMatching(/^[a-z]{3,8}$/), { nil: undefined, freq: 4 }),
});

function labelFor(durationSec: number, word: string | undefined): string {
  if (word !== undefined) return word;
  const unit = [...UNITS].reverse().find(([, s]) => durationSec % s === 0)!;
  return `${durationSec / unit[1]}${unit[0]}`;
}

/** 1 to 6 tiers; durations and (case-folded) labels unique, as a price list has them. */
export const tiersArb: fc.Arbitrary<PricingTier[]> = fc
  .uniqueArray(tierArb, { minLength: 1, maxLength: 6, selector: (t) => t.durationSec })
  .map((tiers) => tiers.map(({ word, durationSec, unitPriceSun }): PricingTier => ({ durationSec, unitPriceSun, label: labelFor(durationSec, word) })))
  .filter((tiers) => new Set(tiers.map((t) => t.label.toLowerCase())).size === tiers.length);

export const pricingArb: fc.Arbitrary<Pricing> = fc
  .record({ amountMin: fc.integer({ min: 1, max: 100_000 }), span: fc.integer({ min: 0, max: 5_000_000 }), tiers: tiersArb })
  .map(({ amountMin, span, tiers }) => ({ resource: "ENERGY", baseUnitPriceSun: 60, amountMin, amountMax: amountMin + span, tiers }));

/** The production price list of the simulator and the docs. */
export const STANDARD_PRICING: Pricing = {
  resource: "ENERGY",
  baseUnitPriceSun: 60,
  amountMin: 50_000,
  amountMax: 200_000,
  tiers: [
    { durationSec: 60, label: "1m", unitPriceSun: 60 },
    { durationSec: 300, label: "5m", unitPriceSun: 60 },
    { durationSec: 900, label: "15m", unitPriceSun: 65 },
    { durationSec: 3600, label: "1h", unitPriceSun: 90 },
  ],
};

/** A tier named the ways a user may name it: its label in any case, or its seconds with or without "s". */
export function tierWordArb(tier: PricingTier): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(String(tier.durationSec)),
    fc.constant(`${tier.durationSec}s`),
    fc.array(fc.boolean(), { minLength: tier.label.length, maxLength: tier.label.length }).map((upper) =>
      Array.from(tier.label)
        .map((c, i) => (upper[i] ? c.toUpperCase() : c))
        .join(""),
    ),
  );
}
