import type { BroadcastSummary } from "../../shared/broadcasts/precheck.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, type Html, translate } from "./html.js";
import type { Translator } from "./record-text.js";

/** What a system contract's words read from the transaction (a card's summary or a history entry). */
export interface SystemContractFacts {
  contractType: string;
  amountAtomic?: string | undefined;
  amountSun?: string | undefined;
  details?: BroadcastSummary["details"] | undefined;
}

/** Where the words go: the summary a user confirms (`card`), or one /orders row (`row`). */
export type SystemWordsPlace = "card" | "row";

interface SystemWords {
  card: string;
  row: string;
  /** Which amount the words name: TRX from sun, whole token units, or none. */
  amount?: "trx" | "token";
}

/** One line per system contract, as a card says it and as a row shortens it. */
const SYSTEM_WORDS: Readonly<Record<string, SystemWords>> = {
  FreezeBalanceV2Contract: { card: "broadcast-kind-freeze", row: "orders-what-stake", amount: "trx" },
  FreezeBalanceContract: { card: "broadcast-kind-freeze", row: "orders-what-stake", amount: "trx" },
  UnfreezeBalanceV2Contract: { card: "broadcast-kind-unfreeze", row: "orders-what-unstake", amount: "trx" },
  UnfreezeBalanceContract: { card: "broadcast-kind-unfreeze-all", row: "orders-what-unstake-all" },
  DelegateResourceContract: { card: "broadcast-kind-delegate", row: "orders-what-delegate", amount: "trx" },
  UnDelegateResourceContract: { card: "broadcast-kind-undelegate", row: "orders-what-undelegate", amount: "trx" },
  WithdrawExpireUnfreezeContract: { card: "broadcast-kind-withdraw-unfreeze", row: "orders-what-withdraw-unstaked" },
  WithdrawBalanceContract: { card: "broadcast-kind-withdraw-balance", row: "orders-what-withdraw-rewards" },
  CancelAllUnfreezeV2Contract: { card: "broadcast-kind-cancel-unfreeze", row: "orders-what-cancel-unstake" },
  AccountCreateContract: { card: "broadcast-kind-account-create", row: "orders-what-activate" },
  AccountUpdateContract: { card: "broadcast-kind-account-update", row: "orders-what-rename" },
  VoteWitnessContract: { card: "broadcast-kind-vote", row: "orders-what-votes" },
  TransferAssetContract: { card: "broadcast-kind-transfer-asset", row: "orders-what-trc10", amount: "token" },
  ClearABIContract: { card: "broadcast-kind-clear-abi", row: "orders-what-clear-abi" },
  UpdateSettingContract: { card: "broadcast-kind-contract-settings", row: "orders-what-contract-settings" },
  UpdateEnergyLimitContract: { card: "broadcast-kind-contract-settings", row: "orders-what-contract-settings" },
};

/** A contract type the table does not know: the card names it; a row falls back to the neutral line. */
const UNKNOWN: SystemWords = { card: "broadcast-kind-contract-settings", row: "orders-what-tron" };

/**
 * What a system contract does, in the words of `place`. `contract` is the contract's address as the place shows
 * it (whole on a card, shortened in a row).
 */
export function systemContractText(tr: Translator, facts: SystemContractFacts, locale: string, place: SystemWordsPlace, contract: Html): string {
  const words = SYSTEM_WORDS[facts.contractType] ?? UNKNOWN;
  const votes = facts.details?.votes ?? [];
  const amount =
    words.amount === "trx"
      ? formatTrx(BigInt(facts.amountSun ?? "0"), locale)
      : words.amount === "token"
        ? formatInteger(facts.amountAtomic ?? "0", locale)
        : undefined;
  return translate(tr, words[place], {
    ...(amount === undefined ? {} : { amount }),
    resource: facts.details?.resource ?? "BANDWIDTH",
    lock: facts.details?.lock === true ? "yes" : "no",
    count: votes.length,
    total: formatInteger(
      votes.reduce((sum, v) => sum + BigInt(v.count), 0n),
      locale,
    ),
    asset: code(facts.details?.assetName ?? "-"),
    contract,
    contractType: code(facts.contractType),
  });
}
