/**
 * Renting against burning, one formula for every place that claims a saving
 * (the quote, /start, /statement): without rented energy TRON takes the energy
 * a call needs from the sender's TRX at `burnPriceSun` per unit
 * (ENERGY_BURN_PRICE_SUN), so the same energy burnt costs `energy × burnPriceSun`.
 */

/** Mainnet's energy price at the time of writing: 100 sun per unit (docs/statements.md). */
export const DEFAULT_ENERGY_BURN_PRICE_SUN = 100;

export interface BurnComparison {
  /** What burning TRX for the same energy would cost. */
  burnSun: bigint;
  /** `burnSun − costSun`: negative when renting costs more. */
  savingSun: bigint;
}

export function compareWithBurning(energy: bigint | number, costSun: bigint, burnPriceSun: number): BurnComparison {
  const burnSun = BigInt(energy) * BigInt(burnPriceSun);
  return { burnSun, savingSun: burnSun - costSun };
}

/**
 * A unit price against the burn price in whole percent of the burn price: positive when renting
 * is cheaper ("60 % less"), negative when it costs more. Rounded toward zero, so it never overstates.
 */
export function percentAgainstBurning(unitPriceSun: number, burnPriceSun: number): number {
  return Math.trunc(((burnPriceSun - unitPriceSun) * 100) / burnPriceSun);
}
