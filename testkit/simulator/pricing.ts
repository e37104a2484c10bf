import type { PricingPatch, PricingTierInput } from "./types.js";

/** Durations the validation message names, whatever tiers are added later (section 9 rule 3). */
export const DOCUMENTED_DURATIONS = [60, 300, 900, 3600] as const;

export interface PricingRecord {
  resource: "ENERGY";
  baseUnitPriceSun: number;
  amountMin: number;
  amountMax: number;
  tiers: PricingTierInput[];
}

/**
 * 60 s and 300 s at base; 900 s "slightly above" (+10 %, rounded up);
 * 3600 s the highest (+50 %, rounded up).
 */
export function derivedTiers(base: number): PricingTierInput[] {
  return [
    { durationSec: 60, label: "1m", unitPriceSun: base },
    { durationSec: 300, label: "5m", unitPriceSun: base },
    { durationSec: 900, label: "15m", unitPriceSun: base + Math.ceil(base / 10) },
    { durationSec: 3600, label: "1h", unitPriceSun: base + Math.ceil(base / 2) },
  ];
}

/** Live prices; `setPricing`/`addTier` move them like the market would. */
export class PricingState {
  private base: number;
  private min: number;
  private max: number;
  private explicitTiers: PricingTierInput[] | undefined;
  private extraTiers: PricingTierInput[] = [];

  constructor(o: { baseUnitPriceSun: number; amountMin: number; amountMax: number }) {
    this.base = o.baseUnitPriceSun;
    this.min = o.amountMin;
    this.max = o.amountMax;
  }

  patch(p: PricingPatch): void {
    if (p.baseUnitPriceSun !== undefined) this.base = p.baseUnitPriceSun;
    if (p.amountMin !== undefined) this.min = p.amountMin;
    if (p.amountMax !== undefined) this.max = p.amountMax;
    if (p.tiers !== undefined) {
      this.explicitTiers = p.tiers.map((t) => ({ ...t }));
      this.extraTiers = [];
    }
  }

  addTier(tier: PricingTierInput): void {
    this.extraTiers = this.extraTiers.filter((t) => t.durationSec !== tier.durationSec);
    this.extraTiers.push({ ...tier });
  }

  get baseUnitPriceSun(): number {
    return this.base;
  }

  tiers(): PricingTierInput[] {
    const main = this.explicitTiers ?? derivedTiers(this.base);
    const extra = this.extraTiers.filter((e) => !main.some((t) => t.durationSec === e.durationSec));
    return [...main, ...extra].map((t) => ({ ...t })).sort((a, b) => a.durationSec - b.durationSec);
  }

  tier(durationSec: number): PricingTierInput | undefined {
    return this.tiers().find((t) => t.durationSec === durationSec);
  }

  record(): PricingRecord {
    return { resource: "ENERGY", baseUnitPriceSun: this.base, amountMin: this.min, amountMax: this.max, tiers: this.tiers() };
  }
}

/** Identical for every caller; nothing account-specific. */
export function systemSnapshot(nowMs: number, reservedUnits: number): Record<string, unknown> {
  const available = 48_000_000;
  const matchable = Math.max(0, available - reservedUnits);
  return {
    provider: {
      registration: {
        grantActivePermissionTo: "TD4wKEc8zARkcZaXaHFkQXDh4A93n1QZBY",
        requiredContractPermissions: ["DelegateResourceContract", "UnDelegateResourceContract"],
        registerPath: "/v1/providers/register",
        auth: "dashboard_session",
        defaultPaymentFrequencyHours: 24,
        paymentFrequencyHoursRange: { min: 1, max: 720 },
        defaultEnergyConfig: {
          minPrice: 60,
          profitShareBps: 8_000,
          minDelegateAmount: 32_000,
          maintainBuffer: 0,
          minDurationSec: 60,
          maxDurationSec: 3_600,
        },
        instructions:
          "Grant active permission for DelegateResourceContract and UnDelegateResourceContract to the address above, then register in the dashboard.",
      },
    },
    internalPools: {
      poolCount: 12,
      activeCount: 10,
      inactiveCount: 2,
      totalAvailableUnits: String(available),
      totalReservedUnits: String(reservedUnits),
      totalMatchableUnits: String(matchable),
      resource: "ENERGY",
      unit: "energy",
    },
    updatedAt: new Date(nowMs).toISOString(),
  };
}
