import { createHash, randomBytes } from "node:crypto";
import { TronWeb, utils } from "tronweb";

/**
 * Builds and signs TRON transactions fully offline for tests (the recipe of
 * shared/examples/tron-offline.mjs): raw_data written by hand with a made-up
 * reference block, serialized by tronweb, signed with a fixed test key.
 * Never use these keys for funds.
 */

export interface TestKey {
  privateKey: string;
  address: string;
}

/** Private keys are sha256("tron-energy-bot test key <name>"). */
export const TEST_KEYS = {
  alice: { privateKey: "de810aafe8915952cfc7a090c00bfaa369668248977a7e6558f01b4a5d60f7f4", address: "TDjASf2HkwgrRPSzV9jt4oGNBTcfGaHfF5" },
  bob: { privateKey: "3fe88764af1ed0de3bd2ac1971dfbc8ed97a37ba94429071afa477704feffc3c", address: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu" },
  carol: { privateKey: "9f6876e02a0b18decfca37ca2f68c87ad280bc2bc07602069058e3e6de94e31d", address: "TRixRpJ2dapVM3Pg4gnxksP9v4FGeZc7A4" },
  dave: { privateKey: "6abfab79272dce1d6ed58664de9b195615e952fa0b31214b0c476825b96d25a3", address: "TEX5d1LtjohjrA3QZ4UKGhmZc6ccReiiCG" },
  erin: { privateKey: "ba4db385c0c1889924250be4d9cc4b0a9418b30432e06decc054a3b1b382c9c6", address: "TX3mcyYyAq76w5xgBwuQFrN6JULPsQRUzs" },
} as const satisfies Record<string, TestKey>;

export const USDT_MAINNET = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

export interface ContractJson {
  type: string;
  parameter: { type_url: string; value: Record<string, unknown> };
  Permission_id?: number;
}

export interface SignedTx {
  visible: boolean;
  txID: string;
  raw_data: {
    contract: ContractJson[];
    ref_block_bytes: string;
    ref_block_hash: string;
    expiration: number;
    timestamp: number;
    fee_limit?: number;
    [k: string]: unknown;
  };
  raw_data_hex: string;
  signature?: string[];
}

function hex(address: string): string {
  return TronWeb.address.toHex(address).toLowerCase();
}

function contract(type: string, value: Record<string, unknown>): ContractJson {
  return { type, parameter: { type_url: `type.googleapis.com/protocol.${type}`, value } };
}

/** Recomputes raw_data_hex and txID from the JSON, drops old signatures, signs. */
export function finalizeAndSign(tx: SignedTx, privateKey: string): SignedTx {
  const pb = utils.transaction.txJsonToPb(tx);
  tx.raw_data_hex = utils.transaction.txPbToRawDataHex(pb).toLowerCase();
  tx.txID = utils.transaction.txPbToTxID(pb).replace(/^0x/, "");
  delete tx.signature;
  utils.crypto.signTransaction(privateKey, tx);
  return tx;
}

export interface BuildCommon {
  privateKey: string;
  expirationMs: number;
  /** raw_data.timestamp; defaults to expirationMs - 600 s. */
  nowMs?: number;
  /** Base58 addresses in the JSON (visible:true) instead of hex. */
  visible?: boolean;
}

export interface SignContractInput extends BuildCommon {
  type: string;
  /** Addresses in hex; converted to base58 when `visible` is set. */
  value: Record<string, unknown>;
  feeLimit?: number;
}

/** Any single-contract transaction, signed by `privateKey`. */
export function signContract(input: SignContractInput): SignedTx {
  const tx: SignedTx = {
    visible: input.visible ?? false,
    txID: "",
    raw_data: {
      contract: [contract(input.type, input.value)],
      ref_block_bytes: "1a2b",
      ref_block_hash: "0011223344556677",
      expiration: input.expirationMs,
      timestamp: input.nowMs ?? input.expirationMs - 600_000,
      ...(input.feeLimit === undefined ? {} : { fee_limit: input.feeLimit }),
    },
    raw_data_hex: "",
  };
  return finalizeAndSign(tx, input.privateKey);
}

function ownerOf(privateKey: string): string {
  const a = utils.address.fromPrivateKey(privateKey);
  if (typeof a !== "string") throw new Error("bad test private key");
  return a;
}

export interface Trc20TransferInput extends BuildCommon {
  to: string;
  amountAtomic: bigint;
  usdtContract?: string;
}

export function trc20TransferData(to: string, amountAtomic: bigint): string {
  const selector = TronWeb.sha3("transfer(address,uint256)").slice(2, 10);
  return selector + utils.abi.encodeParams(["address", "uint256"], [to, amountAtomic]).slice(2);
}

/** A USDT `transfer(to, amount)` call (TriggerSmartContract). */
export function signTrc20Transfer(input: Trc20TransferInput): SignedTx {
  const owner = ownerOf(input.privateKey);
  const token = input.usdtContract ?? USDT_MAINNET;
  const value = input.visible
    ? { data: trc20TransferData(input.to, input.amountAtomic), owner_address: owner, contract_address: token }
    : { data: trc20TransferData(input.to, input.amountAtomic), owner_address: hex(owner), contract_address: hex(token) };
  return signContract({ ...input, type: "TriggerSmartContract", value, feeLimit: 30_000_000 });
}

export interface TrxTransferInput extends BuildCommon {
  to: string;
  amountSun: number;
}

/** A plain TRX TransferContract. */
export function signTrxTransfer(input: TrxTransferInput): SignedTx {
  const owner = ownerOf(input.privateKey);
  const value = input.visible
    ? { amount: input.amountSun, owner_address: owner, to_address: input.to }
    : { amount: input.amountSun, owner_address: hex(owner), to_address: hex(input.to) };
  return signContract({ ...input, type: "TransferContract", value });
}

/** Deep copy, so tampering never touches the original. */
export function cloneTx(tx: SignedTx): SignedTx {
  return structuredClone(tx);
}

/**
 * Changes the TRC20 amount in the JSON while keeping raw_data_hex, txID and
 * signature: the JSON no longer says what was signed.
 */
export function tamperTrc20Amount(tx: SignedTx, amountAtomic: bigint, to: string): SignedTx {
  const copy = cloneTx(tx);
  const c0 = copy.raw_data.contract[0]!;
  c0.parameter.value = { ...c0.parameter.value, data: trc20TransferData(to, amountAtomic) };
  return copy;
}

/** Changes the TRX amount in the JSON only (hex, txID and signature kept). */
export function tamperTrxAmount(tx: SignedTx, amountSun: number): SignedTx {
  const copy = cloneTx(tx);
  const c0 = copy.raw_data.contract[0]!;
  c0.parameter.value = { ...c0.parameter.value, amount: amountSun };
  return copy;
}

/** Keeps the body but replaces the signature with one made by another key. */
export function resignWith(tx: SignedTx, privateKey: string): SignedTx {
  const copy = cloneTx(tx);
  delete copy.signature;
  utils.crypto.signTransaction(privateKey, copy);
  return copy;
}

/** The same transaction with its signature removed. */
export function stripSignature(tx: SignedTx): SignedTx {
  const copy = cloneTx(tx);
  delete copy.signature;
  return copy;
}

/** Declares a different txID (still 64 hex) while keeping the rest. */
export function withDeclaredTxId(tx: SignedTx, txID: string): SignedTx {
  return { ...cloneTx(tx), txID };
}

interface RawPb {
  getContractList(): unknown[];
  addContract(c: unknown): void;
  serializeBinary(): Uint8Array;
}

/**
 * A genuinely two-contract transaction: contract[0] twice, in the JSON and in
 * the signed bytes, correctly hashed and signed.
 */
export function withTwoContracts(tx: SignedTx, privateKey: string): SignedTx {
  const copy = cloneTx(tx);
  const pb = utils.transaction.txJsonToPb(copy) as { getRawData(): RawPb };
  const raw = pb.getRawData();
  raw.addContract(raw.getContractList()[0]);
  const bytes = Buffer.from(raw.serializeBinary());
  copy.raw_data.contract.push(structuredClone(copy.raw_data.contract[0]!));
  copy.raw_data_hex = bytes.toString("hex");
  copy.txID = createHash("sha256").update(bytes).digest("hex");
  delete copy.signature;
  utils.crypto.signTransaction(privateKey, copy);
  return copy;
}

/** A valid address nobody holds a test key for; fresh on each call. */
export function randomAddress(): string {
  const a = utils.address.fromPrivateKey(randomBytes(32).toString("hex"));
  if (typeof a !== "string") throw new Error("address generation failed");
  return a;
}
