import type { CheckResult } from "../../shared/broadcasts/check-broadcast.js";
import type { BroadcastSummary } from "../../shared/broadcasts/precheck.js";
import type { ConversationContext } from "../../bot/context.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import type { MalformedProblem, MismatchProblem, SignatureProblem } from "../../shared/tron/index.js";
import { code, html, translate, type Html } from "../../bot/helpers/html.js";
import { broadcastKindLines } from "../../bot/helpers/broadcast-kind-text.js";

type Tr = Pick<ConversationContext, "t">;

const kebab = (code: string): string => code.replace(/_/g, "-");
const codes = (values: readonly string[]): Html => html(values.map((v) => code(v).value).join(", "));

function malformedText(tr: Tr, p: MalformedProblem): Html {
  switch (p.code) {
    case "hostile_field":
      return html(translate(tr, "broadcast-malformed-hostile-field", { field: code(p.field) }));
    case "too_deep":
      return html(translate(tr, "broadcast-malformed-too-deep", { depth: p.maxDepth }));
    case "field_shape":
      return html(translate(tr, `broadcast-malformed-shape-${kebab(p.expected)}`, { field: code(p.field) }));
    case "bytes_unreadable":
    case "no_contract":
    case "no_owner":
    case "expiration_out_of_range":
      return html(translate(tr, `broadcast-malformed-${kebab(p.code)}`));
  }
}

function mismatchText(tr: Tr, p: MismatchProblem): Html {
  switch (p.code) {
    case "field_differs":
    case "field_missing":
      return html(translate(tr, `broadcast-mismatch-${kebab(p.code)}`, { field: code(p.field) }));
    case "contract_type_differs":
      return html(translate(tr, "broadcast-mismatch-contract-type-differs", { field: code(p.field), claimed: code(p.claimed), signed: code(p.signed) }));
    case "contracts_differ":
      return html(translate(tr, "broadcast-mismatch-contracts-differ", { count: p.signed }));
  }
}

function signatureText(tr: Tr, p: SignatureProblem): Html {
  switch (p.code) {
    case "size":
      return html(translate(tr, "broadcast-signature-size", { size: p.bytes, expected: p.expected }));
    case "header_out_of_range":
      return html(translate(tr, "broadcast-signature-header", { header: p.header }));
    case "value_out_of_range":
      return html(translate(tr, "broadcast-signature-value-range", { part: code(p.part) }));
    case "not_hex":
    case "recovery_id_unsupported":
    case "unrecoverable":
      return html(translate(tr, `broadcast-signature-${kebab(p.code)}`));
  }
}

/** A local refusal in the chat's language: each reason and each of its causes has its own message; names and values in <code>. */
export function refusalText(tr: Tr, refusal: CheckResult & { ok: false }): string {
  const key = `broadcast-refused-${kebab(refusal.reason)}`;
  switch (refusal.reason) {
    case "not_json": {
      const at = refusal.at;
      if (!at) return translate(tr, key);
      return translate(tr, at.end ? "broadcast-refused-not-json-end" : "broadcast-refused-not-json-at", { line: at.line, column: at.column });
    }
    case "malformed":
      return translate(tr, key, { detail: malformedText(tr, refusal.problem) });
    case "raw_data_mismatch":
      return translate(tr, key, { detail: mismatchText(tr, refusal.problem) });
    case "signature_format":
      return translate(tr, key, { index: refusal.index, detail: signatureText(tr, refusal.problem) });
    case "txid_mismatch":
      return translate(tr, key, { declared: code(refusal.declared), derived: code(refusal.derived) });
    case "unsupported_contract":
      return translate(tr, key, {
        contract:
          refusal.typeName === undefined ? html(translate(tr, "broadcast-contract-type-number", { number: refusal.contractType })) : code(refusal.typeName),
      });
    case "too_many_signatures":
      return translate(tr, key, { count: refusal.count, max: refusal.max });
    case "duplicate_signature":
      return translate(tr, key, { signer: code(refusal.signer) });
    case "extra_signature":
      return translate(tr, key, { count: refusal.count, others: codes(refusal.others) });
    case "bad_signature":
      return translate(tr, key, { owner: code(refusal.owner), signers: codes(refusal.signers) });
    case "permission_not_owner":
      return translate(tr, key, { permissionId: refusal.permissionId, owner: code(refusal.owner), signers: codes(refusal.signers) });
    case "multiple_contracts":
      return translate(tr, key, { count: refusal.count });
    case "insufficient_time":
      return translate(tr, key, { seconds: Math.max(0, Math.floor(refusal.leftMs / 1000)) });
    case "not_object":
    case "too_large":
    case "no_signature":
    case "expired":
    case "expiration_too_far":
    case "pricing_unavailable":
      return translate(tr, key);
  }
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
