import type { BroadcastSummary } from "../../core/broadcasts/precheck.js";
import { atomicToUsdt, formatDecimal } from "../../core/money.js";
import type { ConversationContext } from "../context.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";

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
  const resource = s.details?.resource ?? "BANDWIDTH";
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
      lines.push(systemLine(tr, s, locale, trx, resource));
      for (const v of s.details?.votes ?? [])
        lines.push(translate(tr, "broadcast-summary-vote", { address: code(v.address), count: formatInteger(v.count, locale) }));
      break;
  }
  if (s.details?.callValueSun !== undefined)
    lines.push(translate(tr, "broadcast-summary-call-value", { amount: formatTrx(BigInt(s.details.callValueSun), locale) }));
  return lines;
}

function systemLine(tr: Tr, s: BroadcastFacts, locale: string, trx: () => string, resource: string): string {
  switch (s.contractType) {
    case "FreezeBalanceV2Contract":
    case "FreezeBalanceContract":
      return translate(tr, "broadcast-kind-freeze", { amount: trx(), resource });
    case "UnfreezeBalanceV2Contract":
      return translate(tr, "broadcast-kind-unfreeze", { amount: trx(), resource });
    case "UnfreezeBalanceContract":
      return translate(tr, "broadcast-kind-unfreeze-all", { resource });
    case "DelegateResourceContract":
      return translate(tr, "broadcast-kind-delegate", { amount: trx(), resource, lock: s.details?.lock === true ? "yes" : "no" });
    case "UnDelegateResourceContract":
      return translate(tr, "broadcast-kind-undelegate", { amount: trx(), resource });
    case "WithdrawExpireUnfreezeContract":
      return translate(tr, "broadcast-kind-withdraw-unfreeze");
    case "WithdrawBalanceContract":
      return translate(tr, "broadcast-kind-withdraw-balance");
    case "CancelAllUnfreezeV2Contract":
      return translate(tr, "broadcast-kind-cancel-unfreeze");
    case "AccountCreateContract":
      return translate(tr, "broadcast-kind-account-create");
    case "AccountUpdateContract":
      return translate(tr, "broadcast-kind-account-update");
    case "VoteWitnessContract": {
      const votes = s.details?.votes ?? [];
      const total = votes.reduce((sum, v) => sum + BigInt(v.count), 0n);
      return translate(tr, "broadcast-kind-vote", { count: votes.length, total: formatInteger(total, locale) });
    }
    case "TransferAssetContract":
      return translate(tr, "broadcast-kind-transfer-asset", { amount: formatInteger(s.amountAtomic ?? "0", locale), asset: code(s.details?.assetName ?? "-") });
    case "ClearABIContract":
      return translate(tr, "broadcast-kind-clear-abi", { contract: code(s.contractAddress ?? "-") });
    default:
      return translate(tr, "broadcast-kind-contract-settings", { contractType: code(s.contractType), contract: code(s.contractAddress ?? "-") });
  }
}
