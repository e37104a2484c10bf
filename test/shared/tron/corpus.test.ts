import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignedTransaction, type TxVerification } from "../../../src/shared/tron/index.js";
import { loadCorpus, ownTime, printRawData, type CorpusEntry } from "../../support/tron-corpus.js";
import { cloneTx, finalizeAndSign, TEST_KEYS, type SignedTx } from "../../../testkit/tron-sign.js";
import { summarizeBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import { describeMutationSweep } from "./corpus-sweep.js";

/**
 * Real signed transactions from public repositories (test/fixtures/tron-corpus),
 * each judged at its own time as java-tron judges it, then every byte of the
 * signed bytes and of each signature flipped: no mutant may be accepted.
 */

const corpus = loadCorpus();
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const verdict = (v: TxVerification) => (v.ok ? "accepted" : v.reason);
const byTx = (prefix: string): CorpusEntry => corpus.find((e) => e.transaction.txID.startsWith(prefix))!;
const judge = (e: CorpusEntry, tx: unknown = e.transaction) => verifySignedTransaction(tx, ownTime(e));
const sha256 = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");

/** The same signature with s replaced by n - s and the recovery bit flipped: valid on chain. */
function otherHalf(sig: string): string {
  const s = BigInt(`0x${sig.slice(64, 128)}`);
  const v = Number.parseInt(sig.slice(128, 130), 16);
  return sig.slice(0, 64) + (N - s).toString(16).padStart(64, "0") + (v ^ 1).toString(16).padStart(2, "0");
}

describe("the corpus of real transactions", () => {
  it("holds at least 20 real transactions, each with its source", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    for (const e of corpus) {
      if (e.source.indexId === undefined) expect(e.source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      else expect(e.source.indexId).toMatch(/^\d+$/);
      expect(e.source.path).not.toBe("");
      expect(sha256(e.transaction.raw_data_hex)).toBe(e.transaction.txID);
    }
  });

  it.each(corpus.map((e) => [e.file, e] as const))("judges %s as java-tron does", (_file, e) => {
    const v = judge(e);
    expect(verdict(v)).toBe(e.expected.verdict === "accepted" ? "accepted" : e.expected.reason);
    if (v.ok) expect(v.tx.contractType).toBe(e.contractType);
  });

  it("accepts a high-s signature (TronWeb before 5.3) and keeps it byte for byte", () => {
    const e = byTx("3de78211");
    const before = JSON.stringify(e.transaction);
    const v = judge(e);
    expect(v.ok && v.tx).toMatchObject({ kind: "trx", highS: true, amountSun: "1", toAddress: "TAVrrARNdnjHgCGMQYeQV7hv4PSu7mVsMj" });
    expect(JSON.stringify(e.transaction)).toBe(before);
    // The low-s twin of a real signature is valid too (java-tron has no half-order check).
    for (const other of corpus.filter((x) => x.expected.verdict === "accepted").slice(0, 5)) {
      const twin = { ...other.transaction, signature: [otherHalf(other.transaction.signature[0]!)] };
      expect(verdict(judge(other, twin))).toBe("accepted");
    }
  });

  it("reads wallet-cli's 41-prefixed TRC20 address word as the token contract does, and amounts above 2^53 exactly", () => {
    expect(judge(byTx("9c8d4b84"))).toMatchObject({ ok: true, tx: { kind: "trc20", toAddress: "TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk", amountAtomic: "1" } });
    expect(judge(byTx("774422d8"))).toMatchObject({ ok: true, tx: { kind: "trc20", amountAtomic: "10000000000000000000000" } });
    expect(judge(byTx("c70b20da"))).toMatchObject({ ok: true, tx: { kind: "trc20", toAddress: "THGb41mLdft1nvi27vcijfZPLN5ZL7yXoN" } });
  });

  it("reads a mainnet USDT transfer (a node's answer pasted in an issue) as USDT, with its 41-prefixed address word", () => {
    const e = byTx("2e3dcf9e");
    expect(judge(e)).toMatchObject({
      ok: true,
      tx: {
        kind: "usdt",
        contractAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        ownerAddress: "TAzsQ9Gx8eqFNFSKbeXrbi45CuVPHzA8wr",
        toAddress: "TCAJweuwNRuVmjDbMes6yZKZZH4oYN6JX5",
        amountAtomic: "2027249420",
        highS: false,
      },
    });
  });

  it("accepts real mainnet contract calls signed with a high s, a USDT transfer among them", () => {
    expect(judge(byTx("da2410b7"))).toMatchObject({
      ok: true,
      tx: {
        kind: "usdt",
        highS: true,
        ownerAddress: "TDfeZj8wzZDN1DBmCqfXyGT2be46bmhHFy",
        toAddress: "TBA6CypYJizwA9XdC7Ubgc5F1bxrQ7SqPt",
        amountAtomic: "7499999999",
      },
    });
    expect(judge(byTx("d1c8d646"))).toMatchObject({ ok: true, tx: { kind: "contract", highS: true, ownerAddress: "TQPEpsPezSvFhQJg3PXSRohSCyGm2k7VnT" } });
  });

  it("describes system contracts from the signed bytes and bills their bandwidth as the chain does (net_usage of the explorer dump)", () => {
    // net_usage as TronGrid reported it for these mainnet transactions (LedgerHQ fixture).
    const netUsage: Record<string, number> = { "3de78211": 265, b0b68ea4: 268, "10a748b8": 252, f5c97972: 279, ea4799c7: 326, "59a153b8": 281 };
    for (const [prefix, bytes] of Object.entries(netUsage)) expect(judge(byTx(prefix))).toMatchObject({ ok: true, tx: { bandwidthBytes: bytes } });
    expect(judge(byTx("10a748b8"))).toMatchObject({ ok: true, tx: { kind: "system", amountSun: "1000000", details: { resource: "ENERGY" } } });
    expect(judge(byTx("f5c97972"))).toMatchObject({ ok: true, tx: { kind: "system", amountSun: "1000000", toAddress: "TQq4YrKRywkd9vLYw2nZKiFfMpbQiL8gKK" } });
    expect(judge(byTx("59a153b8"))).toMatchObject({ ok: true, tx: { kind: "system", amountAtomic: "100000", details: { assetName: "1002000" } } });
    const votes = judge(byTx("ea4799c7"));
    expect(votes.ok && votes.tx.details?.votes?.map((v) => v.count)).toEqual(["12", "12", "11"]);
    expect(judge(byTx("26d6fcdf"))).toMatchObject({ ok: true, tx: { kind: "system", toAddress: "TDJ13zZzT3w91WMBm98gC3mwL7NbA6sQPA" } });
  });

  it("accepts the same transactions printed by a node with explicit zero fields (call_value: 0, fee_limit: 0)", () => {
    // Derived from the real bytes, not counted as real: the corpus holds no node dump with zero fields.
    for (const e of corpus.filter((x) => x.expected.verdict === "accepted")) {
      const printed = { ...e.transaction, raw_data: printRawData(e.transaction.raw_data_hex) };
      expect(verdict(judge(e, printed)), e.file).toBe("accepted");
    }
    const trigger = printRawData(byTx("0d644290").transaction.raw_data_hex);
    expect(JSON.stringify(trigger)).toContain('"call_value":0');
  });
});

describe("fields java-tron's JSON parser ignores, a signed memo, a transfer's real size (real transactions)", () => {
  const accepted = corpus.filter((x) => x.expected.verdict === "accepted");
  /** What a wallet SDK adds beside the signed fields (its own name for the contract type, a label of its own). */
  function withSdkFields(e: CorpusEntry): Record<string, unknown> {
    const t = e.transaction;
    const contract = (t.raw_data["contract"] as Record<string, unknown>[]).map((c) => {
      const parameter = c["parameter"] as Record<string, unknown>;
      return {
        ...c,
        contractType: c["type"],
        parameter: { ...parameter, sdk_note: "SDK-ONLY", value: { ...(parameter["value"] as object), sdkLabel: "SDK-ONLY" } },
      };
    });
    return { ...t, raw_data: { ...t.raw_data, contractType: e.contractType, sdkLabel: "SDK-ONLY", contract } };
  }

  it("accepts every real transaction with a wallet SDK's extra fields (raw_data.contractType and more), and reads the same from its bytes", () => {
    for (const e of accepted) {
      const plain = judge(e);
      const extra = judge(e, withSdkFields(e));
      expect(extra, e.file).toEqual(plain);
      // Nothing of the extra fields reaches what the summary is made of.
      expect(JSON.stringify(extra), e.file).not.toContain("SDK-ONLY");
    }
  });

  it("still refuses a known field that disagrees with the signed bytes, extra fields or not", () => {
    const e = byTx("3de78211");
    const tampered = withSdkFields(e) as { raw_data: { contract: { parameter: { value: Record<string, unknown> } }[] } };
    tampered.raw_data.contract[0]!.parameter.value["amount"] = 2;
    expect(verdict(judge(e, tampered))).toBe("raw_data_mismatch");
    const wrongType = withSdkFields(e) as { raw_data: { contract: Record<string, unknown>[] } };
    wrongType.raw_data.contract[0]!["type"] = "TransferAssetContract";
    expect(verdict(judge(e, wrongType))).toBe("raw_data_mismatch");
  });

  it("reads a signed memo (raw_data.data) of a real mainnet TRC20 transfer from the bytes", () => {
    const v = judge(byTx("ec0fa0d7"));
    expect(v).toMatchObject({ ok: true, tx: { kind: "trc20", memoHex: "73656e6420746f20746f6e79", amountAtomic: "1234560000000000000" } });
    expect(Buffer.from((v.ok && v.tx.memoHex) || "", "hex").toString("utf8")).toBe("send to tony");
  });

  it("estimates a TRX transfer's bandwidth from its real size, as the chain billed it (net_usage of the explorer dump)", () => {
    for (const [prefix, netUsage] of [
      ["3de78211", 265],
      ["b0b68ea4", 268],
    ] as const) {
      const v = judge(byTx(prefix));
      if (!v.ok) throw new Error(prefix);
      expect(summarizeBroadcast(v.tx, 1_000)).toMatchObject({ kind: "trx", resource: "BANDWIDTH", estimates: [{ units: netUsage }] });
    }
  });
});

/** The sender of an entry the checker accepts, base58. */
function ownerOf(e: CorpusEntry): string {
  const v = judge(e);
  if (!v.ok) throw new Error(`${e.transaction.txID} is refused`);
  return v.tx.ownerAddress;
}

describe("signatures java-tron refuses (built from real transactions)", () => {
  const e = byTx("b0b68ea4");
  const sig = e.transaction.signature[0]!;

  it("the same signature twice, or its other half beside it: the same signer twice", () => {
    expect(judge(e, { ...e.transaction, signature: [sig, sig] })).toMatchObject({
      ok: false,
      reason: "duplicate_signature",
      signer: ownerOf(e),
    });
    expect(verdict(judge(e, { ...e.transaction, signature: [sig, otherHalf(sig)] }))).toBe("duplicate_signature");
  });

  it("an unrelated 65-byte signature appended (owner permission, one key)", () => {
    const extra = byTx("3de78211").transaction.signature[0]!;
    expect(verdict(judge(e, { ...e.transaction, signature: [sig, extra] }))).toBe("extra_signature");
  });

  it("recovery bytes out of java-tron's range, and more than five signatures", () => {
    for (const v of ["09", "1a", "23", "7f", "80", "e4", "ff"]) {
      const v2 = judge(e, { ...e.transaction, signature: [sig.slice(0, 128) + v] });
      expect(v2, v).toMatchObject({ ok: false, reason: "signature_format", index: 1, problem: { code: "header_out_of_range" } });
    }
    expect(verdict(judge(e, { ...e.transaction, signature: Array<string>(6).fill(sig) }))).toBe("too_many_signatures");
  });
});

describe("permissions other than the owner's (self-signed test transactions, not part of the corpus)", () => {
  const { alice, bob } = TEST_KEYS;
  const NOW = 1_760_000_000_000;
  function withPermission(id: number, key: string): SignedTx {
    const tx: SignedTx = {
      visible: true,
      txID: "",
      raw_data: {
        contract: [
          {
            type: "TransferContract",
            parameter: {
              type_url: "type.googleapis.com/protocol.TransferContract",
              value: { owner_address: alice.address, to_address: bob.address, amount: 5 },
            },
            Permission_id: id,
          },
        ],
        ref_block_bytes: "1a2b",
        ref_block_hash: "0011223344556677",
        expiration: NOW + 600_000,
        timestamp: NOW,
      },
      raw_data_hex: "",
    };
    return finalizeAndSign(tx, key);
  }

  it("accepts a Permission_id ≠ 0 transaction the owner signed, and says which permission", () => {
    const v = verifySignedTransaction(withPermission(2, alice.privateKey), NOW);
    expect(v).toMatchObject({ ok: true, tx: { permissionId: 2, signers: [alice.address] } });
  });

  it("refuses one signed only by other keys: the service checks the signature against the owner", () => {
    const v = verifySignedTransaction(withPermission(2, bob.privateKey), NOW);
    expect(v).toMatchObject({ ok: false, reason: "permission_not_owner" });
    const twice = cloneTx(withPermission(3, alice.privateKey));
    expect(verdict(verifySignedTransaction({ ...twice, signature: [twice.signature![0]!, twice.signature![0]!] }, NOW))).toBe("duplicate_signature");
  });
});

/**
 * A sample of the mutation sweep: every 20th position, shifted by one per transaction, so the corpus as
 * a whole still flips bytes at every offset. Every position of every transaction is the slow suite's
 * (corpus-sweep.slow.test.ts): one signature recovery per consistent mutant, about 14 CPU-seconds.
 */
describeMutationSweep(corpus, 20);
