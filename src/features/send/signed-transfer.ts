import { verifyBroadcast, type PrecheckRefusal } from "../../shared/broadcasts/precheck.js";
import { decodeRawData } from "../../shared/tron/raw-data.js";
import { toHexAddress } from "../../shared/tron/address.js";
import type { VerifiedTransaction } from "../../shared/tron/transaction.js";
import type { SendIntent } from "./send-intent.js";

/**
 * What a signing page hands back, checked against what the chat confirmed before anything is sent: the
 * java-tron-faithful verification of any broadcast, then exactly one TRC20 `transfer(address,uint256)` on the
 * intent's USDT contract, to its recipient, for its amount, with no TRX attached and nothing after the two
 * arguments. Anything else (an `approve` or `transferFrom` above all: the usual drainer) is refused.
 */

const TRANSFER = "a9059cbb";
const APPROVE = "095ea7b3";
const TRANSFER_FROM = "23b872dd";
const INCREASE_ALLOWANCE = "39509351";

export type TransferMismatch =
  "approve" | "transfer_from" | "other_method" | "other_contract" | "other_recipient" | "other_amount" | "not_a_contract_call" | "call_value" | "extra_data";

export type SignedTransferCheck =
  | { ok: true; signedTx: Record<string, unknown>; tx: VerifiedTransaction }
  | ({ ok: false } & PrecheckRefusal)
  | { ok: false; reason: "mismatch"; mismatch: TransferMismatch; tx: VerifiedTransaction };

const word = (hex: string): string => hex.padStart(64, "0");

/** The call data a wallet's tronWeb builds for the intent: selector, the recipient's 20 bytes, the amount. */
export function transferCallData(intent: Pick<SendIntent, "to" | "amountAtomic">): string {
  const to = toHexAddress(intent.to);
  if (to === null) throw new RangeError("the intent's recipient is not an address");
  return `${TRANSFER}${word(to.slice(2))}${word(BigInt(intent.amountAtomic).toString(16))}`;
}

function mismatchOf(tx: VerifiedTransaction, data: string, callValue: bigint, intent: SendIntent): TransferMismatch | undefined {
  if (tx.contractType !== "TriggerSmartContract") return "not_a_contract_call";
  const selector = data.slice(0, 8);
  if (selector === APPROVE || selector === INCREASE_ALLOWANCE) return "approve";
  if (selector === TRANSFER_FROM) return "transfer_from";
  if (selector !== TRANSFER) return "other_method";
  if (toHexAddress(tx.contractAddress ?? "") !== toHexAddress(intent.usdtContract)) return "other_contract";
  if (tx.toAddress !== intent.to) return "other_recipient";
  if (tx.amountAtomic !== intent.amountAtomic) return "other_amount";
  if (callValue !== 0n) return "call_value";
  if (data !== transferCallData(intent)) return "extra_data";
  return undefined;
}

export function checkSignedTransfer(input: string, intent: SendIntent, nowMs: number): SignedTransferCheck {
  const verified = verifyBroadcast({ input, nowMs, usdtContract: intent.usdtContract });
  if (!verified.ok) return verified;
  const contract = decodeRawData(String(verified.signedTx["raw_data_hex"]).toLowerCase()).contracts[0]!;
  const data = contract.value["data"]?.kind === "bytes" ? contract.value["data"].hex.toLowerCase() : "";
  const callValue = contract.value["call_value"]?.kind === "int" ? contract.value["call_value"].value : 0n;
  const mismatch = mismatchOf(verified.tx, data, callValue, intent);
  return mismatch === undefined ? verified : { ok: false, reason: "mismatch", mismatch, tx: verified.tx };
}
