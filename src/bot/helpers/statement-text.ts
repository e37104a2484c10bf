import type { StatementSummary } from "../../shared/statements/statement-summary.js";
import { formatInteger, formatTrx } from "./format.js";
import { translate, type TextVars } from "./html.js";
import type { Translator } from "./record-text.js";

/** The summary message: totals per kind, refunds, net spend, and the saving estimate with how it is computed. */
export function statementSummaryText(tr: Translator, s: StatementSummary, vars: { month: string; zone: string; burnPriceSun: number; locale: string }): string {
  const trx = (sun: bigint) => formatTrx(sun, vars.locale);
  const totals = translate(tr, "statement-summary", {
    month: vars.month,
    zone: vars.zone,
    orders: s.orders.count,
    ordersTrx: trx(s.orders.sun),
    broadcasts: s.broadcasts.count,
    broadcastsTrx: trx(s.broadcasts.sun),
    refunds: s.refunds.count,
    // Money back is shown with a minus; none is plain 0.
    refundsTrx: s.refunds.sun === 0n ? trx(0n) : `−${trx(s.refunds.sun)}`,
    netTrx: trx(s.netSun),
  });
  if (s.orders.count === 0) return [totals, translate(tr, "statement-saving-no-orders")].join("\n\n");
  const how: TextVars = {
    energy: formatInteger(s.orderEnergy, vars.locale),
    price: formatInteger(vars.burnPriceSun, vars.locale),
    burnTrx: trx(s.burnSun),
    ordersTrx: trx(s.orders.sun),
  };
  const saving =
    s.savingSun >= 0n
      ? translate(tr, "statement-saving", { ...how, savingTrx: trx(s.savingSun) })
      : translate(tr, "statement-saving-none", { ...how, extraTrx: trx(-s.savingSun) });
  return [totals, saving, translate(tr, "statement-saving-broadcasts")].join("\n\n");
}
