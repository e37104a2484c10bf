import { asInt64, ProtobufError, readFields, toHex, WIRE_BYTES, WIRE_VARINT } from "./protobuf.js";

/**
 * The contract types this check can read back out of the signed bytes, with
 * their protobuf fields (java-tron's core/contract/*.proto). A type missing
 * here is refused as unsupported rather than shown without its meaning.
 */

export type FieldKind = "address" | "int" | "bytes" | "resource" | "account_type" | "bool" | "votes";

export type DecodedValue =
  | { kind: "address"; hex: string }
  | { kind: "int"; value: bigint }
  | { kind: "bytes"; hex: string }
  | { kind: "resource" | "account_type"; value: number; name: string }
  | { kind: "bool"; value: boolean }
  | { kind: "votes"; votes: { address: string; count: bigint }[] };

type Schema = Record<number, readonly [name: string, kind: FieldKind]>;

const OWNER = ["owner_address", "address"] as const;
const CONTRACT_ADDRESS = ["contract_address", "address"] as const;

/** Contract type number (Transaction.Contract.ContractType) → name and fields. */
export const CONTRACT_SCHEMAS: Record<number, { name: string; fields: Schema }> = {
  0: { name: "AccountCreateContract", fields: { 1: OWNER, 2: ["account_address", "address"], 3: ["type", "account_type"] } },
  1: { name: "TransferContract", fields: { 1: OWNER, 2: ["to_address", "address"], 3: ["amount", "int"] } },
  2: { name: "TransferAssetContract", fields: { 1: ["asset_name", "bytes"], 2: OWNER, 3: ["to_address", "address"], 4: ["amount", "int"] } },
  4: { name: "VoteWitnessContract", fields: { 1: OWNER, 2: ["votes", "votes"], 3: ["support", "bool"] } },
  10: { name: "AccountUpdateContract", fields: { 1: ["account_name", "bytes"], 2: OWNER } },
  11: {
    name: "FreezeBalanceContract",
    fields: { 1: OWNER, 2: ["frozen_balance", "int"], 3: ["frozen_duration", "int"], 10: ["resource", "resource"], 15: ["receiver_address", "address"] },
  },
  12: { name: "UnfreezeBalanceContract", fields: { 1: OWNER, 10: ["resource", "resource"], 15: ["receiver_address", "address"] } },
  13: { name: "WithdrawBalanceContract", fields: { 1: OWNER } },
  31: {
    name: "TriggerSmartContract",
    fields: { 1: OWNER, 2: CONTRACT_ADDRESS, 3: ["call_value", "int"], 4: ["data", "bytes"], 5: ["call_token_value", "int"], 6: ["token_id", "int"] },
  },
  33: { name: "UpdateSettingContract", fields: { 1: OWNER, 2: CONTRACT_ADDRESS, 3: ["consume_user_resource_percent", "int"] } },
  45: { name: "UpdateEnergyLimitContract", fields: { 1: OWNER, 2: CONTRACT_ADDRESS, 3: ["origin_energy_limit", "int"] } },
  48: { name: "ClearABIContract", fields: { 1: OWNER, 2: CONTRACT_ADDRESS } },
  54: { name: "FreezeBalanceV2Contract", fields: { 1: OWNER, 2: ["frozen_balance", "int"], 3: ["resource", "resource"] } },
  55: { name: "UnfreezeBalanceV2Contract", fields: { 1: OWNER, 2: ["unfreeze_balance", "int"], 3: ["resource", "resource"] } },
  56: { name: "WithdrawExpireUnfreezeContract", fields: { 1: OWNER } },
  57: {
    name: "DelegateResourceContract",
    fields: {
      1: OWNER,
      2: ["resource", "resource"],
      3: ["balance", "int"],
      4: ["receiver_address", "address"],
      5: ["lock", "bool"],
      6: ["lock_period", "int"],
    },
  },
  58: { name: "UnDelegateResourceContract", fields: { 1: OWNER, 2: ["resource", "resource"], 3: ["balance", "int"], 4: ["receiver_address", "address"] } },
  59: { name: "CancelAllUnfreezeV2Contract", fields: { 1: OWNER } },
};

/**
 * Names of the ContractType values this check cannot read (Tron.proto), so a
 * refusal can say which contract it is rather than only its number.
 */
const UNREADABLE_TYPE_NAMES: Record<number, string> = {
  3: "VoteAssetContract",
  5: "WitnessCreateContract",
  6: "AssetIssueContract",
  8: "WitnessUpdateContract",
  9: "ParticipateAssetIssueContract",
  14: "UnfreezeAssetContract",
  15: "UpdateAssetContract",
  16: "ProposalCreateContract",
  17: "ProposalApproveContract",
  18: "ProposalDeleteContract",
  19: "SetAccountIdContract",
  20: "CustomContract",
  30: "CreateSmartContract",
  32: "GetContract",
  41: "ExchangeCreateContract",
  42: "ExchangeInjectContract",
  43: "ExchangeWithdrawContract",
  44: "ExchangeTransactionContract",
  46: "AccountPermissionUpdateContract",
  49: "UpdateBrokerageContract",
  51: "ShieldedTransferContract",
  52: "MarketSellAssetContract",
  53: "MarketCancelOrderContract",
};

/** Thrown for a contract type outside CONTRACT_SCHEMAS; `typeName` is the chain's name for it, when it has one. */
export class UnsupportedContractError extends ProtobufError {
  override name = "UnsupportedContractError";
  readonly typeName: string | undefined;
  constructor(readonly contractType: number) {
    const typeName = UNREADABLE_TYPE_NAMES[contractType];
    super(`${typeName ?? `ContractType ${contractType}`} is not supported`);
    this.typeName = typeName;
  }
}

const RESOURCE_NAMES = ["BANDWIDTH", "ENERGY", "TRON_POWER"] as const;
const ACCOUNT_TYPE_NAMES = ["Normal", "AssetIssue", "Contract"] as const;

/** Every field's default, so a field the bytes leave out still has its meaning. */
function defaultOf(kind: FieldKind): DecodedValue {
  switch (kind) {
    case "address":
      return { kind, hex: "" };
    case "bytes":
      return { kind, hex: "" };
    case "int":
      return { kind, value: 0n };
    case "resource":
      return { kind, value: 0, name: RESOURCE_NAMES[0] };
    case "account_type":
      return { kind, value: 0, name: ACCOUNT_TYPE_NAMES[0] };
    case "bool":
      return { kind, value: false };
    case "votes":
      return { kind, votes: [] };
  }
}

function enumValue(kind: "resource" | "account_type", v: bigint): DecodedValue {
  const names: readonly string[] = kind === "resource" ? RESOURCE_NAMES : ACCOUNT_TYPE_NAMES;
  const name = names[Number(v)];
  if (v >= BigInt(names.length) || name === undefined) throw new ProtobufError(`unknown ${kind} ${v}`);
  return { kind, value: Number(v), name };
}

function address(bytes: Uint8Array): string {
  // java-tron refuses any address that is not 21 bytes starting with 0x41.
  if (bytes.length !== 21 || bytes[0] !== 0x41) throw new ProtobufError("an address is not 21 bytes starting with 0x41");
  return toHex(bytes);
}

function readVote(bytes: Uint8Array): { address: string; count: bigint } {
  let vote = { address: "", count: 0n };
  for (const f of readFields(bytes)) {
    if (f.field === 1 && f.wire === WIRE_BYTES) vote = { ...vote, address: address(f.bytes) };
    else if (f.field === 2 && f.wire === WIRE_VARINT) vote = { ...vote, count: asInt64(f.int) };
    else throw new ProtobufError(`unexpected field ${f.field} in a vote`);
  }
  return vote;
}

/** The parameter's fields by JSON name, defaults included. Throws ProtobufError on anything unexpected. */
export function decodeContractValue(type: number, bytes: Uint8Array): Record<string, DecodedValue> {
  const schema = CONTRACT_SCHEMAS[type];
  if (!schema) throw new UnsupportedContractError(type);
  const out: Record<string, DecodedValue> = {};
  for (const [name, kind] of Object.values(schema.fields)) out[name] = defaultOf(kind);
  for (const f of readFields(bytes)) {
    const spec = schema.fields[f.field];
    if (!spec) throw new ProtobufError(`${schema.name} has no field ${f.field}`);
    const [name, kind] = spec;
    const wantsBytes = kind === "address" || kind === "bytes" || kind === "votes";
    if ((f.wire === WIRE_BYTES) !== wantsBytes || (!wantsBytes && f.wire !== WIRE_VARINT)) {
      throw new ProtobufError(`${schema.name}.${name} has the wrong wire type`);
    }
    if (kind === "votes") {
      const prev = out[name];
      out[name] = { kind, votes: [...(prev?.kind === "votes" ? prev.votes : []), readVote(f.bytes)] };
    } else if (kind === "address") out[name] = { kind, hex: address(f.bytes) };
    else if (kind === "bytes") out[name] = { kind, hex: toHex(f.bytes) };
    else if (kind === "int") out[name] = { kind, value: asInt64(f.int) };
    else if (kind === "bool") out[name] = { kind, value: f.int !== 0n };
    else out[name] = enumValue(kind, f.int);
  }
  return out;
}
