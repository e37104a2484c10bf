import { stringify } from "csv-stringify/sync";
import type { BatchProgress } from "../../shared/orders/batch-progress.js";
import { formatInteger, formatTrx } from "./format.js";
import { translate } from "./html.js";
import type { Translator } from "./record-text.js";

/** A batch's one card and its result CSV: drawn when the batch is placed and redrawn by the tracking module as its orders move. */

/** The batch's one card: how many orders are done, and what the whole batch delegates and costs. */
export function batchCardText(tr: Translator, progress: BatchProgress, locale: string): string {
  const counts = translate(tr, "batch-card-progress", {
    fulfilled: formatInteger(progress.fulfilled, locale),
    total: formatInteger(progress.total, locale),
    inProgress: formatInteger(progress.inProgress, locale),
  });
  const totals = translate(tr, "batch-card-totals", { energy: formatInteger(progress.energy, locale), costTrx: formatTrx(progress.costSun, locale) });
  const title = translate(tr, progress.done ? "batch-card-title-done" : "batch-card-title", { count: progress.total });
  return [title, counts, totals].join("\n");
}

/** The final message's caption (a document caption holds 1,024 characters: no per-order lines here). */
export function batchFinalCaption(tr: Translator, progress: BatchProgress, locale: string): string {
  return [
    translate(tr, "batch-final-title", { count: progress.total }),
    translate(tr, "batch-card-totals", { energy: formatInteger(progress.energy, locale), costTrx: formatTrx(progress.costSun, locale) }),
    translate(tr, "batch-final-document"),
  ].join("\n");
}

/** One row per order, in the batch's own line order; RFC 4180 quoting by csv-stringify. */
export function batchResultCsv(progress: BatchProgress): string {
  const rows = progress.lines.map((l) => [l.line, l.receiver, l.energy, l.durationSec, l.orderId, l.status, l.costSun.toString()]);
  return stringify([[...BATCH_RESULT_HEADER], ...rows]);
}

export const BATCH_RESULT_HEADER = ["line", "receiver", "energy", "duration", "order id", "status", "cost sun"] as const;
