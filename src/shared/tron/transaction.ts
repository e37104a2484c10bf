import { createHash } from "node:crypto";
import { fromHexAddress, toHexAddress } from "./address.js";
import { UnsupportedContractError, type DecodedValue } from "./contracts.js";
import { ProtobufError, varintSize } from "./protobuf.js";
import { decodeRawData, rawDataDisagreement, type DecodedContract, type DecodedRaw } from "./raw-data.js";
import type { MalformedProblem, TxRefusal } from "./refusal.js";
import { recoverSigner } from "./signature.js";

/**
 * Offline checks of a signed transaction before it is handed to the service
 * (service-api.md section 4, POST /v1/broadcasts), agreeing with java-tron
 * case by case: raw_data_hex is decoded as the chain decodes it, signatures
 * are recovered as java-tron recovers them (high s included) and counted as
 * TransactionCapsule.checkWeight counts them. Pure and total: any input
 * yields a result, never an exception; the clock is a parameter.
 */

export const USDT_MAINNET_CONTRACT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
/** keccak256("transfer(address,uint256)")[0..4]. */
export const TRC20_TRANSFER_SELECTOR = "a9059cbb";
/** Selector (4 bytes) + two 32-byte words. */
const TRC20_TRANSFER_DATA_BYTES = 68;
/** Under this much time left the service answers `broadcast.tx_expired`. */
export const EXPIRED_BELOW_MS = 30_000;
/** Under this much time left (and not expired) it answers `broadcast.insufficient_time`. */
export const MIN_TIME_LEFT_MS = 75_000;
/** java-tron refuses an expiration more than 24 h past its head block (MAXIMUM_TIME_UNTIL_EXPIRATION). */
export const MAX_TIME_LEFT_MS = 24 * 60 * 60_000;
/** The network's TotalSignNum: no transaction may carry more signatures. */
export const MAX_SIGNATURES = 5;
/** java-tron charges each contract's result as 64 more bytes of bandwidth (MAX_RESULT_SIZE_IN_TX). */
const RESULT_BYTES = 64;

export type { TxRefusal, TxRejection } from "./refusal.js";

/** usdt/trc20: a token `transfer`; trx: TransferContract; system: another system contract (bandwidth); contract: any other contract call (energy). */
export type TxKind = "usdt" | "trx" | "trc20" | "system" | "contract";

/** What a system contract does, in the words a summary needs. */
export interface ContractDetails {
  /** ENERGY, BANDWIDTH or TRON_POWER for staking and delegation. */
  resource?: string;
  /** TRC10 token id (TransferAssetContract). */
  assetName?: string;
  votes?: { address: string; count: string }[];
  lock?: boolean;
  /** TriggerSmartContract: TRX sent along with the call, in sun. */
  callValueSun?: string;
}

export interface VerifiedTransaction {
  txId: string;
  contractType: string;
  /** Base58. */
  ownerAddress: string;
  expirationMs: number;
  kind: TxKind;
  /** Base58: token or TRX recipient, receiver of a delegation, account created. */
  toAddress?: string;
  /** usdt/trc20: exact amount in the token's smallest unit. TRC10: the token amount. */
  amountAtomic?: string;
  /** Exact amount of TRX in sun moved, staked, unstaked or delegated. */
  amountSun?: string;
  /** Base58 contract called (TriggerSmartContract, contract settings). */
  contractAddress?: string;
  details?: ContractDetails;
  /** 0 is the owner permission; anything else signs through another permission. */
  permissionId: number;
  /** Base58 signers, in signature order. */
  signers: string[];
  /** Some signature carries a high s (valid on chain; kept byte for byte). */
  highS: boolean;
  /** Bandwidth the chain would charge: the serialized transaction plus 64 bytes of result. */
  bandwidthBytes: number;
  /** raw_data.data as signed (hex), when the transaction carries a memo. */
  memoHex?: string;
}

export type TxVerification = { ok: true; tx: VerifiedTransaction } | ({ ok: false } & TxRefusal);

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

function reject(refusal: TxRefusal): TxVerification {
  return { ok: false, ...refusal };
}

const malformed = (problem: MalformedProblem): TxVerification => reject({ reason: "malformed", problem });

/** Lower-case hex sha256 of the raw bytes: the id the signer actually signed. */
export function deriveTxId(rawDataHex: string): string {
  return createHash("sha256").update(Buffer.from(rawDataHex, "hex")).digest("hex");
}

function b58(hex: string): string {
  return fromHexAddress(hex) ?? hex;
}

function bandwidthOf(rawDataHex: string, signatures: readonly string[]): number {
  const raw = rawDataHex.length / 2;
  let size = 1 + varintSize(raw) + raw;
  for (const s of signatures) size += 1 + varintSize(s.length / 2) + s.length / 2;
  return size + RESULT_BYTES;
}

/**
 * Verifies a signed transaction; checks run in a fixed order and the first
 * failure wins (see TxRejection). `nowMs` is the caller's clock.
 */
export function verifySignedTransaction(input: unknown, nowMs: number, options: VerifyOptions = {}): TxVerification {
  if (!isPlainObject(input)) return reject({ reason: "not_object" });
  const { txID, raw_data: rawData, raw_data_hex: rawDataHex, signature } = input;
  if (typeof txID !== "string" || !HEX64.test(txID)) return malformed({ code: "field_shape", field: "txID", expected: "hex64" });
  if (typeof rawDataHex !== "string" || !EVEN_HEX.test(rawDataHex)) return malformed({ code: "field_shape", field: "raw_data_hex", expected: "hex" });
  if (!isPlainObject(rawData)) return malformed({ code: "field_shape", field: "raw_data", expected: "object" });
  if (signature !== undefined && signature !== null && (!Array.isArray(signature) || !signature.every((s) => typeof s === "string"))) {
    return malformed({ code: "field_shape", field: "signature", expected: "hex_list" });
  }
  const derived = deriveTxId(rawDataHex);
  if (derived !== txID.toLowerCase()) return reject({ reason: "txid_mismatch", declared: txID, derived });

  let raw: DecodedRaw;
  try {
    raw = decodeRawData(rawDataHex.toLowerCase());
  } catch (e) {
    if (e instanceof UnsupportedContractError)
      return reject({ reason: "unsupported_contract", contractType: e.contractType, ...(e.typeName === undefined ? {} : { typeName: e.typeName }) });
    return malformed({ code: "bytes_unreadable", diagnostic: e instanceof ProtobufError ? e.message : "unreadable" });
  }
  if (raw.contracts.length === 0) return malformed({ code: "no_contract" });
  if (raw.contracts.length !== 1) return reject({ reason: "multiple_contracts", count: raw.contracts.length });
  const disagreement = rawDataDisagreement(rawData, raw);
  if (disagreement !== undefined) return reject({ reason: "raw_data_mismatch", problem: disagreement });
  const c0 = raw.contracts[0]!;
  const owner = c0.value["owner_address"];
  const ownerHex = owner?.kind === "address" ? owner.hex : "";
  if (ownerHex === "") return malformed({ code: "no_owner" });

  const sigs = Array.isArray(signature) ? signature : [];
  const signed = checkSignatures(derived, sigs, ownerHex, c0.permissionId);
  if (!signed.ok) return signed;

  if (raw.expiration > BigInt(Number.MAX_SAFE_INTEGER) || raw.expiration < 0n) return malformed({ code: "expiration_out_of_range" });
  const expirationMs = Number(raw.expiration);
  const left = expirationMs - nowMs;
  if (left < EXPIRED_BELOW_MS) return reject({ reason: "expired", expirationMs, leftMs: left, limitMs: EXPIRED_BELOW_MS });
  if (left < MIN_TIME_LEFT_MS) return reject({ reason: "insufficient_time", expirationMs, leftMs: left, limitMs: MIN_TIME_LEFT_MS });
  if (left > MAX_TIME_LEFT_MS) return reject({ reason: "expiration_too_far", expirationMs, leftMs: left, limitMs: MAX_TIME_LEFT_MS });

  const base: VerifiedTransaction = {
    txId: derived,
    contractType: c0.typeName,
    ownerAddress: b58(ownerHex),
    expirationMs,
    kind: "system",
    permissionId: c0.permissionId,
    signers: signed.signers.map(b58),
    highS: signed.highS,
    bandwidthBytes: bandwidthOf(rawDataHex, sigs),
    ...(raw.data === "" ? {} : { memoHex: raw.data }),
  };
  return { ok: true, tx: describe(base, c0, options) };
}

type SignatureCheck = { ok: true; signers: string[]; highS: boolean } | ({ ok: false } & TxRefusal);

/** TransactionCapsule.checkWeight, with the owner as the only key the service checks against. */
function checkSignatures(txId: string, sigs: readonly string[], ownerHex: string, permissionId: number): SignatureCheck {
  if (sigs.length === 0) return { ok: false, reason: "no_signature" };
  if (sigs.length > MAX_SIGNATURES) return { ok: false, reason: "too_many_signatures", count: sigs.length, max: MAX_SIGNATURES };
  const signers: string[] = [];
  let highS = false;
  for (const [i, sig] of sigs.entries()) {
    const r = recoverSigner(txId, sig);
    if (!r.ok) return { ok: false, reason: "signature_format", index: i + 1, problem: r.problem };
    // java-tron (since 4.7.1) keys this by the signer's address, so a high-s
    // copy of the same signature is the same signer twice.
    if (signers.includes(r.address)) return { ok: false, reason: "duplicate_signature", signer: b58(r.address) };
    signers.push(r.address);
    highS ||= r.highS;
  }
  if (permissionId === 0 && signers.length > 1) {
    // The owner permission of an ordinary account holds one key: java-tron
    // answers "Signature count is 2 more than key counts of permission : 1".
    const others = signers.filter((a) => a !== ownerHex).map(b58);
    return { ok: false, reason: "extra_signature", count: signers.length, others };
  }
  if (!signers.includes(ownerHex)) {
    const by = signers.map(b58);
    return permissionId === 0
      ? { ok: false, reason: "bad_signature", owner: b58(ownerHex), signers: by }
      : { ok: false, reason: "permission_not_owner", permissionId, owner: b58(ownerHex), signers: by };
  }
  return { ok: true, signers, highS };
}

function addr(v: DecodedValue | undefined): string | undefined {
  return v?.kind === "address" && v.hex !== "" ? b58(v.hex) : undefined;
}

function int(v: DecodedValue | undefined): string | undefined {
  return v?.kind === "int" ? v.value.toString() : undefined;
}

function named(v: DecodedValue | undefined): string | undefined {
  return v?.kind === "resource" ? v.name : undefined;
}

/** Fills in what the transaction does, from the decoded bytes only. */
function describe(base: VerifiedTransaction, c: DecodedContract, options: VerifyOptions): VerifiedTransaction {
  const v = c.value;
  const set = (extra: { [K in keyof VerifiedTransaction]?: VerifiedTransaction[K] | undefined }): VerifiedTransaction => {
    const out: VerifiedTransaction = { ...base };
    for (const [k, val] of Object.entries(extra)) if (val !== undefined) (out as unknown as Json)[k] = val;
    return out;
  };
  switch (c.typeName) {
    case "TransferContract":
      return set({ kind: "trx", toAddress: addr(v["to_address"]), amountSun: int(v["amount"]) });
    case "TriggerSmartContract":
      return readTrigger(base, v, options);
    case "TransferAssetContract":
      return set({
        toAddress: addr(v["to_address"]),
        amountAtomic: int(v["amount"]),
        details: { assetName: v["asset_name"]?.kind === "bytes" ? Buffer.from(v["asset_name"].hex, "hex").toString("utf8") : "" },
      });
    case "VoteWitnessContract":
      return set({
        details: { votes: v["votes"]?.kind === "votes" ? v["votes"].votes.map((x) => ({ address: b58(x.address), count: x.count.toString() })) : [] },
      });
    case "AccountCreateContract":
      return set({ toAddress: addr(v["account_address"]) });
    case "FreezeBalanceV2Contract":
    case "FreezeBalanceContract":
      return set({ amountSun: int(v["frozen_balance"]), toAddress: addr(v["receiver_address"]), details: { resource: named(v["resource"]) ?? "BANDWIDTH" } });
    case "UnfreezeBalanceV2Contract":
      return set({ amountSun: int(v["unfreeze_balance"]), details: { resource: named(v["resource"]) ?? "BANDWIDTH" } });
    case "UnfreezeBalanceContract":
      return set({ toAddress: addr(v["receiver_address"]), details: { resource: named(v["resource"]) ?? "BANDWIDTH" } });
    case "DelegateResourceContract":
    case "UnDelegateResourceContract":
      return set({
        amountSun: int(v["balance"]),
        toAddress: addr(v["receiver_address"]),
        details: { resource: named(v["resource"]) ?? "BANDWIDTH", lock: v["lock"]?.kind === "bool" && v["lock"].value },
      });
    case "ClearABIContract":
    case "UpdateSettingContract":
    case "UpdateEnergyLimitContract":
      return set({ contractAddress: addr(v["contract_address"]) });
    default:
      return base;
  }
}

function readTrigger(base: VerifiedTransaction, v: Record<string, DecodedValue>, options: VerifyOptions): VerifiedTransaction {
  const contractAddress = addr(v["contract_address"]) ?? "";
  const callValue = int(v["call_value"]) ?? "0";
  const tx: VerifiedTransaction = { ...base, kind: "contract", contractAddress, ...(callValue === "0" ? {} : { details: { callValueSun: callValue } }) };
  const data = v["data"]?.kind === "bytes" ? v["data"].hex : "";
  if (!data.startsWith(TRC20_TRANSFER_SELECTOR) || data.length < TRC20_TRANSFER_DATA_BYTES * 2) return tx;
  // The token contract reads the low 20 bytes of the address word, so
  // wallet-cli's `00…0041<20 bytes>` and the usual `00…00<20 bytes>` land alike.
  const to = b58(`41${data.slice(8 + 24, 8 + 64)}`);
  const amountAtomic = BigInt(`0x${data.slice(8 + 64, 8 + 128)}`).toString();
  const usdtHex = toHexAddress(options.usdtContract ?? USDT_MAINNET_CONTRACT);
  const kind: TxKind = toHexAddress(contractAddress) === usdtHex ? "usdt" : "trc20";
  return { ...tx, kind, toAddress: to, amountAtomic };
}
