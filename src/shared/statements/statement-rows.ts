/**
 * A statement's lines, built from the bot's history: one per order, one per
 * broadcast, and one more (a refund, negative) for each broadcast that ended
 * `failed` or `expired`, since the service debits a broadcast's fee at
 * acceptance and gives it back by a separate entry when it does not land
 * (service-api.md section 3). All amounts in sun, as bigint.
 */
import { stringify } from "csv-stringify/sync";
import { hasRefund, type HistoryEntry } from "../orders/order-history.js";
import { SUN_PER_TRX, TRX_DECIMALS } from "../money.js";
import { isoInZone, type StatementMonth, monthWindow } from "./statement-month.js";

export type StatementKind = "order" | "broadcast" | "refund";

export interface StatementRow {
  atMs: number;
  id: string;
  kind: StatementKind;
  receiver: string | undefined;
  /** Orders only: the history holds no energy figure for a broadcast. */
  energy: number | undefined;
  durationSec: number | undefined;
  /** Negative for a refund. */
  costSun: bigint;
  status: string;
  txId: string | undefined;
  /** The chat of the account that placed it; undefined for entries kept before chats were recorded. */
  chatId: number | undefined;
}

/** The rows of the entries created within the month (in the zone), oldest first. */
export function statementRows(entries: readonly HistoryEntry[], month: StatementMonth, timeZone: string): StatementRow[] {
  const { startMs, endMs } = monthWindow(month, timeZone);
  const inMonth = entries.filter((e) => e.createdAtMs >= startMs && e.createdAtMs < endMs).sort((a, b) => a.createdAtMs - b.createdAtMs);
  return inMonth.flatMap((e) => rowsOf(e));
}

function rowsOf(e: HistoryEntry): StatementRow[] {
  const costSun = BigInt(e.totalCostSun ?? 0);
  const row: StatementRow = {
    atMs: e.createdAtMs,
    id: e.id,
    kind: e.kind,
    receiver: e.address,
    energy: e.kind === "order" ? e.amount : undefined,
    durationSec: e.kind === "order" ? e.durationSec : undefined,
    costSun,
    status: e.status,
    txId: e.kind === "broadcast" ? e.txId : undefined,
    chatId: e.chatId,
  };
  if (!hasRefund(e)) return [row];
  // The history keeps no time of the refund: it is dated with the broadcast, so both stay in one statement.
  return [row, { ...row, kind: "refund", costSun: -costSun }];
}

/** Exactly six decimals, sign kept: -1500000n -> "-1.500000". */
export function trxFixed(sun: bigint): string {
  const negative = sun < 0n;
  const abs = negative ? -sun : sun;
  const fraction = (abs % SUN_PER_TRX).toString().padStart(TRX_DECIMALS, "0");
  return `${negative ? "-" : ""}${(abs / SUN_PER_TRX).toString()}.${fraction}`;
}

export const STATEMENT_CSV_COLUMNS = [
  "time",
  "id",
  "kind",
  "receiver",
  "energy",
  "duration_s",
  "cost_sun",
  "cost_trx",
  "status",
  "broadcast_tx_id",
  "chat",
] as const;

/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell that came from outside the bot (the service's status and ids,
 * a receiver read from a signed transaction) made inert for spreadsheets: one
 * starting like a formula gets a leading single quote, as OWASP's CSV
 * injection guidance says. The numeric columns are never passed here: a
 * refund's `-1500000` must stay a number.
 */
export function inertText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 (CRLF line ends, quoting where a field needs it), with a header row. The `chat` column names the chat of
 * the account that placed each line (its title when known, else its id): the statement is the account's.
 */
export function statementCsv(rows: readonly StatementRow[], timeZone: string, chatNames: ReadonlyMap<number, string> = new Map()): string {
  const records = rows.map((r) => [
    isoInZone(r.atMs, timeZone),
    inertText(r.id),
    r.kind,
    inertText(r.receiver ?? ""),
    r.energy === undefined ? "" : String(r.energy),
    r.durationSec === undefined ? "" : String(r.durationSec),
    r.costSun.toString(),
    trxFixed(r.costSun),
    inertText(r.status),
    inertText(r.txId ?? ""),
    r.chatId === undefined ? "" : inertText(chatNames.get(r.chatId) ?? String(r.chatId)),
  ]);
  return stringify(records, { header: true, columns: [...STATEMENT_CSV_COLUMNS], record_delimiter: "windows" });
}
