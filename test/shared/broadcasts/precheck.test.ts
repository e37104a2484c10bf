import { describe, expect, it } from "vitest";
import { MAX_SIGNED_TX_BYTES, precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import {
  resignWith,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrxAmount,
  TEST_KEYS,
  withDeclaredTxId,
  withTwoContracts,
} from "../../../testkit/tron-sign.js";

const NOW = 1_800_000_000_000;
const base = { nowMs: NOW, baseUnitPriceSun: 60 };
const usdt = () =>
  signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountAtomic: 12_345_678n, expirationMs: NOW + 600_000 });

describe("precheckBroadcast", () => {
  it("summarizes a USDT transfer exactly, with both recipient estimates at the base unit price", () => {
    const result = precheckBroadcast({ ...base, input: JSON.stringify(usdt()) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.summary).toMatchObject({
      kind: "usdt",
      fromAddress: TEST_KEYS.alice.address,
      toAddress: TEST_KEYS.bob.address,
      amountAtomic: "12345678",
      resource: "ENERGY",
      expirationMs: NOW + 600_000,
      estimates: [
        { units: 64_000, feeSun: "3840000", recipient: "holder" },
        { units: 130_000, feeSun: "7800000", recipient: "first_time" },
      ],
    });
  });

  it("summarizes a TRX transfer as bandwidth and unwraps {signedTx: …}", () => {
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: NOW + 300_000 });
    const result = precheckBroadcast({ ...base, input: { signedTx: tx } });
    expect(result.ok && result.summary).toMatchObject({ kind: "trx", amountSun: "1500000", resource: "BANDWIDTH", toAddress: TEST_KEYS.carol.address });
  });

  it("refuses with a precise reason before anything is sent", () => {
    const tx = usdt();
    const reason = (input: unknown, nowMs = NOW) => {
      const r = precheckBroadcast({ ...base, nowMs, input });
      return r.ok ? "ok" : r.reason;
    };
    expect(reason("{not json")).toBe("not_json");
    expect(reason("[1,2]")).toBe("not_object");
    expect(reason(withDeclaredTxId(tx, "ab".repeat(32)))).toBe("txid_mismatch");
    expect(
      reason(
        tamperTrxAmount(signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1, expirationMs: NOW + 300_000 }), 999),
      ),
    ).toBe("raw_data_mismatch");
    expect(reason(stripSignature(tx))).toBe("no_signature");
    expect(reason(resignWith(tx, TEST_KEYS.carol.privateKey))).toBe("bad_signature");
    expect(reason(withTwoContracts(tx, TEST_KEYS.alice.privateKey))).toBe("multiple_contracts");
    expect(reason(tx, NOW + 600_000 - 29_000)).toBe("expired");
    expect(reason(tx, NOW + 600_000 + 1)).toBe("expired");
    expect(reason(tx, NOW + 600_000 - 60_000)).toBe("insufficient_time");
    expect(reason(" ".repeat(MAX_SIGNED_TX_BYTES + 1))).toBe("too_large");
  });
});
