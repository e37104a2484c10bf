import fc from "fast-check";
import { describe, it } from "vitest";
import { hostileStructure, looksLikeSignedTransaction, MAX_TX_DEPTH, precheckBroadcast, type PrecheckResult } from "../../src/shared/broadcasts/precheck.js";
import type { MalformedProblem } from "../../src/shared/tron/index.js";
import { fuzz, fuzzTimeoutMs, sameJson, scaledRuns, binaryString } from "../support/fuzz.js";
import { signTrc20Transfer, signTrxTransfer, TEST_KEYS, type SignedTx } from "../../testkit/tron-sign.js";

/**
 * Signed-transaction JSON at the chat boundary (a pasted text or a .json
 * document): structural mutations of real transactions signed offline. The
 * invariant over all of them: never a throw; a refusal names one of the
 * documented reasons; an acceptance shows exactly what was signed (the
 * unmutated summary) and hands on JSON the store can keep.
 */
const NOW = 1_800_000_000_000;
const { alice, bob, carol } = TEST_KEYS;
const ORIGINALS: readonly SignedTx[] = [
  signTrxTransfer({ privateKey: alice.privateKey, to: bob.address, amountSun: 1_234_567, expirationMs: NOW + 600_000 }),
  signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 9_007_199_254_740_991, expirationMs: NOW + 900_000, visible: true }),
  signTrc20Transfer({ privateKey: carol.privateKey, to: alice.address, amountAtomic: 2n ** 70n + 1n, expirationMs: NOW + 600_000 }),
  signTrc20Transfer({ privateKey: alice.privateKey, to: carol.address, amountAtomic: 12_345_678n, expirationMs: NOW + 300_000, visible: true }),
];
const check = (input: unknown): PrecheckResult => precheckBroadcast({ input, nowMs: NOW, baseUnitPriceSun: 60 });
const SUMMARIES = ORIGINALS.map((tx) => {
  const r = check(JSON.stringify(tx));
  if (!r.ok) throw new Error(`fixture refused: ${r.reason}`);
  return r.summary;
});
const REASONS = new Set([
  "not_json",
  "too_large",
  "not_object",
  "malformed",
  "txid_mismatch",
  "raw_data_mismatch",
  "no_signature",
  "bad_signature",
  "multiple_contracts",
  "expired",
  "insufficient_time",
]);

/** Where objects sit in a transaction, from the top down to the contract's value. */
const OBJECT_PATHS = [
  [],
  ["raw_data"],
  ["raw_data", "contract", 0],
  ["raw_data", "contract", 0, "parameter"],
  ["raw_data", "contract", 0, "parameter", "value"],
] as const;
const at = (root: unknown, path: readonly (string | number)[]): Record<string, unknown> =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], root) as Record<string, unknown>;
/** Own data property even for "__proto__" (plain assignment would swap the prototype instead). */
const put = (o: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

function nest(depth: number, leaf: unknown, arrays: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i += 1) v = arrays ? [v] : { a: v };
  return v;
}

type Mutation =
  | { kind: "extra"; tx: number; path: number; key: string; value: unknown; wrap: "none" | "signedTx" | "transaction" }
  | { kind: "hostile"; tx: number; path: number; key: "toJSON" | "__proto__"; value: unknown; inside: number }
  | { kind: "deep"; tx: number; path: number; depth: number; arrays: boolean }
  | { kind: "retype"; tx: number; path: number; key: string; value: unknown };

const txIndex = fc.nat({ max: ORIGINALS.length - 1 });
const pathIndex = fc.nat({ max: OBJECT_PATHS.length - 1 });
// fc.jsonValue yields own "__proto__" keys too, which are hostile by design: keep the benign values benign.
const benignValue = fc.jsonValue({ maxDepth: 3 }).filter((v) => hostileStructure(v) === undefined);
const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -0, 0.5, Number.MAX_VALUE, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongValue = fc.oneof(
  hugeNumber,
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
  fc.constantFrom("", "zz", "0x", "00".repeat(33), "T".repeat(34)),
);
const KNOWN_KEYS = [
  "txID",
  "raw_data",
  "raw_data_hex",
  "signature",
  "visible",
  "contract",
  "ref_block_bytes",
  "ref_block_hash",
  "expiration",
  "timestamp",
  "fee_limit",
  "type",
  "parameter",
  "type_url",
  "value",
  "amount",
  "owner_address",
  "to_address",
  "data",
  "contract_address",
  "call_value",
];

const extraKey = fc
  .string({ minLength: 1, maxLength: 12 })
  .filter((k) => !KNOWN_KEYS.includes(k) && !["toJSON", "__proto__", "signedTx", "transaction"].includes(k));
/** Fields a transaction's own objects hold; the signed bytes or the checks depend on all but these two. */
const UNSIGNED = new Set(["visible", "type_url"]);
const PRESENT = ORIGINALS.flatMap((tx, t) => OBJECT_PATHS.flatMap((path, p) => Object.keys(at(tx, path)).map((key) => ({ tx: t, path: p, key }))));
const retypeArb = (signed: boolean): fc.Arbitrary<Mutation> =>
  fc
    .record({ slot: fc.constantFrom(...PRESENT.filter((s) => UNSIGNED.has(s.key) !== signed)), value: wrongValue })
    .map(({ slot, value }) => ({ kind: "retype", ...slot, value }));

/** Mutations refused before any signature is recovered: cheap enough for the full case count. */
const hostileArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("hostile" as const),
    tx: txIndex,
    path: pathIndex,
    key: fc.constantFrom("toJSON" as const, "__proto__" as const),
    value: fc.oneof(fc.integer(), fc.constant(null), benignValue),
    inside: fc.nat({ max: 3 }),
  }),
  fc.record({ kind: fc.constant("deep" as const), tx: txIndex, path: pathIndex, depth: fc.integer({ min: MAX_TX_DEPTH, max: 2_000 }), arrays: fc.boolean() }),
  retypeArb(true),
);

/**
 * Mutations that may be accepted: each acceptance costs one secp256k1 recovery
 * (about 4 ms on this machine), so this property runs 500 cases by default
 * (5,000 under `npm run fuzz`); its refusals are covered 10,000 times above.
 */
const harmlessArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("extra" as const),
    tx: txIndex,
    path: pathIndex,
    key: extraKey,
    value: benignValue,
    wrap: fc.constantFrom("none" as const, "signedTx" as const, "transaction" as const),
  }),
  retypeArb(false),
);

/** Applies `m` to a fresh copy; returns the mutated value and the outcome it must have. */
interface Mutated {
  value: unknown;
  /** Set when the input must be built as text. */
  text?: string;
  expect: "accepted" | "malformed" | "refused" | "either";
  problem?: MalformedProblem;
}

function apply(m: Mutation): Mutated {
  const tx = JSON.parse(JSON.stringify(ORIGINALS[m.tx])) as Record<string, unknown>;
  const target = at(tx, OBJECT_PATHS[m.path]!);
  switch (m.kind) {
    case "extra": {
      put(target, m.key, m.value);
      // Beside the transaction an extra field is harmless. Inside raw_data a name the protobuf lacks is ignored, as
      // java-tron's JSON parser ignores it, while a known name claims something the signed bytes must say: either way
      // an acceptance must show exactly what was signed (see `judged`).
      return { value: m.wrap === "none" ? tx : { [m.wrap]: tx }, expect: m.path === 0 ? "accepted" : "either" };
    }
    case "hostile": {
      // Hidden up to three levels down inside an extra field, or right on the transaction's own object.
      put(target, m.inside === 0 ? m.key : "extra", m.inside === 0 ? m.value : nest(m.inside - 1, { [m.key]: m.value }, false));
      if (m.inside > 0)
        put(
          at(
            target["extra"],
            Array.from({ length: m.inside - 1 }, () => "a"),
          ),
          m.key,
          m.value,
        );
      return { value: tx, expect: "malformed", problem: { code: "hostile_field", field: m.key } };
    }
    case "deep": {
      // Built as text: JSON.stringify itself overflows the stack near 4,000 levels.
      put(target, "extra", "@deep@");
      const open = m.arrays ? "[".repeat(m.depth) : '{"a":'.repeat(m.depth);
      const close = m.arrays ? "]".repeat(m.depth) : "}".repeat(m.depth);
      return {
        value: undefined,
        text: JSON.stringify(tx).replace('"@deep@"', `${open}1${close}`),
        expect: "malformed",
        problem: { code: "too_deep", maxDepth: MAX_TX_DEPTH },
      };
    }
    case "retype": {
      const had = Object.hasOwn(target, m.key);
      const same = JSON.stringify(target[m.key]) === JSON.stringify(m.value);
      put(target, m.key, m.value);
      // A field that was there and is signed (or checked) cannot take another value; a new one may be ignored,
      // and so may an object emptied of fields (it claims nothing the signed bytes contradict). Either way an
      // acceptance must show exactly what was signed (see `judged`).
      const emptied = typeof m.value === "object" && m.value !== null && !Array.isArray(m.value);
      return { value: tx, expect: had && !same && !emptied && m.key !== "visible" && m.key !== "type_url" ? "refused" : "either" };
    }
  }
}

function judged(r: PrecheckResult, m: Mutation, want: Mutated): boolean {
  if (!r.ok) {
    if (!REASONS.has(r.reason) || "detail" in r) return false;
    if (want.expect === "accepted") return sameJson(r, { ok: true });
    if (want.expect === "malformed") return r.reason === "malformed" && sameJson(r.problem, want.problem);
    return true;
  }
  if (want.expect === "malformed" || want.expect === "refused") return sameJson(r.ok, false);
  // Accepted: the summary is what was signed, and what is handed on survives the store (JSON in, the same JSON out).
  return sameJson(r.summary, SUMMARIES[m.tx]) && hostileStructure(r.signedTx) === undefined && sameJson(JSON.parse(JSON.stringify(r.signedTx)), r.signedTx);
}

function run(m: Mutation, asText: boolean, indent: number): boolean {
  const want = apply(m);
  const text = want.text ?? JSON.stringify(want.value, null, indent);
  return judged(check(asText ? text : (JSON.parse(text) as unknown)), m, want);
}

describe("signed-transaction JSON (precheckBroadcast, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("refuses toJSON/__proto__ fields, over-deep nesting and any other value in a signed field, never throwing", () => {
    fc.assert(fc.property(hostileArb, fc.boolean(), fc.constantFrom(0, 2), run), fuzz("signed tx: hostile structure"));
  });

  it("accepts harmless extra fields, wrappers and unsigned fields only with the signed summary, and hands on storable JSON", () => {
    fc.assert(fc.property(harmlessArb, fc.boolean(), fc.constantFrom(0, 2), run), fuzz("signed tx: harmless structure", scaledRuns(500)));
  });

  it("locates a cut-short transaction at its end, as text cut short (never a parser message)", () => {
    fc.assert(
      fc.property(txIndex, fc.constantFrom(0, 2, "\t"), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (tx, indent, share) => {
        const text = JSON.stringify(ORIGINALS[tx], null, indent);
        const prefix = text.slice(0, Math.floor(share * text.length));
        const lines = prefix.split("\n");
        const expected = { ok: false, reason: "not_json", at: { line: lines.length, column: lines.at(-1)!.length + 1, end: true } };
        return sameJson(check(prefix), expected) && !looksLikeSignedTransaction(prefix);
      }),
      fuzz("signed tx: truncated text"),
    );
  });
});

describe("telling a pasted transaction from other text (looksLikeSignedTransaction, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("recognizes every transaction however it is spaced or wrapped, and no other JSON object", () => {
    const other = fc.dictionary(
      fc.string({ maxLength: 8 }).filter((k) => k !== "txID" && k !== "raw_data" && k !== "signedTx" && k !== "transaction"),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(
        txIndex,
        fc.constantFrom(0, 1, 4),
        fc.constantFrom("", " ", "\n", "\t\n "),
        fc.constantFrom("none", "signedTx", "transaction"),
        other,
        (tx, indent, pad, wrap, noise) => {
          const value = wrap === "none" ? ORIGINALS[tx] : { [wrap]: ORIGINALS[tx] };
          return (
            looksLikeSignedTransaction(pad + JSON.stringify(value, null, indent) + pad) &&
            !looksLikeSignedTransaction(JSON.stringify(noise)) &&
            !looksLikeSignedTransaction(JSON.stringify([value]))
          );
        },
      ),
      fuzz("looksLikeSignedTransaction: recognition"),
    );
  });

  it("never throws on any text, and agrees with precheck that non-objects are not transactions", () => {
    const text = fc.oneof(
      binaryString({ maxLength: 80 }),
      fc.json({ maxDepth: 3 }),
      fc.constantFrom("{", "{}", '{"txID"', '{"toJSON":1,"txID":1}', `{"a":${"[".repeat(3000)}`),
    );
    fc.assert(
      fc.property(text, (t) => {
        const looks = looksLikeSignedTransaction(t);
        const r = check(t);
        // Whatever precheck accepts, looksLike sends there; and it never takes a non-object for one.
        return (!r.ok || looks) && (!looks || t.trim().startsWith("{")) && (r.ok || REASONS.has(r.reason));
      }),
      fuzz("looksLikeSignedTransaction: total"),
    );
  });
});
