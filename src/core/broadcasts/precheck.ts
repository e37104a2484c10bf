import { mulSun } from "../money.js";
import {
  RESOURCE_ESTIMATES,
  verifySignedTransaction,
  type ProvisionedResource,
  type TxKind,
  type TxRejection,
} from "../tron/index.js";

/**
 * Local checks of a signed transaction before anything reaches the service,
 * and the summary the user confirms. Pure: the clock and prices come in.
 */

/** Telegram documents and the service both stop at 1 MiB (service-api.md section 8). */
export const MAX_SIGNED_TX_BYTES = 1_048_576;

export type PrecheckRejection = TxRejection | "not_json" | "too_large";

export interface FeeEstimate {
  /** Units of the provisioned resource. */
  units: number;
  /** units × baseUnitPriceSun: broadcasts are billed at the base price. */
  feeSun: string;
  /** usdt only: which recipient case this line is for. */
  recipient?: "holder" | "first_time";
}

export interface BroadcastSummary {
  txId: string;
  kind: TxKind;
  contractType: string;
  fromAddress: string;
  toAddress?: string;
  /** usdt: token smallest units (6 decimals). */
  amountAtomic?: string;
  /** trx: sun. */
  amountSun?: string;
  contractAddress?: string;
  expirationMs: number;
  resource: ProvisionedResource;
  /** One line, or two for a USDT transfer (existing holder / first-time recipient). */
  estimates: FeeEstimate[];
}

export type PrecheckResult =
  | { ok: true; signedTx: Record<string, unknown>; summary: BroadcastSummary }
  | { ok: false; reason: PrecheckRejection; detail?: string };

export interface PrecheckInput {
  /** JSON text as typed or read from a document, or an already parsed value. */
  input: unknown;
  nowMs: number;
  baseUnitPriceSun: number;
  usdtContract?: string;
}

function parse(input: unknown): { ok: true; value: unknown } | { ok: false; reason: PrecheckRejection; detail?: string } {
  if (typeof input !== "string") return { ok: true, value: input };
  if (Buffer.byteLength(input, "utf8") > MAX_SIGNED_TX_BYTES) return { ok: false, reason: "too_large" };
  try {
    return { ok: true, value: JSON.parse(input) as unknown };
  } catch (e) {
    return { ok: false, reason: "not_json", detail: e instanceof Error ? e.message : String(e) };
  }
}

/** Wallets and scripts often wrap the transaction; accept `{signedTx: {...}}` and `{transaction: {...}}`. */
function unwrap(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  if (!("txID" in v)) {
    for (const key of ["signedTx", "transaction"]) {
      const inner = v[key];
      if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) return inner;
    }
  }
  return value;
}

export function precheckBroadcast({ input, nowMs, baseUnitPriceSun, usdtContract }: PrecheckInput): PrecheckResult {
  const parsed = parse(input);
  if (!parsed.ok) return parsed;
  const value = unwrap(parsed.value);
  const verified = verifySignedTransaction(value, nowMs, usdtContract === undefined ? {} : { usdtContract });
  if (!verified.ok) {
    return verified.detail === undefined
      ? { ok: false, reason: verified.reason }
      : { ok: false, reason: verified.reason, detail: verified.detail };
  }
  const tx = verified.tx;
  const fee = (units: number): string => mulSun(units, baseUnitPriceSun).toString();
  let resource: ProvisionedResource = "ENERGY";
  let estimates: FeeEstimate[];
  if (tx.kind === "usdt") {
    estimates = [
      { units: RESOURCE_ESTIMATES.usdtExistingHolder, feeSun: fee(RESOURCE_ESTIMATES.usdtExistingHolder), recipient: "holder" },
      { units: RESOURCE_ESTIMATES.usdtNewHolder, feeSun: fee(RESOURCE_ESTIMATES.usdtNewHolder), recipient: "first_time" },
    ];
  } else if (tx.kind === "trx") {
    resource = "BANDWIDTH";
    estimates = [{ units: RESOURCE_ESTIMATES.trxTransferBandwidth, feeSun: fee(RESOURCE_ESTIMATES.trxTransferBandwidth) }];
  } else {
    estimates = [{ units: RESOURCE_ESTIMATES.otherContractEnergy, feeSun: fee(RESOURCE_ESTIMATES.otherContractEnergy) }];
  }
  const summary: BroadcastSummary = {
    txId: tx.txId,
    kind: tx.kind,
    contractType: tx.contractType,
    fromAddress: tx.ownerAddress,
    expirationMs: tx.expirationMs,
    resource,
    estimates,
    ...(tx.toAddress === undefined ? {} : { toAddress: tx.toAddress }),
    ...(tx.amountAtomic === undefined ? {} : { amountAtomic: tx.amountAtomic }),
    ...(tx.amountSun === undefined ? {} : { amountSun: tx.amountSun }),
    ...(tx.contractAddress === undefined ? {} : { contractAddress: tx.contractAddress }),
  };
  return { ok: true, signedTx: value as Record<string, unknown>, summary };
}
