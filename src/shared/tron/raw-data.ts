import { toHexAddress } from "./address.js";
import { CONTRACT_SCHEMAS, decodeContractValue, UnsupportedContractError, type DecodedValue } from "./contracts.js";
import { excerpt, type MismatchProblem } from "./refusal.js";
import { asInt64, ProtobufError, readFields, toHex, WIRE_BYTES, WIRE_VARINT, type WireField } from "./protobuf.js";

/**
 * raw_data_hex is what was signed and what the service decodes, so it is the
 * truth; the JSON beside it only has to mean the same thing. Nodes print
 * zero fields (`call_value: 0`) that the bytes leave out, tronweb prints a
 * subset, and wallet SDKs add fields of their own (`raw_data.contractType`)
 * that java-tron's JSON parser skips as unknown. So "the same meaning" is:
 * every field of the transaction's protobuf that the JSON carries agrees with
 * the bytes; a name the protobuf does not have is ignored, as java-tron
 * ignores it, and nothing read from it is ever shown (the summary comes from
 * the bytes alone).
 */

export interface DecodedContract {
  type: number;
  typeName: string;
  typeUrl: string;
  permissionId: number;
  provider: string;
  contractName: string;
  value: Record<string, DecodedValue>;
}

export interface DecodedRaw {
  refBlockBytes: string;
  refBlockNum: bigint;
  refBlockHash: string;
  expiration: bigint;
  timestamp: bigint;
  feeLimit: bigint;
  data: string;
  scripts: string;
  contracts: DecodedContract[];
}

const TYPE_URL_PREFIX = "type.googleapis.com/protocol.";

function expectWire(f: WireField, wire: number, what: string): void {
  if (f.wire !== wire) throw new ProtobufError(`${what} has the wrong wire type`);
}

function decodeAny(bytes: Uint8Array): { typeUrl: string; value: Uint8Array } {
  let typeUrl = "";
  let value: Uint8Array = new Uint8Array(0);
  for (const f of readFields(bytes)) {
    expectWire(f, WIRE_BYTES, "parameter");
    if (f.field === 1) typeUrl = new TextDecoder("utf-8", { fatal: true }).decode(f.bytes);
    else if (f.field === 2) value = f.bytes;
    else throw new ProtobufError(`parameter has no field ${f.field}`);
  }
  return { typeUrl, value };
}

function decodeContract(bytes: Uint8Array): DecodedContract {
  let type = 0;
  let any: { typeUrl: string; value: Uint8Array } = { typeUrl: "", value: new Uint8Array(0) };
  let permissionId = 0;
  let provider = "";
  let contractName = "";
  for (const f of readFields(bytes)) {
    if (f.field === 1 || f.field === 5) {
      expectWire(f, WIRE_VARINT, "contract");
      // Permission_id is an int32 on the wire: a negative one is sign-extended.
      const n = Number(BigInt.asIntN(32, f.int));
      if (f.field === 1) type = n;
      else permissionId = n;
    } else if (f.field === 2 || f.field === 3 || f.field === 4) {
      expectWire(f, WIRE_BYTES, "contract");
      if (f.field === 2) any = decodeAny(f.bytes);
      else if (f.field === 3) provider = toHex(f.bytes);
      else contractName = toHex(f.bytes);
    } else throw new ProtobufError(`contract has no field ${f.field}`);
  }
  const schema = CONTRACT_SCHEMAS[type];
  if (!schema) throw new UnsupportedContractError(type);
  // Any.unpack compares only the type name after the last '/'.
  if (any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1) !== `protocol.${schema.name}`) {
    throw new ProtobufError(`parameter type_url ${any.typeUrl} does not match ${schema.name}`);
  }
  return { type, typeName: schema.name, typeUrl: any.typeUrl, permissionId, provider, contractName, value: decodeContractValue(type, any.value) };
}

/** Decodes Transaction.raw. Throws ProtobufError on anything it cannot read exactly. */
export function decodeRawData(rawDataHex: string): DecodedRaw {
  const raw: DecodedRaw = {
    refBlockBytes: "",
    refBlockNum: 0n,
    refBlockHash: "",
    expiration: 0n,
    timestamp: 0n,
    feeLimit: 0n,
    data: "",
    scripts: "",
    contracts: [],
  };
  for (const f of readFields(Buffer.from(rawDataHex, "hex"))) {
    switch (f.field) {
      case 1:
      case 4:
      case 10:
      case 12: {
        expectWire(f, WIRE_BYTES, "raw_data");
        const hex = toHex(f.bytes);
        if (f.field === 1) raw.refBlockBytes = hex;
        else if (f.field === 4) raw.refBlockHash = hex;
        else if (f.field === 10) raw.data = hex;
        else raw.scripts = hex;
        break;
      }
      case 3:
      case 8:
      case 14:
      case 18: {
        expectWire(f, WIRE_VARINT, "raw_data");
        const v = asInt64(f.int);
        if (f.field === 3) raw.refBlockNum = v;
        else if (f.field === 8) raw.expiration = v;
        else if (f.field === 14) raw.timestamp = v;
        else raw.feeLimit = v;
        break;
      }
      case 11:
        expectWire(f, WIRE_BYTES, "raw_data");
        raw.contracts.push(decodeContract(f.bytes));
        break;
      default:
        throw new ProtobufError(`raw_data has no field ${f.field} this check can read`);
    }
  }
  return raw;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An integer in JSON against the exact value from the bytes. */
function intAgrees(json: unknown, exact: bigint): boolean {
  if (typeof json === "string") return /^-?\d{1,20}$/.test(json) && BigInt(json) === exact;
  if (typeof json !== "number" || !Number.isInteger(json)) return false;
  if (Number.isSafeInteger(json)) return BigInt(json) === exact;
  // JSON.parse has already rounded this number; the best the text can still
  // say is that it names the same double. The amount shown comes from the bytes.
  return Number(exact) === json;
}

function hexAgrees(json: unknown, hex: string): boolean {
  return typeof json === "string" && json.toLowerCase() === hex;
}

/** Names (asset_name, account_name) print as text when the node prints visible addresses. */
function bytesAgree(json: unknown, hex: string): boolean {
  return hexAgrees(json, hex) || (typeof json === "string" && Buffer.from(json, "utf8").toString("hex") === hex);
}

function addressAgrees(json: unknown, hex: string): boolean {
  if (typeof json !== "string") return false;
  if (json === "") return hex === "";
  return toHexAddress(json) === hex;
}

function valueAgrees(json: unknown, v: DecodedValue): boolean {
  switch (v.kind) {
    case "address":
      return addressAgrees(json, v.hex);
    case "int":
      return intAgrees(json, v.value);
    case "bytes":
      return bytesAgree(json, v.hex);
    case "resource":
    case "account_type":
      return json === v.name || json === v.value;
    case "bool":
      return json === v.value;
    case "votes":
      return (
        Array.isArray(json) &&
        json.length === v.votes.length &&
        json.every((j, i) => {
          const vote = v.votes[i]!;
          if (!isObject(j)) return false;
          return addressAgrees(j["vote_address"] ?? "", vote.address) && intAgrees(j["vote_count"] ?? 0, vote.count);
        })
      );
  }
}

function contractDisagreement(json: unknown, c: DecodedContract, at: string): MismatchProblem | undefined {
  const differs = (field: string): MismatchProblem => ({ code: "field_differs", field });
  if (!isObject(json)) return { code: "field_missing", field: at };
  if (json["type"] !== c.typeName) return { code: "contract_type_differs", field: `${at}.type`, claimed: excerpt(json["type"]), signed: c.typeName };
  if (json["Permission_id"] !== undefined && !intAgrees(json["Permission_id"], BigInt(c.permissionId))) return differs(`${at}.Permission_id`);
  if (json["provider"] !== undefined && !hexAgrees(json["provider"], c.provider)) return differs(`${at}.provider`);
  if (json["ContractName"] !== undefined && !bytesAgree(json["ContractName"], c.contractName)) return differs(`${at}.ContractName`);
  const p = json["parameter"];
  if (!isObject(p) || !isObject(p["value"])) return { code: "field_missing", field: `${at}.parameter.value` };
  if (p["type_url"] !== undefined && p["type_url"] !== c.typeUrl && p["type_url"] !== `${TYPE_URL_PREFIX}${c.typeName}`)
    return differs(`${at}.parameter.type_url`);
  for (const [key, value] of Object.entries(p["value"])) {
    // Own keys only: a name like an Object.prototype member ("valueOf") is a name the contract lacks.
    const decoded = Object.hasOwn(c.value, key) ? c.value[key] : undefined;
    if (!decoded) continue;
    if (!valueAgrees(value, decoded)) return differs(`${at}.parameter.value.${key}`);
  }
  return undefined;
}

/** Undefined when the JSON means what the bytes say; otherwise the first disagreement. */
export function rawDataDisagreement(json: unknown, raw: DecodedRaw): MismatchProblem | undefined {
  if (!isObject(json)) return { code: "field_missing", field: "raw_data" };
  const scalar: Record<string, (v: unknown) => boolean> = {
    ref_block_bytes: (v) => hexAgrees(v, raw.refBlockBytes),
    ref_block_num: (v) => intAgrees(v, raw.refBlockNum),
    ref_block_hash: (v) => hexAgrees(v, raw.refBlockHash),
    expiration: (v) => intAgrees(v, raw.expiration),
    timestamp: (v) => intAgrees(v, raw.timestamp),
    fee_limit: (v) => intAgrees(v, raw.feeLimit),
    data: (v) => hexAgrees(v, raw.data),
    scripts: (v) => hexAgrees(v, raw.scripts),
  };
  for (const [key, value] of Object.entries(json)) {
    if (key === "contract") continue;
    // Own keys only: a field named like an Object.prototype member ("valueOf") is a name raw_data lacks, not a function to call.
    const agrees = Object.hasOwn(scalar, key) ? scalar[key] : undefined;
    if (!agrees) continue;
    if (!agrees(value)) return { code: "field_differs", field: `raw_data.${key}` };
  }
  const contracts = json["contract"];
  if (!Array.isArray(contracts) || contracts.length !== raw.contracts.length) return { code: "contracts_differ", signed: raw.contracts.length };
  for (let i = 0; i < contracts.length; i++) {
    const problem = contractDisagreement(contracts[i], raw.contracts[i]!, `raw_data.contract[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}
