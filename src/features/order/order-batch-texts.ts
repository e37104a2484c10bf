import { stringify } from "csv-stringify/sync";
import type { QuoteItem } from "../../shared/orders/quote.js";

/** A batch quote's every line, for the document sent beside a quote message that shows only the first ones. */
export function batchQuoteCsv(items: readonly Pick<QuoteItem, "toAddress" | "amount" | "durationSec" | "costSun">[]): string {
  const rows = items.map((item, i) => [i + 1, item.toAddress, item.amount, item.durationSec, item.costSun]);
  return stringify([["line", "receiver", "energy", "duration", "cost sun"], ...rows]);
}
