import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicToUsdt } from "../../../src/shared/money.js";
import {
  TEST_KEYS,
  resignWith,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrc20Amount,
  withDeclaredTxId,
  withTwoContracts,
} from "../../../testkit/tron-sign.js";
import { caught, leakedKeys, startHarness, type Harness } from "./sim-harness.js";
import { waitUntil } from "../../support/wait.js";

/** POST/GET /v1/broadcasts with transactions signed offline, and every broadcast error of section 7. */

const { alice, bob, carol } = TEST_KEYS;
let nonce = 0n;
const usdt = (over: { expiresInMs?: number; privateKey?: string; to?: string } = {}) =>
  signTrc20Transfer({
    privateKey: over.privateKey ?? alice.privateKey,
    to: over.to ?? bob.address,
    amountAtomic: 12_500_000n + (nonce += 1n),
    expirationMs: Date.now() + (over.expiresInMs ?? 600_000),
  });

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(leakedKeys(h)).toEqual([]);
});

describe("submitting signed transactions", () => {
  it("accepts a TRC20 transfer (202) and reads it back as kind usdt with the exact amount", async () => {
    const { apiKey, accountId } = h.account();
    const client = h.client();
    const tx = usdt();
    const accepted = await client.createBroadcast(tx, apiKey);
    expect(accepted.status).toBe("pending_energy");
    expect(accepted.broadcastId).toMatch(/^[0-9a-f]{24}$/);

    const b = await client.getBroadcast(apiKey, accepted.broadcastId);
    expect(b).toMatchObject({ kind: "usdt", txId: tx.txID, fromAddress: alice.address, toAddress: bob.address, resource: "ENERGY" });
    expect(atomicToUsdt(b.amountAtomic!)).toBe(atomicToUsdt(BigInt(b.amountAtomic!)));
    expect(b.amountAtomic).toMatch(/^125000\d\d$/);
    expect(b.failureReason ?? null).toBeNull();
    expect(
      h.sim
        .ledger(accountId)
        .filter((l) => l.kind === "debit")
        .map((l) => l.amountSun),
    ).toEqual([b.totalCostSun]);
  });

  it("accepts a TRX transfer, provisioned as BANDWIDTH (kind tron)", async () => {
    const { apiKey } = h.account();
    const client = h.client();
    const tx = signTrxTransfer({ privateKey: alice.privateKey, to: carol.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });
    const accepted = await client.createBroadcast(tx, apiKey);
    const b = await client.getBroadcast(apiKey, accepted.broadcastId);
    expect(b).toMatchObject({ kind: "tron", resource: "BANDWIDTH", txId: tx.txID });
  });

  it("charges the key's account for a transaction signed by someone else (sponsored)", async () => {
    const sponsor = h.account();
    await h.client().createBroadcast(usdt({ privateKey: carol.privateKey }), sponsor.apiKey);
    expect(h.sim.ledger(sponsor.accountId).some((l) => l.kind === "debit")).toBe(true);
  });

  it("anonymous: sends no Authorization and charges the account of fromAddress", async () => {
    const owner = h.account({ address: alice.address });
    const since = h.mark();
    const accepted = await h.client().createBroadcast(usdt(), undefined);
    expect(accepted.status).toBe("pending_energy");
    expect(since()[0]!.hasAuth).toBe(false);
    expect(h.sim.ledger(owner.accountId).some((l) => l.kind === "debit")).toBe(true);
  });

  it("anonymous from an address without an account: 422 wallet.not_registered", async () => {
    const e = await caught(h.client().createBroadcast(usdt({ privateKey: bob.privateKey, to: alice.address }), undefined));
    expect(e).toMatchObject({ code: "wallet.not_registered", status: 422 });
  });

  it("404 not_found when another account reads the broadcast", async () => {
    const owner = h.account();
    const other = h.account();
    const client = h.client();
    const { broadcastId } = await client.createBroadcast(usdt(), owner.apiKey);
    const e = await caught(client.getBroadcast(other.apiKey, broadcastId));
    expect(e).toMatchObject({ code: "not_found", status: 404 });
  });

  it("follows the lifecycle to confirmed with broadcastTxid", async () => {
    await h.stop();
    h = await startHarness({ broadcastStepMs: 10 });
    const { apiKey } = h.account();
    const client = h.client();
    const { broadcastId } = await client.createBroadcast(usdt(), apiKey);
    const b = await waitUntil(async () => {
      const read = await client.getBroadcast(apiKey, broadcastId);
      return ["confirmed", "failed", "expired"].includes(read.status) && read;
    });
    expect(b.status).toBe("confirmed");
    expect(b.broadcastTxid).toBe(b.txId);
  });

  it("reports failed with a failureReason and refunds; the same txId is then accepted again", async () => {
    await h.stop();
    h = await startHarness({ broadcastStepMs: 10 });
    const { apiKey, accountId } = h.account();
    const client = h.client();
    const tx = usdt();
    h.sim.control.setBroadcastOutcome(tx.txID, "failed", "out_of_energy");
    const { broadcastId } = await client.createBroadcast(tx, apiKey);
    const b = await waitUntil(async () => {
      const read = await client.getBroadcast(apiKey, broadcastId);
      return read.status === "failed" && read;
    });
    expect(b.failureReason).toBe("out_of_energy");
    expect(h.sim.ledger(accountId).some((l) => l.kind === "refund")).toBe(true);
    h.sim.control.setBroadcastOutcome(tx.txID, "confirmed");
    expect((await client.createBroadcast(tx, apiKey)).status).toBe("pending_energy");
  });
});

describe("broadcast errors (none charges, none is retried)", () => {
  const cases: [string, number, string, (h: Harness) => unknown][] = [
    ["signedTx not an object", 400, "validation.invalid_field", () => "not a transaction"],
    ["unreadable transaction", 400, "broadcast.malformed", () => ({ txID: "zz", raw_data: {} })],
    ["no signature", 400, "broadcast.no_signature", () => stripSignature(usdt())],
    ["txID mismatch", 422, "broadcast.invalid_tx", () => withDeclaredTxId(usdt(), "ab".repeat(32))],
    ["JSON differs from signed bytes", 422, "broadcast.invalid_tx", () => tamperTrc20Amount(usdt(), 999n, bob.address)],
    ["signed by another key", 422, "broadcast.invalid_tx", () => resignWith(usdt(), bob.privateKey)],
    ["two contracts", 422, "broadcast.unsupported_contract", () => withTwoContracts(usdt(), alice.privateKey)],
    ["expires in 10 s", 422, "broadcast.tx_expired", () => usdt({ expiresInMs: 10_000 })],
    ["expires in 60 s", 422, "broadcast.insufficient_time", () => usdt({ expiresInMs: 60_000 })],
    [
      "simulation reverts",
      422,
      "broadcast.tx_would_revert",
      (hh) => {
        hh.sim.chain.setReverts(alice.address, true);
        return usdt();
      },
    ],
    [
      "sender lacks the token",
      422,
      "broadcast.insufficient_usdt",
      (hh) => {
        hh.sim.chain.setTokenBalance(alice.address, 1n);
        return usdt();
      },
    ],
    [
      "sender lacks bandwidth",
      422,
      "broadcast.insufficient_bandwidth",
      (hh) => {
        hh.sim.chain.setNoBandwidth(alice.address, true);
        return usdt();
      },
    ],
  ];

  it.each(cases)("%s → %d %s", async (_name, status, code, build) => {
    const { apiKey, accountId } = h.account({ balanceSun: 50_000_000_000 });
    const signedTx = build(h);
    const since = h.mark();
    const e = await caught(h.client().createBroadcast(signedTx, apiKey));
    expect(e).toMatchObject({ code, status, method: "POST", path: "/v1/broadcasts" });
    expect(e.requestId).toMatch(/^req_/);
    expect(since()).toHaveLength(1);
    expect(h.sim.balanceOf(accountId)).toBe(50_000_000_000);
  });

  it("says which check failed for a wrong signer", async () => {
    const { apiKey } = h.account();
    const e = await caught(h.client().createBroadcast(resignWith(usdt(), bob.privateKey), apiKey));
    expect(e.detail).toContain("Signature does not match fromAddress");
  });

  it("402 wallet.insufficient_balance with requiredSun for a broadcast", async () => {
    const { apiKey } = h.account({ balanceSun: 1 });
    const e = await caught(h.client().createBroadcast(usdt(), apiKey));
    expect(e.code).toBe("wallet.insufficient_balance");
    expect(e.requiredSun).toBeGreaterThan(1);
  });

  it("refuses a signedTx over 1 MiB before sending", async () => {
    const { apiKey } = h.account();
    const since = h.mark();
    const e = await caught(h.client().createBroadcast({ ...usdt(), padding: "x".repeat(1_100_000) }, apiKey));
    expect(e).toMatchObject({ code: "client.body_too_large", status: 0 });
    expect(since()).toHaveLength(0);
  });
});
