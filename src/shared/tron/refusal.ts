/**
 * Why a signed transaction is refused, as data: a reason (the service's
 * refusal it foresees) and the facts behind it (field names, counts, times,
 * addresses). The bot words each in the chat's language; logs and the
 * simulator, which plays the service, word it in English with
 * `describeTxRefusal`.
 */

/** Why a signature cannot be read the way java-tron reads it. */
export type SignatureProblem =
  | { code: "not_hex" }
  /** java-tron wants exactly 65 bytes. */
  | { code: "size"; bytes: number; expected: number }
  | { code: "header_out_of_range"; header: number }
  | { code: "value_out_of_range"; part: "r" | "s" }
  | { code: "recovery_id_unsupported" }
  | { code: "unrecoverable" };

/** The transaction's own fields in the shape a signed transaction must give them. */
export type ExpectedShape = "hex64" | "hex" | "object" | "hex_list";

export type MalformedProblem =
  /** A key that changes how JavaScript or a serializer treats the object (`toJSON`, `__proto__`). */
  | { code: "hostile_field"; field: string }
  | { code: "too_deep"; maxDepth: number }
  | { code: "field_shape"; field: "txID" | "raw_data_hex" | "raw_data" | "signature"; expected: ExpectedShape }
  /** The signed bytes cannot be decoded; `diagnostic` is the decoder's English, for logs only. */
  | { code: "bytes_unreadable"; diagnostic: string }
  | { code: "no_contract" }
  | { code: "no_owner" }
  | { code: "expiration_out_of_range" };

/** Where the JSON says something else than the signed bytes; `field` is a path such as `raw_data.contract[0].type`. */
export type MismatchProblem =
  | { code: "field_differs"; field: string }
  | { code: "field_missing"; field: string }
  | { code: "contract_type_differs"; field: string; claimed: string; signed: string }
  | { code: "contracts_differ"; signed: number };

export type TxRefusal =
  | { reason: "not_object" }
  | { reason: "malformed"; problem: MalformedProblem }
  | { reason: "txid_mismatch"; declared: string; derived: string }
  | { reason: "raw_data_mismatch"; problem: MismatchProblem }
  /** `typeName` when the contract type is one the chain knows. */
  | { reason: "unsupported_contract"; contractType: number; typeName?: string }
  | { reason: "no_signature" }
  | { reason: "too_many_signatures"; count: number; max: number }
  /** `index` counts from 1. */
  | { reason: "signature_format"; index: number; problem: SignatureProblem }
  | { reason: "duplicate_signature"; signer: string }
  | { reason: "extra_signature"; count: number; others: string[] }
  | { reason: "bad_signature"; owner: string; signers: string[] }
  | { reason: "permission_not_owner"; permissionId: number; owner: string; signers: string[] }
  | { reason: "multiple_contracts"; count: number }
  | { reason: "expired" | "insufficient_time" | "expiration_too_far"; expirationMs: number; leftMs: number; limitMs: number };

export type TxRejection = TxRefusal["reason"];

/** A value taken from the JSON for a refusal: bounded, so a hostile megabyte is not repeated. */
export function excerpt(value: unknown, max = 64): string {
  const text = String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function signatureProblemText(p: SignatureProblem): string {
  switch (p.code) {
    case "not_hex":
      return "the signature is not hex";
    case "size":
      return p.bytes < p.expected ? `Signature size is ${p.bytes}` : `Signature size is ${p.bytes}, expected ${p.expected}`;
    case "header_out_of_range":
      return `Header byte out of range: ${p.header}`;
    case "value_out_of_range":
      return `${p.part}-value out of range`;
    case "recovery_id_unsupported":
      return "recovery id 2 or 3 is not supported";
    case "unrecoverable":
      return "Could not recover public key from signature";
  }
}

function malformedText(p: MalformedProblem): string {
  switch (p.code) {
    case "hostile_field":
      return `the JSON has a field named ${p.field}`;
    case "too_deep":
      return `the JSON nests deeper than ${p.maxDepth} levels`;
    case "field_shape": {
      const shapes: Record<ExpectedShape, string> = {
        hex64: "64 hex characters",
        hex: "a non-empty hex string",
        object: "an object",
        hex_list: "an array of hex strings",
      };
      return `${p.field} must be ${shapes[p.expected]}`;
    }
    case "bytes_unreadable":
      return `raw_data_hex cannot be read: ${p.diagnostic}`;
    case "no_contract":
      return "raw_data_hex holds no contract";
    case "no_owner":
      return "owner_address is missing";
    case "expiration_out_of_range":
      return "expiration is out of range";
  }
}

function mismatchText(p: MismatchProblem): string {
  switch (p.code) {
    case "field_differs":
      return `${p.field} disagrees with the signed bytes`;
    case "field_missing":
      return `${p.field} is missing or not an object`;
    case "contract_type_differs":
      return `${p.field} says ${p.claimed}, the signed bytes hold ${p.signed}`;
    case "contracts_differ":
      return `raw_data.contract does not list the ${p.signed} signed contract(s)`;
  }
}

/** The refusal in English, as java-tron and the service word it: for logs and the simulator's answers, never for a chat. */
export function describeTxRefusal(r: TxRefusal): string {
  switch (r.reason) {
    case "not_object":
      return "the signed transaction must be a JSON object";
    case "malformed":
      return malformedText(r.problem);
    case "txid_mismatch":
      return `txID mismatch: declared=${r.declared} derived=${r.derived}`;
    case "raw_data_mismatch":
      return mismatchText(r.problem);
    case "unsupported_contract":
      return `${r.typeName ?? `ContractType ${r.contractType}`} is not supported`;
    case "no_signature":
      return "the transaction carries no signature";
    case "too_many_signatures":
      return `${r.count} signatures (at most ${r.max})`;
    case "signature_format":
      return `signature ${r.index}: ${signatureProblemText(r.problem)}`;
    case "duplicate_signature":
      return `${r.signer} has signed twice`;
    case "extra_signature":
      return `${r.count} signatures for one owner key; also signed by ${r.others.join(", ")}`;
    case "bad_signature":
      return `Signature does not match fromAddress ${r.owner} (signed by ${r.signers.join(", ")})`;
    case "permission_not_owner":
      return `permission ${r.permissionId}, signed by ${r.signers.join(", ")}, not by the owner ${r.owner}`;
    case "multiple_contracts":
      return `expected 1 contract, got ${r.count}`;
    case "expired":
    case "insufficient_time":
      return `expiration ${r.expirationMs} leaves ${r.leftMs} ms (< ${r.limitMs})`;
    case "expiration_too_far":
      return `expiration ${r.expirationMs} is ${r.leftMs} ms ahead (> ${r.limitMs})`;
  }
}
