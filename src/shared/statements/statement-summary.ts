/**
 * The statement's totals and the estimated saving against burning TRX.
 * Burning: without rented energy, TRON takes the energy a call needs from
 * the sender's TRX at the network's energy price (`burnPriceSun` per unit).
 * The estimate is `energy rented by the orders × burnPriceSun − what those
 * orders cost`; broadcasts are left out of it because the history knows
 * their fee but not the energy behind it.
 */
import { compareWithBurning } from "../burn-saving.js";
import type { StatementMonth } from "./statement-month.js";
import { dayOfMonth, daysIn } from "./statement-month.js";
import type { StatementRow } from "./statement-rows.js";

export interface KindTotal {
  count: number;
  sun: bigint;
}

export interface StatementSummary {
  orders: KindTotal;
  broadcasts: KindTotal;
  /** `sun` is what came back, as a positive amount. */
  refunds: KindTotal;
  /** Orders plus broadcasts minus refunds: what the month took from the balance. */
  netSun: bigint;
  orderEnergy: bigint;
  /** What burning TRX for the orders' energy would have cost. */
  burnSun: bigint;
  /** `burnSun − orders.sun`; negative when renting cost more. */
  savingSun: bigint;
}

export function summarize(rows: readonly StatementRow[], burnPriceSun: number): StatementSummary {
  const total = (kind: StatementRow["kind"]): KindTotal => {
    const of = rows.filter((r) => r.kind === kind);
    return { count: of.length, sun: of.reduce((sum, r) => sum + (r.costSun < 0n ? -r.costSun : r.costSun), 0n) };
  };
  const orders = total("order");
  const broadcasts = total("broadcast");
  const refunds = total("refund");
  const orderEnergy = rows.reduce((sum, r) => (r.kind === "order" ? sum + BigInt(r.energy ?? 0) : sum), 0n);
  const { burnSun, savingSun } = compareWithBurning(orderEnergy, orders.sun, burnPriceSun);
  return { orders, broadcasts, refunds, netSun: orders.sun + broadcasts.sun - refunds.sun, orderEnergy, burnSun, savingSun };
}

/** Net sun per day of the month in the zone's calendar: index 0 is the 1st. */
export function dailyNetSun(rows: readonly StatementRow[], month: StatementMonth, timeZone: string): bigint[] {
  const days = Array.from({ length: daysIn(month) }, () => 0n);
  for (const r of rows) {
    const i = dayOfMonth(r.atMs, timeZone) - 1;
    days[i] = (days[i] ?? 0n) + r.costSun;
  }
  return days;
}
