import type { CheckResult } from "../../core/broadcasts/check-broadcast.js";
import type { BroadcastSummary } from "../../core/broadcasts/precheck.js";
import type { ConversationContext } from "../context.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { broadcastKindLines } from "./broadcast-kind-text.js";

type Tr = Pick<ConversationContext, "t">;

export function refusalText(tr: Tr, reason: CheckResult & { ok: false }): string {
  return translate(tr, `broadcast-refused-${reason.reason.replace(/_/g, "-")}`, { detail: reason.detail ?? "-" });
}

function timeLeft(tr: Tr, ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return translate(tr, "tracking-time-left", { minutes: Math.floor(total / 60), seconds: total % 60 });
}

/** Longer memos are cut (the chain allows a few hundred bytes; the summary is read at a glance). */
const MEMO_SHOWN_CHARS = 200;
/** Control, bidirectional and zero-width characters: they could hide or reorder what the summary says. */
const UNSAFE_IN_MEMO = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * The signed memo as the recipient will read it: its UTF-8 text, HTML-escaped by `translate`; a
 * memo that is not clean text (binary bytes, invisible or reordering characters) is shown as hex.
 */
function memoLine(tr: Tr, memoHex: string): string {
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(memoHex, "hex"));
  } catch {
    text = undefined;
  }
  if (text === undefined || UNSAFE_IN_MEMO.test(text)) {
    const hex = memoHex.length > MEMO_SHOWN_CHARS ? `${memoHex.slice(0, MEMO_SHOWN_CHARS)}…` : memoHex;
    return translate(tr, "broadcast-summary-memo-hex", { memo: code(hex) });
  }
  // Cut between whole characters as the reader sees them (an emoji or a letter with its marks stays whole).
  const graphemes = Array.from(new Intl.Segmenter().segment(text), (s) => s.segment);
  const shown = graphemes.length > MEMO_SHOWN_CHARS ? `${graphemes.slice(0, MEMO_SHOWN_CHARS).join("")}…` : text;
  return translate(tr, "broadcast-summary-memo", { memo: shown });
}

/** Kind, exact amount, from, to, time left, estimated resource and fee at the base unit price. */
export function summaryText(tr: Tr, s: BroadcastSummary, locale: string, nowMs: number, baseUnitPriceSun: number): string {
  const lines = [translate(tr, "broadcast-summary-title")];
  lines.push(...broadcastKindLines(tr, s, locale));
  lines.push(translate(tr, "broadcast-summary-from", { address: code(s.fromAddress) }));
  if (s.toAddress) lines.push(translate(tr, "broadcast-summary-to", { address: code(s.toAddress) }));
  lines.push(translate(tr, "broadcast-summary-txid", { txId: code(s.txId) }));
  // Said before any request: the service only counts the owner's signature.
  if (s.permissionId !== undefined) lines.push(translate(tr, "broadcast-summary-permission", { permissionId: s.permissionId, address: code(s.fromAddress) }));
  if (s.memoHex !== undefined) lines.push(memoLine(tr, s.memoHex));
  lines.push(translate(tr, "broadcast-summary-time-left", { timeLeft: timeLeft(tr, s.expirationMs - nowMs) }));
  const unitPriceSun = formatInteger(baseUnitPriceSun, locale);
  const [first, second] = s.estimates;
  if (s.kind === "usdt" && first && second) {
    lines.push(
      translate(tr, "broadcast-summary-energy-usdt", { holder: formatInteger(first.units, locale), firstTime: formatInteger(second.units, locale) }),
      translate(tr, "broadcast-summary-fee-usdt", {
        unitPriceSun,
        holderTrx: formatTrx(BigInt(first.feeSun), locale),
        firstTimeTrx: formatTrx(BigInt(second.feeSun), locale),
      }),
    );
  } else if (first) {
    const key = s.resource === "BANDWIDTH" ? "broadcast-summary-bandwidth" : "broadcast-summary-energy";
    lines.push(translate(tr, key, { units: formatInteger(first.units, locale), unitPriceSun, feeTrx: formatTrx(BigInt(first.feeSun), locale) }));
  }
  lines.push(translate(tr, "broadcast-summary-confirm-hint"));
  return lines.join("\n");
}
