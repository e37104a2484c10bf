import { createHash } from "node:crypto";
import { utils } from "tronweb";
import { fromHexAddress, toHexAddress } from "./address.js";

/**
 * Offline checks of a signed transaction before it is handed to the service
 * (service-api.md section 4, POST /v1/broadcasts). Pure: no network, and
 * total: any input, however broken, yields a result, never an exception.
 */

export const USDT_MAINNET_CONTRACT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
/** keccak256("transfer(address,uint256)")[0..4]. */
export const TRC20_TRANSFER_SELECTOR = "a9059cbb";
/** Selector (8) + two 32-byte words (128). */
const TRC20_TRANSFER_DATA_LENGTH = 136;
/** Under this much time left the service answers `broadcast.tx_expired`. */
export const EXPIRED_BELOW_MS = 30_000;
/** Under this much time left (and not expired) it answers `broadcast.insufficient_time`. */
export const MIN_TIME_LEFT_MS = 75_000;

export type TxRejection =
  | "not_object"
  | "malformed"
  | "txid_mismatch"
  | "raw_data_mismatch"
  | "no_signature"
  | "bad_signature"
  | "multiple_contracts"
  | "expired"
  | "insufficient_time";

export type TxKind = "usdt" | "trx" | "contract";

export interface VerifiedTransaction {
  txId: string;
  contractType: string;
  /** Base58. */
  ownerAddress: string;
  expirationMs: number;
  kind: TxKind;
  /** Base58 recipient (usdt: the token recipient; trx: to_address). */
  toAddress?: string;
  /** usdt only: exact amount in the token's smallest unit (6 decimals). */
  amountAtomic?: string;
  /** trx only: exact amount in sun. */
  amountSun?: string;
  /** Base58 contract called (TriggerSmartContract only). */
  contractAddress?: string;
}

export type TxVerification =
  | { ok: true; tx: VerifiedTransaction }
  | { ok: false; reason: TxRejection; detail?: string };

export interface VerifyOptions {
  /** Base58 or hex address of the stablecoin contract; mainnet USDT by default. */
  usdtContract?: string;
}

type Json = Record<string, unknown>;

function isPlainObject(v: unknown): v is Json {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const EVEN_HEX = /^(?:[0-9a-fA-F]{2})+$/;
const SIGNATURE_HEX = /^[0-9a-fA-F]{130}$/;

function reject(reason: TxRejection, detail?: string): TxVerification {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Lower-case hex sha256 of the raw bytes: the id the signer actually signed. */
export function deriveTxId(rawDataHex: string): string {
  return createHash("sha256").update(Buffer.from(rawDataHex, "hex")).digest("hex");
}

interface DecodedContract {
  value: Json;
  expiration: number | undefined;
}

/**
 * Reads contract[0] back out of raw_data_hex, which is what was signed.
 * `undefined` for types tronweb has no deserializer for.
 */
function decodeFromHex(type: string, rawDataHex: string): DecodedContract | undefined {
  try {
    const decoded = utils.deserializeTx.deserializeTransaction(type, rawDataHex) as unknown;
    if (!isPlainObject(decoded) || !Array.isArray(decoded.contract)) return undefined;
    const c0 = decoded.contract[0] as unknown;
    if (!isPlainObject(c0) || !isPlainObject(c0.parameter) || !isPlainObject(c0.parameter.value)) return undefined;
    const exp = decoded.expiration;
    return { value: c0.parameter.value, expiration: typeof exp === "number" ? exp : undefined };
  } catch {
    return undefined;
  }
}

function addressField(v: unknown): string | null {
  return typeof v === "string" ? fromHexAddress(v) : null;
}

/**
 * Verifies a signed transaction; checks run in a fixed order and the first
 * failure wins (see TxRejection). `nowMs` is the caller's clock so the
 * expiration windows are testable.
 */
export function verifySignedTransaction(input: unknown, nowMs: number, options: VerifyOptions = {}): TxVerification {
  if (!isPlainObject(input)) return reject("not_object", "the signed transaction must be a JSON object");
  const { txID, raw_data: rawData, raw_data_hex: rawDataHex, signature } = input;
  if (typeof txID !== "string" || !HEX64.test(txID)) return reject("malformed", "txID must be 64 hex characters");
  if (typeof rawDataHex !== "string" || !EVEN_HEX.test(rawDataHex)) {
    return reject("malformed", "raw_data_hex must be a non-empty hex string");
  }
  if (!isPlainObject(rawData)) return reject("malformed", "raw_data must be an object");
  const contracts = rawData.contract;
  if (!Array.isArray(contracts) || contracts.length === 0) return reject("malformed", "raw_data.contract must be a non-empty array");
  if (signature !== undefined && signature !== null) {
    if (!Array.isArray(signature) || !signature.every((s) => typeof s === "string")) {
      return reject("malformed", "signature must be an array of hex strings");
    }
  }
  if (contracts.length !== 1) return reject("multiple_contracts", `expected 1 contract, got ${contracts.length}`);
  const c0 = contracts[0] as unknown;
  if (!isPlainObject(c0) || typeof c0.type !== "string" || !isPlainObject(c0.parameter) || !isPlainObject(c0.parameter.value)) {
    return reject("malformed", "raw_data.contract[0] must have a type and parameter.value");
  }
  const contractType = c0.type;

  const derived = deriveTxId(rawDataHex);
  if (derived !== txID.toLowerCase()) {
    return reject("txid_mismatch", `txID mismatch: declared=${txID} derived=${derived}`);
  }

  try {
    if (!utils.transaction.txCheck(input)) {
      return reject("raw_data_mismatch", "raw_data does not serialize to raw_data_hex");
    }
  } catch (e) {
    const text = errorText(e);
    if (text.startsWith("Unsupported transaction type")) return reject("malformed", text);
    return reject("raw_data_mismatch", `raw_data cannot be serialized: ${text}`);
  }

  // From here on the JSON agrees with the signed bytes; prefer the bytes anyway.
  const decoded = decodeFromHex(contractType, rawDataHex);
  const value = decoded?.value ?? c0.parameter.value;
  const ownerAddress = addressField(value.owner_address) ?? addressField(c0.parameter.value.owner_address);
  if (ownerAddress === null) return reject("malformed", "owner_address is not a valid address");
  const rawExpiration = decoded?.expiration ?? rawData.expiration;
  const expirationMs = typeof rawExpiration === "number" && Number.isSafeInteger(rawExpiration) ? rawExpiration : 0;

  const sigs: readonly unknown[] = Array.isArray(signature) ? signature : [];
  if (sigs.length === 0) return reject("no_signature", "the transaction carries no signature");
  const ownerHex = toHexAddress(ownerAddress);
  const signedByOwner = sigs.some((sig) => {
    if (typeof sig !== "string" || !SIGNATURE_HEX.test(sig)) return false;
    try {
      return utils.crypto.ecRecover(derived, sig).toLowerCase() === ownerHex;
    } catch {
      return false;
    }
  });
  if (!signedByOwner) return reject("bad_signature", `Signature does not match fromAddress ${ownerAddress}`);

  const left = expirationMs - nowMs;
  if (left < EXPIRED_BELOW_MS) return reject("expired", `expiration ${expirationMs} leaves ${left} ms (< ${EXPIRED_BELOW_MS})`);
  if (left < MIN_TIME_LEFT_MS) {
    return reject("insufficient_time", `expiration ${expirationMs} leaves ${left} ms (< ${MIN_TIME_LEFT_MS})`);
  }

  const base: VerifiedTransaction = { txId: derived, contractType, ownerAddress, expirationMs, kind: "contract" };
  if (contractType === "TransferContract") return readTrx(base, value);
  if (contractType === "TriggerSmartContract") return readTrigger(base, value, options);
  return { ok: true, tx: base };
}

function readTrx(base: VerifiedTransaction, value: Json): TxVerification {
  const to = addressField(value.to_address);
  const amount = value.amount;
  if (to === null) return reject("malformed", "to_address is not a valid address");
  // google-protobuf reads int64 as a JS number; beyond 2^53 it would be rounded.
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 0) {
    return reject("malformed", "amount is not an exact non-negative integer");
  }
  return { ok: true, tx: { ...base, kind: "trx", toAddress: to, amountSun: String(amount) } };
}

function readTrigger(base: VerifiedTransaction, value: Json, options: VerifyOptions): TxVerification {
  const contractAddress = addressField(value.contract_address);
  if (contractAddress === null) return reject("malformed", "contract_address is not a valid address");
  const tx: VerifiedTransaction = { ...base, contractAddress };
  const usdtHex = toHexAddress(options.usdtContract ?? USDT_MAINNET_CONTRACT);
  const data = typeof value.data === "string" ? value.data.toLowerCase() : "";
  const isTransfer =
    toHexAddress(contractAddress) === usdtHex &&
    data.startsWith(TRC20_TRANSFER_SELECTOR) &&
    data.length === TRC20_TRANSFER_DATA_LENGTH;
  if (!isTransfer) return { ok: true, tx };
  try {
    const decoded = utils.abi.decodeParams(["to", "value"], ["address", "uint256"], data, true) as unknown;
    if (!isPlainObject(decoded) || typeof decoded.to !== "string" || typeof decoded.value !== "bigint") {
      return { ok: true, tx };
    }
    const to = fromHexAddress(decoded.to);
    if (to === null) return reject("malformed", "transfer recipient is not a valid address");
    return { ok: true, tx: { ...tx, kind: "usdt", toAddress: to, amountAtomic: decoded.value.toString() } };
  } catch (e) {
    return reject("malformed", `transfer data cannot be decoded: ${errorText(e)}`);
  }
}
