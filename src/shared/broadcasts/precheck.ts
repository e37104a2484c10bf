import { jsonTooDeep } from "../../platform/json-depth.js";
import { mulSun } from "../money.js";
import {
  estimateResource,
  RESOURCE_ESTIMATES,
  verifySignedTransaction,
  type ContractDetails,
  type MalformedProblem,
  type ProvisionedResource,
  type TxKind,
  type TxRefusal,
  type VerifiedTransaction,
} from "../tron/index.js";

/**
 * Local checks of a signed transaction before anything reaches the service,
 * and the summary the user confirms. Pure: the clock and prices come in.
 */

/** Telegram documents and the service both stop at 1 MiB (service-api.md section 8). */
export const MAX_SIGNED_TX_BYTES = 1_048_576;

/**
 * A real transaction nests 6 levels (tx, raw_data, contract[], contract,
 * parameter, value); deeper JSON is refused before it is parsed or walked,
 * so nothing hostile reaches the store or the service.
 */
export const MAX_TX_DEPTH = 16;
/** Keys that change how JavaScript or a serializer treats the object; no transaction has them. */
const HOSTILE_KEYS: ReadonlySet<string> = new Set(["toJSON", "__proto__"]);

/** Why a signed transaction is refused locally: the chain's reasons, or text that is no transaction at all. */
export type PrecheckRefusal =
  | TxRefusal
  /** `at` when the break can be located (the parser's own message is English prose, so only numbers are kept). */
  | { reason: "not_json"; at?: JsonErrorAt }
  | { reason: "too_large"; bytes: number; max: number };

export type PrecheckRejection = PrecheckRefusal["reason"];

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
  /** usdt: token smallest units (6 decimals); trc20: the token's raw units; TRC10: the token amount. */
  amountAtomic?: string;
  /** TRX in sun: sent, staked, unstaked or delegated. */
  amountSun?: string;
  contractAddress?: string;
  details?: ContractDetails;
  /** Present and non-zero when the transaction signs through another permission than the owner's. */
  permissionId?: number;
  /** The signed memo (raw_data.data), hex as signed: shown, never interpreted. */
  memoHex?: string;
  expirationMs: number;
  resource: ProvisionedResource;
  /** One line, or two for a USDT transfer (existing holder / first-time recipient). */
  estimates: FeeEstimate[];
}

export type PrecheckResult = { ok: true; signedTx: Record<string, unknown>; summary: BroadcastSummary } | ({ ok: false } & PrecheckRefusal);

export interface PrecheckInput {
  /** JSON text as typed or read from a document, or an already parsed value. */
  input: unknown;
  nowMs: number;
  baseUnitPriceSun: number;
  usdtContract?: string;
}

/** Refused on the text before it is parsed; a parsed value is walked by `hostileStructure`. */
const TOO_DEEP = { ok: false, reason: "malformed", problem: { code: "too_deep", maxDepth: MAX_TX_DEPTH } } as const;

function parse(input: unknown): { ok: true; value: unknown } | ({ ok: false } & PrecheckRefusal) {
  if (typeof input !== "string") return { ok: true, value: input };
  const bytes = Buffer.byteLength(input, "utf8");
  if (bytes > MAX_SIGNED_TX_BYTES) return { ok: false, reason: "too_large", bytes, max: MAX_SIGNED_TX_BYTES };
  if (jsonTooDeep(input, MAX_TX_DEPTH)) return TOO_DEEP;
  try {
    return { ok: true, value: JSON.parse(input) as unknown };
  } catch {
    const at = jsonErrorAt(input);
    return at === undefined ? { ok: false, reason: "not_json" } : { ok: false, reason: "not_json", at };
  }
}

/** Where a JSON text goes wrong: 1-based line and column; `end` when it is only cut short. */
export interface JsonErrorAt {
  line: number;
  column: number;
  end: boolean;
}

/** True when `prefix` is wrong in itself, not merely unfinished. */
function brokenPrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (e) {
    const message = e instanceof Error ? e.message : "";
    if (message.includes("end of JSON input")) return false;
    const at = /position (\d+)/.exec(message);
    return !(at && Number(at[1]) >= prefix.length);
  }
}

/**
 * The first character at which no continuation can make `text` valid JSON,
 * found by bisecting prefixes (V8 names no position for some errors, and
 * its message is not for users). Undefined when `text` is valid.
 */
export function jsonErrorAt(text: string): JsonErrorAt | undefined {
  if (!brokenPrefix(text)) {
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      return position(text, text.length, true);
    }
  }
  // Invariant: text[0..lo) is not broken, text[0..hi) is.
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (brokenPrefix(text.slice(0, mid))) hi = mid;
    else lo = mid;
  }
  return position(text, hi - 1, false);
}

function position(text: string, index: number, end: boolean): JsonErrorAt {
  const before = text.slice(0, index);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines.at(-1)!.length + 1, end };
}

/** Why `value` cannot be kept and passed on as it is, or undefined; iterative, so no depth overflows it. */
export function hostileStructure(value: unknown): MalformedProblem | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth } = top;
    if (typeof node !== "object" || node === null) continue;
    if (depth > MAX_TX_DEPTH) return { code: "too_deep", maxDepth: MAX_TX_DEPTH };
    for (const key of Object.keys(node)) {
      if (!Array.isArray(node) && HOSTILE_KEYS.has(key)) return { code: "hostile_field", field: key };
      stack.push({ node: (node as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return undefined;
}

/** A pasted text that is meant as a signed transaction (an object with txID or raw_data, possibly wrapped). */
export function looksLikeSignedTransaction(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || Buffer.byteLength(trimmed, "utf8") > MAX_SIGNED_TX_BYTES) return false;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return false;
  }
  const tx = unwrap(value);
  return typeof tx === "object" && tx !== null && !Array.isArray(tx) && ("txID" in tx || "raw_data" in tx);
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

/** A transaction that passed every local check, before it is priced. */
export type VerifiedBroadcast = { ok: true; signedTx: Record<string, unknown>; tx: VerifiedTransaction } | ({ ok: false } & PrecheckRefusal);

/** The checks of `precheckBroadcast` without the prices: parse, structure, signature, expiry. */
export function verifyBroadcast({ input, nowMs, usdtContract }: Omit<PrecheckInput, "baseUnitPriceSun">): VerifiedBroadcast {
  const parsed = parse(input);
  if (!parsed.ok) return parsed;
  const hostile = hostileStructure(parsed.value);
  if (hostile !== undefined) return { ok: false, reason: "malformed", problem: hostile };
  const value = unwrap(parsed.value);
  const verified = verifySignedTransaction(value, nowMs, usdtContract === undefined ? {} : { usdtContract });
  if (!verified.ok) return verified;
  return { ok: true, signedTx: value as Record<string, unknown>, tx: verified.tx };
}

/** What the user confirms for a verified transaction, its fees at the base unit price. */
export function summarizeBroadcast(tx: VerifiedTransaction, baseUnitPriceSun: number): BroadcastSummary {
  const fee = (units: number): string => mulSun(units, baseUnitPriceSun).toString();
  let resource: ProvisionedResource = "ENERGY";
  let estimates: FeeEstimate[];
  if (tx.kind === "usdt") {
    estimates = [
      { units: RESOURCE_ESTIMATES.usdtExistingHolder, feeSun: fee(RESOURCE_ESTIMATES.usdtExistingHolder), recipient: "holder" },
      { units: RESOURCE_ESTIMATES.usdtNewHolder, feeSun: fee(RESOURCE_ESTIMATES.usdtNewHolder), recipient: "first_time" },
    ];
  } else {
    const estimate = estimateResource(tx.kind, undefined, tx.bandwidthBytes);
    resource = estimate.resource;
    estimates = [{ units: estimate.amount, feeSun: fee(estimate.amount) }];
  }
  return {
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
    ...(tx.details === undefined ? {} : { details: tx.details }),
    ...(tx.permissionId === 0 ? {} : { permissionId: tx.permissionId }),
    ...(tx.memoHex === undefined ? {} : { memoHex: tx.memoHex }),
  };
}

export function precheckBroadcast({ baseUnitPriceSun, ...input }: PrecheckInput): PrecheckResult {
  const verified = verifyBroadcast(input);
  if (!verified.ok) return verified;
  return { ok: true, signedTx: verified.signedTx, summary: summarizeBroadcast(verified.tx, baseUnitPriceSun) };
}
