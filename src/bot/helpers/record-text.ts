import type { I18nFlavor } from "../i18n.js";
import { atomicToUsdt, formatDecimal } from "../../shared/money.js";
import type { HistoryEntry } from "../../shared/orders/order-history.js";
import type { Broadcast, Order } from "../../platform/service/schemas.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, html, translate, type Html } from "./html.js";
import { broadcastEndLine, canResend, delegationEndText } from "./expiry-text.js";
import { broadcastKindLines, type BroadcastFacts } from "./broadcast-kind-text.js";

/**
 * Status cards and final notifications of orders and broadcasts. Ids and
 * addresses always appear in full inside <code> (one tap copies them).
 * Used by handlers (ctx) and by the tracking notifier (a per-locale translator).
 */
export type Translator = Pick<I18nFlavor, "t">;

/** 3600 -> "1 h", 900 -> "15 min", 90 -> "90 s" (in the translator's language). */
export function durationText(tr: Translator, seconds: number): string {
  if (seconds % 3600 === 0) return tr.t("order-duration-text", { unit: "h", count: seconds / 3600 });
  if (seconds % 60 === 0) return tr.t("order-duration-text", { unit: "m", count: seconds / 60 });
  return tr.t("order-duration-text", { unit: "s", count: seconds });
}

/** The exact USDT amount, trailing zeros trimmed (12500000 -> "12.5"), grouped for the locale. */
export function usdtExact(amountAtomic: string, locale: string): string {
  return formatDecimal(atomicToUsdt(amountAtomic), locale);
}

/**
 * What the bot read itself from the signed transaction (kept in the chat's
 * history): the service only says `usdt` or `tron`, which cannot tell a TRX
 * transfer from another contract call.
 */
export type BroadcastLocal = Pick<HistoryEntry, "txKind" | "amountAtomic" | "amountSun" | "contractType" | "contractAddress" | "details">;

/**
 * The status word, then what it means: in English the API's own word ("pending_energy (provisioning energy)"),
 * in other languages their word; a status the bot does not know yet shows as the service's code.
 */
export function statusText(tr: Translator, status: string): Html {
  const word = translate(tr, "tracking-status", { status, code: code(status) });
  const meaning = translate(tr, "tracking-status-meaning", { status });
  return html(`<b>${translate(tr, "tracking-status-shown", { status: html(word), meaning: html(meaning) })}</b>`);
}

/**
 * The clock a card is drawn at (each drawing reads it anew, so "ends in 57 min" is never a stale
 * figure) and the chat's zone its times are shown in; `endsAtMs` is a fulfilled order's delegation
 * end (`delegationEndsAtMs`), unknown until the bot has seen the order fulfilled. Without it a card
 * says nothing about ends.
 */
export interface CardTiming {
  nowMs: number;
  timeZone: string;
  endsAtMs?: number;
}

export function orderCardText(tr: Translator, order: Order, locale: string, timing?: CardTiming): string {
  const lines = [
    translate(tr, "tracking-order-card", {
      orderId: code(order.orderId),
      status: statusText(tr, order.status),
      receiver: code(order.receiver),
      amount: formatInteger(order.resourceAmount, locale),
      duration: durationText(tr, order.durationSec),
      costTrx: formatTrx(order.totalCostSun, locale),
    }),
  ];
  if (order.status !== "fulfilled" && order.remainAmount < order.resourceAmount) {
    lines.push(
      translate(tr, "tracking-order-progress", {
        delegated: formatInteger(order.resourceAmount - order.remainAmount, locale),
        amount: formatInteger(order.resourceAmount, locale),
      }),
    );
  }
  if (order.status === "fulfilled" && timing?.endsAtMs !== undefined) lines.push(delegationEndText(tr, timing.endsAtMs, timing.nowMs, locale, timing.timeZone));
  return lines.join("\n");
}

/** The transaction a broadcast carries, described like the pre-check did: service record first, local details for the rest. */
export function broadcastWhat(tr: Translator, b: Pick<Broadcast, "kind" | "amountAtomic">, locale: string, local?: BroadcastLocal): string {
  const usdtAtomic = b.amountAtomic ?? (local?.txKind === "usdt" ? local.amountAtomic : undefined);
  if (b.kind === "usdt" || local?.txKind === "usdt") {
    return usdtAtomic === undefined
      ? translate(tr, "tracking-broadcast-usdt-unknown")
      : translate(tr, "tracking-broadcast-usdt", { amount: usdtExact(usdtAtomic, locale) });
  }
  const facts = localFacts(local);
  if (facts) return broadcastKindLines(tr, facts, locale).join("\n");
  if (local?.txKind === "trx" && local.amountSun !== undefined)
    return translate(tr, "tracking-broadcast-trx", { amount: formatTrx(BigInt(local.amountSun), locale) });
  // An entry that names no contract type (kept before every kind kept one) says only what is sure.
  if (local?.contractType !== undefined && (local.txKind === "contract" || local.txKind === "trc20" || local.txKind === "system")) {
    return local.contractAddress === undefined
      ? translate(tr, "tracking-broadcast-contract", { contractType: code(local.contractType ?? "-") })
      : translate(tr, "tracking-broadcast-contract-to", { contractType: code(local.contractType ?? "-"), contract: code(local.contractAddress) });
  }
  return translate(tr, "tracking-broadcast-tron");
}

const TX_KINDS: ReadonlySet<string> = new Set<BroadcastFacts["kind"]>(["usdt", "trx", "trc20", "system", "contract"]);

/** The summary's facts as the history kept them (entries written before every kind kept its contract type have none). */
function localFacts(local: BroadcastLocal | undefined): BroadcastFacts | undefined {
  if (local?.txKind === undefined || local.contractType === undefined || !TX_KINDS.has(local.txKind)) return undefined;
  return {
    kind: local.txKind as BroadcastFacts["kind"],
    contractType: local.contractType,
    ...(local.amountAtomic === undefined ? {} : { amountAtomic: local.amountAtomic }),
    ...(local.amountSun === undefined ? {} : { amountSun: local.amountSun }),
    ...(local.contractAddress === undefined ? {} : { contractAddress: local.contractAddress }),
    ...(local.details === undefined ? {} : { details: local.details }),
  };
}

/** The network's id is shown only when it is not simply the signed transaction's own id. */
function chainTxidLine(tr: Translator, b: Pick<Broadcast, "txId" | "broadcastTxid">): string | undefined {
  if (!b.broadcastTxid || b.broadcastTxid.toLowerCase() === b.txId.toLowerCase()) return undefined;
  return translate(tr, "tracking-broadcast-txid", { broadcastTxid: code(b.broadcastTxid) });
}

export function broadcastCardText(tr: Translator, b: Broadcast, locale: string, local?: BroadcastLocal, timing?: CardTiming): string {
  const lines = [
    translate(tr, "tracking-broadcast-card", {
      broadcastId: code(b.broadcastId),
      status: statusText(tr, b.status),
      what: html(broadcastWhat(tr, b, locale, local)),
      txId: code(b.txId),
      from: code(b.fromAddress),
      to: code(b.toAddress),
      feeTrx: formatTrx(b.totalCostSun, locale),
    }),
  ];
  const chain = chainTxidLine(tr, b);
  if (chain) lines.push(chain);
  // confirming is on its way, not done: say so in words, never as success.
  if (b.status === "confirming") lines.push(translate(tr, "tracking-broadcast-confirming-note"));
  // The service provisioned the transfer's energy: the wallet burnt none of its TRX for it.
  if (b.kind === "usdt" && b.status === "confirmed") lines.push(translate(tr, "tracking-broadcast-paid-no-trx"));
  const end = timing && broadcastEndLine(tr, b.status, b.txExpirationMs, timing.nowMs, locale, timing.timeZone);
  if (end) lines.push(end);
  return lines.join("\n");
}

function timeLeftText(tr: Translator, ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return translate(tr, "tracking-time-left", { minutes: Math.floor(total / 60), seconds: total % 60 });
}

/** The first line of a fulfilled order's notice: what the service record says, or the history entry kept of it. */
export function orderFulfilledText(tr: Translator, o: Pick<Order, "orderId" | "resourceAmount" | "receiver" | "durationSec">, locale: string): string {
  return translate(tr, "tracking-order-fulfilled", {
    orderId: code(o.orderId),
    amount: formatInteger(o.resourceAmount, locale),
    receiver: code(o.receiver),
    duration: durationText(tr, o.durationSec),
  });
}

/** The one final notification per finished record. */
export function finalText(
  tr: Translator,
  record: { kind: "order"; record: Order } | { kind: "broadcast"; record: Broadcast },
  locale: string,
  nowMs: number,
): string {
  if (record.kind === "order") return orderFulfilledText(tr, record.record, locale);
  const b = record.record;
  const common = { broadcastId: code(b.broadcastId), txId: code(b.txId) };
  if (b.status === "confirmed") {
    const chain = chainTxidLine(tr, b);
    return [translate(tr, "tracking-broadcast-confirmed", common), ...(chain ? [chain] : [])].join("\n");
  }
  const reason = html(
    b.failureReason ? translate(tr, "tracking-reason", { reason: b.failureReason, code: code(b.failureReason) }) : translate(tr, "tracking-reason-none"),
  );
  const refundTrx = formatTrx(b.totalCostSun, locale);
  if (b.status === "expired") return translate(tr, "tracking-broadcast-expired", { ...common, reason, refundTrx });
  const left = b.txExpirationMs - nowMs;
  return canResend(b.status, b.txExpirationMs, nowMs)
    ? translate(tr, "tracking-broadcast-failed", { ...common, reason, refundTrx, timeLeft: timeLeftText(tr, left) })
    : translate(tr, "tracking-broadcast-failed-resign", { ...common, reason, refundTrx });
}

export function recordCardText(
  tr: Translator,
  record: { kind: "order"; record: Order } | { kind: "broadcast"; record: Broadcast },
  locale: string,
  local?: BroadcastLocal,
  timing?: CardTiming,
): string {
  return record.kind === "order" ? orderCardText(tr, record.record, locale, timing) : broadcastCardText(tr, record.record, locale, local, timing);
}
