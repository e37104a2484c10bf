import { chargeSunOf, delegationEndsAtMs, type HistoryEntry } from "../../shared/orders/order-history.js";
import { dateTimeFormat } from "../../shared/date-formats.js";
import { clockText } from "../../bot/helpers/expiry-text.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { code, escapeHtml, html, type Html, translate } from "../../bot/helpers/html.js";
import { durationText, statusText, usdtExact, type Translator } from "../../bot/helpers/record-text.js";
import { systemContractText } from "../../bot/helpers/system-contract-words.js";

/** How a row is drawn: the reader's locale and zone, the clock, and the chat's address labels. */
export interface LedgerRowContext {
  locale: string;
  timeZone: string;
  nowMs: number;
  labels: ReadonlyMap<string, string>;
  /** The chat reading the list: rows another chat of the account placed name that chat. */
  chatId?: number;
  /** What the account's other chats are called (`ChatRecord.title`). */
  chatNames?: ReadonlyMap<number, string>;
}

/** "💬 <chat>" under a row another chat of the account placed; nothing for the reader's own rows. */
function placedInText(tr: Translator, entry: HistoryEntry, rc: LedgerRowContext): string {
  if (entry.chatId === undefined || rc.chatId === undefined || entry.chatId === rc.chatId) return "";
  const name = rc.chatNames?.get(entry.chatId) ?? String(entry.chatId);
  return `\n${translate(tr, "ledger-row-chat", { chat: html(escapeHtml(name)) })}`;
}

/** "TXyz12…abcd": enough to tell receivers apart in a list; the card shows the whole address. */
function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** The date and time of `atMs` in the chat's zone (named once, above the rows), in the locale's way (the year only when it is not this one's). */
function ledgerTime(atMs: number, rc: Pick<LedgerRowContext, "locale" | "timeZone" | "nowMs">): string {
  const year = dateTimeFormat("en-CA", { timeZone: rc.timeZone, year: "numeric" });
  const options: Intl.DateTimeFormatOptions = {
    timeZone: rc.timeZone,
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(year.format(atMs) === year.format(rc.nowMs) ? {} : { year: "numeric" }),
  };
  return dateTimeFormat(rc.locale, options).format(atMs);
}

function receiverText(entry: HistoryEntry, labels: ReadonlyMap<string, string>): Html {
  if (entry.address === undefined) return html("—");
  const label = labels.get(entry.address);
  return label === undefined ? code(shortAddress(entry.address)) : html(`<b>${escapeHtml(label)}</b>`);
}

/** Exact TRX from sun; a broadcast's fee still estimated says so, a refunded one says it came back. */
function costText(tr: Translator, entry: HistoryEntry, locale: string): string {
  if (entry.totalCostSun === undefined) return translate(tr, "ledger-cost-unknown");
  const amount = formatTrx(BigInt(entry.totalCostSun), locale);
  if (entry.kind === "broadcast" && chargeSunOf(entry) === 0n && entry.totalCostSun > 0) return translate(tr, "ledger-cost-refunded", { amount });
  if (entry.costEstimated === true) return translate(tr, "ledger-cost-estimated", { amount });
  return translate(tr, "ledger-cost", { amount });
}

/**
 * What a broadcast did, as briefly as a row allows: the card's words shortened ("stake 100 TRX for energy",
 * "votes: 30 for 2 candidates"), from what the history kept of the signed transaction. Entries kept before
 * the contract type was stored say only what they can (an amount of USDT or TRX, else the neutral line).
 */
function broadcastWhatText(tr: Translator, e: HistoryEntry, locale: string): string {
  const trx = () => formatTrx(BigInt(e.amountSun ?? "0"), locale);
  const contract = code(shortAddress(e.contractAddress ?? "-"));
  if (e.txKind === "usdt" && e.amountAtomic !== undefined) return translate(tr, "orders-what-usdt", { amount: usdtExact(e.amountAtomic, locale) });
  if (e.txKind === "trx" && e.amountSun !== undefined) return translate(tr, "orders-what-trx", { amount: trx() });
  if (e.txKind === "trc20" && e.amountAtomic !== undefined && e.contractAddress !== undefined)
    return translate(tr, "orders-what-trc20", { amount: formatInteger(e.amountAtomic, locale), contract });
  if (e.txKind === "contract")
    return e.contractAddress === undefined ? translate(tr, "orders-what-contract") : translate(tr, "orders-what-contract-at", { contract });
  if (e.txKind !== "system" || e.contractType === undefined) return translate(tr, "orders-what-tron");
  return systemContractText(tr, { ...e, contractType: e.contractType }, locale, "row", contract);
}

/** The brief "what", then to whom when the transaction names a receiver ("1 TRX → TXyz12…abcd"). */
function broadcastRowWhat(tr: Translator, e: HistoryEntry, rc: LedgerRowContext): string {
  const what = broadcastWhatText(tr, e, rc.locale);
  return e.address === undefined ? what : translate(tr, "orders-what-to", { what: html(what), receiver: receiverText(e, rc.labels) });
}

/** One /orders row: number, kind and id; time and status; what and to whom; cost and, for an order, when its delegation ends. */
export function ledgerRowText(tr: Translator, entry: HistoryEntry, n: number, rc: LedgerRowContext): string {
  const common = {
    n,
    id: code(entry.id),
    time: ledgerTime(entry.createdAtMs, rc),
    status: statusText(tr, entry.status),
    receiver: receiverText(entry, rc.labels),
    cost: html(costText(tr, entry, rc.locale)),
  };
  const placed = placedInText(tr, entry, rc);
  if (entry.kind === "broadcast") return translate(tr, "ledger-row-broadcast", { ...common, what: html(broadcastRowWhat(tr, entry, rc)) }) + placed;
  const endsAtMs = delegationEndsAtMs(entry);
  const ends =
    endsAtMs === undefined
      ? ""
      : translate(tr, rc.nowMs >= endsAtMs ? "ledger-row-ended" : "ledger-row-until", { time: clockText(endsAtMs, rc.nowMs, rc.locale, rc.timeZone) });
  return (
    translate(tr, "ledger-row-order", {
      ...common,
      amount: formatInteger(entry.amount ?? 0, rc.locale),
      duration: durationText(tr, entry.durationSec ?? 0),
      ends: html(ends),
    }) + placed
  );
}
