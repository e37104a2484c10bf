/**
 * A month's statement of one chat's account: the history entries created in
 * that month (the chat's time zone), their CSV lines, the totals and the
 * daily spend, read from the history's pages of that month.
 */
import type { HistoryEntry, OrderHistory } from "../orders/order-history.js";
import { monthWindow, type StatementMonth } from "./statement-month.js";
import { statementCsv, statementRows, type StatementRow } from "./statement-rows.js";
import { dailyNetSun, summarize, type StatementSummary } from "./statement-summary.js";

export const STATEMENT_PAGE_SIZE = 100;

export interface Statement {
  month: StatementMonth;
  timeZone: string;
  rows: StatementRow[];
  csv: string;
  summary: StatementSummary;
  /** Net sun per day of the month, index 0 the 1st. */
  dailySun: bigint[];
}

/**
 * Every entry created in the month: the history pages only that window. An
 * entry added while paging shifts the pages by one, so ids already read are
 * skipped.
 */
export async function monthEntries(history: Pick<OrderHistory, "page">, chatId: number, month: StatementMonth, timeZone: string): Promise<HistoryEntry[]> {
  const { startMs, endMs } = monthWindow(month, timeZone);
  const seen = new Set<string>();
  const found: HistoryEntry[] = [];
  for (let page = 0; ; page += 1) {
    const p = await history.page(chatId, page, STATEMENT_PAGE_SIZE, { fromMs: startMs, toMs: endMs });
    for (const e of p.entries) {
      const key = `${e.kind}:${e.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(e);
    }
    if (page + 1 >= p.pages || p.entries.length === 0) return found;
  }
}

export interface StatementDeps {
  history: Pick<OrderHistory, "page">;
  /** Sun per unit of energy when TRX is burnt for it (ENERGY_BURN_PRICE_SUN). */
  burnPriceSun: number;
  /** The titles of the account's chats that placed lines (the CSV's `chat` column); ids alone without it. */
  chatTitles?: (chatIds: readonly number[]) => Promise<ReadonlyMap<number, string>>;
}

export async function buildStatement(deps: StatementDeps, chatId: number, month: StatementMonth, timeZone: string): Promise<Statement> {
  const rows = statementRows(await monthEntries(deps.history, chatId, month, timeZone), month, timeZone);
  const placedIn = [...new Set(rows.flatMap((r) => (r.chatId === undefined ? [] : [r.chatId])))];
  const chatNames = (await deps.chatTitles?.(placedIn)) ?? new Map<number, string>();
  return {
    month,
    timeZone,
    rows,
    csv: statementCsv(rows, timeZone, chatNames),
    summary: summarize(rows, deps.burnPriceSun),
    dailySun: dailyNetSun(rows, month, timeZone),
  };
}
