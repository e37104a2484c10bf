import type { BroadcastSummary } from "../../shared/broadcasts/precheck.js";
import { atomicToUsdt, formatDecimal } from "../../shared/money.js";
import type { ConversationContext } from "../context.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { systemContractText } from "./system-contract-words.js";

type Tr = Pick<ConversationContext, "t">;

/** What the words need: the summary before Confirm, or the chat's history entry of the broadcast after it. */
export type BroadcastFacts = Pick<BroadcastSummary, "kind" | "contractType" | "amountAtomic" | "amountSun" | "contractAddress" | "details">;

/**
 * What the transaction does, in plain words, from the signed bytes: the
 * first lines of the summary the user confirms. Every amount is exact
 * (strings of sun or token units, never a float).
 */
export function broadcastKindLines(tr: Tr, s: BroadcastFacts, locale: string): string[] {
  const trx = (): string => formatTrx(BigInt(s.amountSun ?? "0"), locale);
  const contract = code(s.contractAddress ?? "-");
  const lines: string[] = [];
  switch (s.kind) {
    case "usdt":
      lines.push(translate(tr, "broadcast-kind-usdt", { amount: formatDecimal(atomicToUsdt(s.amountAtomic ?? "0"), locale) }));
      break;
    case "trx":
      lines.push(translate(tr, "broadcast-kind-trx", { amount: trx() }));
      break;
    case "trc20":
      lines.push(translate(tr, "broadcast-kind-trc20", { contract, amount: formatInteger(s.amountAtomic ?? "0", locale) }));
      break;
    case "contract":
      lines.push(translate(tr, "broadcast-kind-contract", { contractType: code(s.contractType), contract }));
      break;
    case "system":
      lines.push(systemContractText(tr, s, locale, "card", contract));
      for (const v of s.details?.votes ?? [])
        lines.push(translate(tr, "broadcast-summary-vote", { address: code(v.address), count: formatInteger(v.count, locale) }));
      break;
  }
  if (s.details?.callValueSun !== undefined)
    lines.push(translate(tr, "broadcast-summary-call-value", { amount: formatTrx(BigInt(s.details.callValueSun), locale) }));
  return lines;
}
