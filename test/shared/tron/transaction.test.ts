import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TronWeb } from "tronweb";
import { verifySignedTransaction, type TxVerification } from "../../../src/shared/tron/index.js";
import {
  cloneTx,
  resignWith,
  signContract,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrc20Amount,
  tamperTrxAmount,
  TEST_KEYS,
  USDT_MAINNET,
  withDeclaredTxId,
  withTwoContracts,
} from "../../../testkit/tron-sign.js";

const NOW = 1_760_000_000_000;
const { alice, bob, carol } = TEST_KEYS;

function usdt(amountAtomic = 12_345_678n, expirationMs = NOW + 600_000, visible = false) {
  return signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic, expirationMs, visible });
}

function rejection(v: TxVerification) {
  return v.ok ? "ok" : v.reason;
}

describe("verifySignedTransaction accepts", () => {
  it("a signed USDT transfer and reads sender, recipient and exact amount", () => {
    const tx = usdt();
    const v = verifySignedTransaction(tx, NOW);
    expect(v).toEqual({
      ok: true,
      tx: {
        txId: tx.txID,
        contractType: "TriggerSmartContract",
        ownerAddress: alice.address,
        expirationMs: NOW + 600_000,
        kind: "usdt",
        toAddress: bob.address,
        amountAtomic: "12345678",
        contractAddress: USDT_MAINNET,
        permissionId: 0,
        signers: [alice.address],
        highS: v.ok && v.tx.highS,
        bandwidthBytes: (tx.raw_data_hex.length + tx.signature![0]!.length) / 2 + 3 + 2 + 64,
      },
    });
  });

  it("a USDT transfer written with visible:true (base58 in the JSON)", () => {
    const v = verifySignedTransaction(usdt(1n, NOW + 600_000, true), NOW);
    expect(v.ok && v.tx).toMatchObject({ kind: "usdt", ownerAddress: alice.address, toAddress: bob.address, amountAtomic: "1" });
  });

  it("a plain TRX transfer, hex and visible", () => {
    for (const visible of [false, true]) {
      const tx = signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: NOW + 600_000, visible });
      const v = verifySignedTransaction(tx, NOW);
      expect(v.ok && v.tx).toMatchObject({
        kind: "trx",
        contractType: "TransferContract",
        ownerAddress: bob.address,
        toAddress: carol.address,
        amountSun: "1500000",
      });
      expect(v.ok && v.tx.amountAtomic).toBeUndefined();
    }
  });

  it("reads a transfer on another token contract as a TRC20 transfer: token, recipient and raw amount", () => {
    const tx = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: 5n, expirationMs: NOW + 600_000, usdtContract: carol.address });
    const v = verifySignedTransaction(tx, NOW);
    expect(v.ok && v.tx).toMatchObject({ kind: "trc20", contractAddress: carol.address, toAddress: bob.address, amountAtomic: "5" });
  });

  it("treats a configured token contract as the stablecoin", () => {
    const tx = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: 5n, expirationMs: NOW + 600_000, usdtContract: carol.address });
    const v = verifySignedTransaction(tx, NOW, { usdtContract: carol.address });
    expect(v.ok && v.tx).toMatchObject({ kind: "usdt", amountAtomic: "5" });
  });

  it("reads a USDT call that is not transfer(), e.g. approve, as a generic contract call", () => {
    const data = `095ea7b3${"00".repeat(64)}`;
    const tx = signContract({
      privateKey: alice.privateKey,
      expirationMs: NOW + 600_000,
      type: "TriggerSmartContract",
      value: { data, owner_address: TronWeb.address.toHex(alice.address), contract_address: TronWeb.address.toHex(USDT_MAINNET) },
    });
    expect(verifySignedTransaction(tx, NOW)).toMatchObject({ ok: true, tx: { kind: "contract" } });
  });

  it("system contracts as kind system, billed in bandwidth", () => {
    const tx = signContract({
      privateKey: carol.privateKey,
      expirationMs: NOW + 600_000,
      type: "FreezeBalanceV2Contract",
      value: { owner_address: TronWeb.address.toHex(carol.address), frozen_balance: 1_000_000, resource: "ENERGY" },
    });
    expect(verifySignedTransaction(tx, NOW)).toMatchObject({
      ok: true,
      tx: { kind: "system", contractType: "FreezeBalanceV2Contract", ownerAddress: carol.address, amountSun: "1000000", details: { resource: "ENERGY" } },
    });
  });

  it("exactly 75 seconds left", () => {
    expect(rejection(verifySignedTransaction(usdt(1n, NOW + 75_000), NOW))).toBe("ok");
  });
});

describe("verifySignedTransaction refuses", () => {
  it("anything that is not a plain object (not_object)", () => {
    for (const input of [null, undefined, 42, "tx", [], [usdt()], new Date()]) {
      expect(rejection(verifySignedTransaction(input, NOW))).toBe("not_object");
    }
  });

  it("objects missing txID, raw_data or raw_data_hex, or with them of the wrong type (malformed)", () => {
    const tx = usdt();
    const cases: unknown[] = [
      {},
      { ...tx, txID: undefined },
      { ...tx, txID: "abc" },
      { ...tx, raw_data: undefined },
      { ...tx, raw_data: "x" },
      { ...tx, raw_data_hex: undefined },
      { ...tx, raw_data_hex: "zz" },
      { ...tx, raw_data_hex: "abc" },
      { ...tx, signature: "abc" },
      { ...tx, signature: [1] },
    ];
    for (const c of cases) expect(rejection(verifySignedTransaction(c, NOW))).toBe("malformed");
  });

  it("a raw_data whose contract list does not describe the signed contract (raw_data_mismatch)", () => {
    const tx = usdt();
    const cases: unknown[] = [
      { ...tx, raw_data: { ...tx.raw_data, contract: [] } },
      { ...tx, raw_data: { ...tx.raw_data, contract: "x" } },
      { ...tx, raw_data: { ...tx.raw_data, contract: [{ type: "TriggerSmartContract" }] } },
      { ...tx, raw_data: { ...tx.raw_data, contract: [{ ...tx.raw_data.contract[0], type: "NoSuchContract" }] } },
    ];
    for (const c of cases) expect(rejection(verifySignedTransaction(c, NOW))).toBe("raw_data_mismatch");
  });

  it("a field named like an Object.prototype member is a name the protobuf lacks: ignored as java-tron ignores it, never called", () => {
    const tx = usdt();
    const contract = tx.raw_data.contract[0]!;
    // No contract list at all: refused for that, not for the odd name.
    expect(verifySignedTransaction({ ...tx, raw_data: { valueOf: false } }, NOW)).toMatchObject({ ok: false, reason: "raw_data_mismatch" });
    const cases: unknown[] = [
      { ...tx, raw_data: { ...tx.raw_data, toString: 1 } },
      { ...tx, raw_data: { ...tx.raw_data, hasOwnProperty: "x" } },
      {
        ...tx,
        raw_data: { ...tx.raw_data, contract: [{ ...contract, parameter: { ...contract.parameter, value: { ...contract.parameter.value, toString: "x" } } }] },
      },
      {
        ...tx,
        raw_data: {
          ...tx.raw_data,
          contract: [{ ...contract, parameter: { ...contract.parameter, value: { ...contract.parameter.value, constructor: {} } } }],
        },
      },
    ];
    const plain = verifySignedTransaction(tx, NOW);
    for (const c of cases) expect(verifySignedTransaction(c, NOW)).toEqual(plain);
  });

  it("two contracts in one transaction (multiple_contracts), even correctly signed", () => {
    const two = withTwoContracts(usdt(), alice.privateKey);
    expect(rejection(verifySignedTransaction(two, NOW))).toBe("multiple_contracts");
  });

  it("a txID that does not match raw_data_hex, naming both ids (txid_mismatch)", () => {
    const tx = usdt();
    const other = "ab".repeat(32);
    const v = verifySignedTransaction(withDeclaredTxId(tx, other), NOW);
    expect(v).toEqual({ ok: false, reason: "txid_mismatch", declared: other, derived: tx.txID });
  });

  it("a raw_data JSON whose amount was changed after signing (raw_data_mismatch)", () => {
    expect(rejection(verifySignedTransaction(tamperTrc20Amount(usdt(), 999n, bob.address), NOW))).toBe("raw_data_mismatch");
    const trx = signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 10, expirationMs: NOW + 600_000 });
    expect(rejection(verifySignedTransaction(tamperTrxAmount(trx, 11), NOW))).toBe("raw_data_mismatch");
  });

  it("a raw_data JSON whose recipient was changed after signing (raw_data_mismatch)", () => {
    expect(rejection(verifySignedTransaction(tamperTrc20Amount(usdt(5n), 5n, carol.address), NOW))).toBe("raw_data_mismatch");
  });

  it("a changed fee_limit or expiration in the JSON (raw_data_mismatch)", () => {
    const a = cloneTx(usdt());
    a.raw_data.fee_limit = 1;
    expect(rejection(verifySignedTransaction(a, NOW))).toBe("raw_data_mismatch");
    const b = cloneTx(usdt());
    b.raw_data.expiration += 1_000_000;
    expect(rejection(verifySignedTransaction(b, NOW))).toBe("raw_data_mismatch");
  });

  it("a transaction without a signature (no_signature)", () => {
    expect(rejection(verifySignedTransaction(stripSignature(usdt()), NOW))).toBe("no_signature");
    expect(rejection(verifySignedTransaction({ ...usdt(), signature: [] }, NOW))).toBe("no_signature");
    expect(rejection(verifySignedTransaction({ ...usdt(), signature: null }, NOW))).toBe("no_signature");
  });

  it("a signature made by another key than owner_address (bad_signature)", () => {
    const v = verifySignedTransaction(resignWith(usdt(), carol.privateKey), NOW);
    expect(v.ok).toBe(false);
    expect(!v.ok && v.reason).toBe("bad_signature");
    expect(v).toMatchObject({ owner: alice.address, signers: [carol.address] });
  });

  it("a signature that is not 65 bytes of hex, or is garbage, with java-tron's reason (signature_format)", () => {
    const problem = (sig: string) => {
      const v = verifySignedTransaction({ ...usdt(), signature: [sig] }, NOW);
      return v.ok ? "ok" : v.reason === "signature_format" ? { index: v.index, ...v.problem } : v.reason;
    };
    expect(problem("00")).toEqual({ index: 1, code: "size", bytes: 1, expected: 65 });
    expect(problem("00".repeat(66))).toEqual({ index: 1, code: "size", bytes: 66, expected: 65 });
    expect(problem("00".repeat(65))).toEqual({ index: 1, code: "value_out_of_range", part: "r" });
    expect(problem(`${"11".repeat(64)}09`)).toEqual({ index: 1, code: "header_out_of_range", header: 36 });
    expect(problem(`${"11".repeat(64)}e4`)).toEqual({ index: 1, code: "header_out_of_range", header: 255 });
    expect(problem("zz".repeat(65))).toEqual({ index: 1, code: "not_hex" });
  });

  it("an expired transaction or one with under 30 seconds left (expired)", () => {
    for (const left of [-1_000_000, -1, 0, 29_999]) {
      expect(rejection(verifySignedTransaction(usdt(1n, NOW + left), NOW))).toBe("expired");
    }
  });

  it("a transaction with 30 to under 75 seconds left (insufficient_time)", () => {
    for (const left of [30_000, 50_000, 74_999]) {
      expect(rejection(verifySignedTransaction(usdt(1n, NOW + left), NOW))).toBe("insufficient_time");
    }
  });

  it("checks in the documented order: txID before signature before expiration", () => {
    const expiredAndBadSig = resignWith(usdt(1n, NOW - 1), carol.privateKey);
    expect(rejection(verifySignedTransaction(expiredAndBadSig, NOW))).toBe("bad_signature");
    const mismatchAndNoSig = withDeclaredTxId(stripSignature(usdt()), "cd".repeat(32));
    expect(rejection(verifySignedTransaction(mismatchAndNoSig, NOW))).toBe("txid_mismatch");
  });

  it("never throws, whatever is thrown at it", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const v = verifySignedTransaction(input, NOW);
        expect(typeof v.ok).toBe("boolean");
      }),
      { numRuns: 300 },
    );
    const tx = usdt();
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("txID", "raw_data", "raw_data_hex", "signature", "visible"), fc.anything()), (patch) => {
        const v = verifySignedTransaction({ ...tx, ...patch }, NOW);
        expect(typeof v.ok).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });
});

describe("amount exactness", () => {
  it("round-trips any USDT amount up to 2^64 exactly as a decimal string", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.boolean(), (amount, visible) => {
        const tx = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: amount, expirationMs: NOW + 600_000, visible });
        const v = verifySignedTransaction(tx, NOW);
        expect(v.ok).toBe(true);
        expect(v.ok && v.tx.amountAtomic).toBe(amount.toString());
      }),
      { numRuns: 60 },
    );
  });

  it("keeps amounts above 2^53 exact", () => {
    const big = 2n ** 53n + 1n;
    const v = verifySignedTransaction(usdt(big), NOW);
    expect(v.ok && v.tx.amountAtomic).toBe("9007199254740993");
  });
});
