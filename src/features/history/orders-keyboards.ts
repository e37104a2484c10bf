import { InlineKeyboard } from "grammy";
import type { HistoryEntry } from "../../shared/orders/order-history.js";
import { HISTORY_FILTERS, historyListData, historyRowData, type HistoryFilterCode } from "../../bot/callback-data/orders.js";
import type { Translator } from "../../bot/helpers/record-text.js";

const FILTER_KEY: Record<HistoryFilterCode, string> = {
  a: "ledger-filter-all",
  o: "ledger-filter-orders",
  b: "ledger-filter-broadcasts",
  m: "ledger-filter-month",
};

export interface LedgerView {
  filter: HistoryFilterCode;
  page: number;
  pages: number;
  /** The page's rows with their numbers in the whole list. */
  rows: readonly { n: number; entry: HistoryEntry }[];
}

/**
 * One button per row (its live card), the filters (the chosen one marked), and Newer / "x / y" /
 * Older when there is more than one page; paging keeps the filter.
 */
export function createLedgerKeyboard(tr: Translator, view: LedgerView): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const { n, entry } of view.rows) {
    kb.text(tr.t("ledger-open-button", { n }), historyRowData.pack({ kind: entry.kind === "order" ? "o" : "b", id: entry.id }));
  }
  kb.row();
  for (const filter of HISTORY_FILTERS) {
    const name = tr.t(FILTER_KEY[filter]);
    kb.text(filter === view.filter ? tr.t("ledger-filter-chosen", { name }) : name, historyListData.pack({ filter, page: 0 }));
  }
  if (view.pages > 1) {
    kb.row();
    if (view.page > 0) kb.text(tr.t("orders-newer-button"), historyListData.pack({ filter: view.filter, page: view.page - 1 }));
    kb.text(tr.t("ledger-page-button", { page: view.page + 1, pages: view.pages }), historyListData.pack({ filter: view.filter, page: view.page }));
    if (view.page < view.pages - 1) kb.text(tr.t("orders-older-button"), historyListData.pack({ filter: view.filter, page: view.page + 1 }));
  }
  return kb;
}
