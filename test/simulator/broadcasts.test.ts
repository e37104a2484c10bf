import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TronWeb } from "tronweb";
import { getBroadcastResponseSchema } from "../../src/platform/service/schemas.js";
import type { Simulator } from "../../testkit/simulator/index.js";
import {
  randomAddress,
  type TestKey,
  resignWith,
  signContract,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrc20Amount,
  TEST_KEYS,
  withDeclaredTxId,
  withTwoContracts,
} from "../../testkit/tron-sign.js";
import { call, startTestSimulator, waitFor } from "./helpers.js";

import { loadCorpus, ownTime } from "../support/tron-corpus.js";

const { alice, bob, carol, dave, erin } = TEST_KEYS;
const BASE = 100;
let amountSeq = 1_000_000n;

describe("POST /v1/broadcasts", () => {
  let sim: Simulator;
  const clock = { now: Date.now() };
  beforeAll(async () => {
    sim = await startTestSimulator({ baseUnitPriceSun: BASE, now: () => clock.now });
  });
  afterAll(() => sim.stop());

  /** A fresh USDT transfer alice → bob (a new amount each time gives a new txID). */
  const usdtTx = (o: { from?: TestKey; to?: string; amount?: bigint; expiresInMs?: number } = {}) =>
    signTrc20Transfer({
      privateKey: (o.from ?? alice).privateKey,
      to: o.to ?? randomAddress(),
      amountAtomic: o.amount ?? amountSeq++,
      expirationMs: clock.now + (o.expiresInMs ?? 600_000),
    });
  const submit = (signedTx: unknown, apiKey?: string) =>
    call(sim, "POST", "/v1/broadcasts", { body: { signedTx }, ...(apiKey === undefined ? {} : { apiKey }) });
  const read = async (apiKey: string, id: string) =>
    getBroadcastResponseSchema.parse((await call(sim, "GET", `/v1/broadcasts/${id}`, { apiKey })).json).broadcast;

  it("accepts a signed USDT transfer with 202, charges 130,000 × base for a first-time recipient", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = usdtTx({ amount: 12_345_678n, to: bob.address });
    const r = await submit(tx, apiKey);
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ broadcastId: expect.stringMatching(/^[0-9a-f]{24}$/), status: "pending_energy" });
    expect(sim.balanceOf(accountId)).toBe(100_000_000 - 130_000 * BASE);
    const b = await read(apiKey, r.json.broadcastId);
    expect(b).toMatchObject({
      kind: "usdt",
      txId: tx.txID,
      fromAddress: alice.address,
      toAddress: bob.address,
      amountAtomic: "12345678",
      resource: "ENERGY",
      resourceRequired: 130_000,
      energyRequired: 130_000,
      totalCostSun: 13_000_000,
      failureReason: null,
      txExpirationMs: tx.raw_data.expiration,
    });
    expect(b.energyOrderId).toMatch(/^[0-9a-f]{24}$/);
  });

  it("charges about 64,000 energy when the recipient already holds the token", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.chain.setHoldsToken(carol.address, true);
    const r = await submit(usdtTx({ to: carol.address }), apiKey);
    expect((await read(apiKey, r.json.broadcastId)).totalCostSun).toBe(64_000 * BASE);
  });

  it("provisions BANDWIDTH for a TRX transfer and records kind tron", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: clock.now + 600_000 });
    const r = await submit(tx, apiKey);
    expect(r.status).toBe(202);
    expect(await read(apiKey, r.json.broadcastId)).toMatchObject({ kind: "tron", resource: "BANDWIDTH", energyRequired: 0, toAddress: carol.address });
  });

  it("runs the lifecycle to confirmed, with broadcastTxid from confirming on, and keeps the debit", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = usdtTx();
    const id = (await submit(tx, apiKey)).json.broadcastId as string;
    const seen: string[] = [];
    const done = await waitFor(async () => {
      const b = await read(apiKey, id);
      if (seen.at(-1) !== b.status) seen.push(b.status);
      if (b.status === "confirming") expect(b.broadcastTxid).toBe(tx.txID);
      return b.status === "confirmed" && b;
    });
    expect(done.broadcastTxid).toBe(tx.txID);
    const order = ["pending_energy", "ready", "broadcasting", "confirming", "confirmed"];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    expect(sim.ledger(accountId).filter((e) => e.kind === "refund")).toHaveLength(0);
  });

  it("refunds a failed broadcast by a separate ledger entry and accepts the same txId again", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = usdtTx();
    sim.control.setBroadcastOutcome(tx.txID, "failed", "OUT_OF_ENERGY");
    const id = (await submit(tx, apiKey)).json.broadcastId as string;
    expect((await submit(tx, apiKey)).json.code).toBe("broadcast.duplicate_tx");
    const b = await waitFor(async () => {
      const x = await read(apiKey, id);
      return x.status === "failed" && x;
    });
    expect(b.failureReason).toBe("OUT_OF_ENERGY");
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
    expect(sim.ledger(accountId).map((e) => [e.kind, e.amountSun, e.ref])).toEqual([
      ["deposit", 100_000_000, "initial"],
      ["debit", 13_000_000, id],
      ["refund", 13_000_000, id],
    ]);
    sim.control.setBroadcastOutcome(tx.txID, "confirmed");
    const again = await submit(tx, apiKey);
    expect(again.status).toBe(202);
    expect(again.json.broadcastId).not.toBe(id);
  });

  it("marks a broadcast expired (and refunds) when told to, or when its expiration passes before confirmation", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.control.pauseLifecycles(true);
    const tx = usdtTx({ expiresInMs: 90_000 });
    const id = (await submit(tx, apiKey)).json.broadcastId as string;
    clock.now += 120_000;
    sim.control.pauseLifecycles(false);
    const b = await waitFor(async () => {
      const x = await read(apiKey, id);
      return x.status === "expired" && x;
    });
    clock.now -= 120_000;
    expect(b.failureReason).toEqual(expect.any(String));
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
    const tx2 = usdtTx();
    sim.control.setBroadcastOutcome(tx2.txID, "expired");
    const id2 = (await submit(tx2, apiKey)).json.broadcastId as string;
    await waitFor(async () => (await read(apiKey, id2)).status === "expired");
  });

  it("refuses a duplicate txId while in flight and after confirmation with 409 broadcast.duplicate_tx", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = usdtTx();
    const id = (await submit(tx, apiKey)).json.broadcastId as string;
    const dup = await submit(tx, apiKey);
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ code: "broadcast.duplicate_tx", broadcastId: id });
    await waitFor(async () => (await read(apiKey, id)).status === "confirmed");
    expect((await submit(tx, apiKey)).json.code).toBe("broadcast.duplicate_tx");
  });

  it("charges the key's account for a transaction another address signed (sponsored)", async () => {
    const sponsor = sim.createAccount({ balanceSun: 100_000_000 });
    const signer = sim.createAccount({ balanceSun: 100_000_000, address: dave.address });
    expect((await submit(usdtTx({ from: dave }), sponsor.apiKey)).status).toBe(202);
    expect(sim.balanceOf(sponsor.accountId)).toBe(87_000_000);
    expect(sim.balanceOf(signer.accountId)).toBe(100_000_000);
  });

  it("charges the account owning fromAddress on the anonymous path, and 422 wallet.not_registered otherwise", async () => {
    const owner = sim.createAccount({ balanceSun: 100_000_000, address: erin.address });
    const r = await submit(usdtTx({ from: erin }));
    expect(r.status).toBe(202);
    expect(sim.balanceOf(owner.accountId)).toBe(87_000_000);
    expect((await read(owner.apiKey, r.json.broadcastId)).fromAddress).toBe(erin.address);
    const stranger = await submit(usdtTx({ from: carol }));
    expect(stranger.status).toBe(422);
    expect(stranger.json.code).toBe("wallet.not_registered");
  });

  it("reads another scheme or an empty Bearer token as no key (anonymous path, no 401)", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    for (const authorization of ["Basic abc", "Bearer "]) {
      const r = await call(sim, "POST", "/v1/broadcasts", { body: { signedTx: usdtTx({ from: carol }) }, headers: { authorization } });
      expect(r.json.code).toBe("wallet.not_registered");
    }
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
  });

  it("refuses a well-formed but invalid or revoked key with 401", async () => {
    expect((await submit(usdtTx(), "sk_sim_unknown")).json.code).toBe("api_key.invalid");
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.revokeKey(apiKey);
    expect((await submit(usdtTx(), apiKey)).json.code).toBe("api_key.revoked");
  });

  it("answers 402 with requiredSun when the fee is not covered, charging nothing", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 1_000_000 });
    const r = await submit(usdtTx(), apiKey);
    expect(r.status).toBe(402);
    expect(r.json).toMatchObject({ code: "wallet.insufficient_balance", requiredSun: 13_000_000 });
    expect(sim.balanceOf(accountId)).toBe(1_000_000);
  });

  it.each([
    ["a txID that does not match", 422, "broadcast.invalid_tx", (t: ReturnType<typeof signTrc20Transfer>) => withDeclaredTxId(t, "ab".repeat(32))],
    ["a signature by another key", 422, "broadcast.invalid_tx", (t: ReturnType<typeof signTrc20Transfer>) => resignWith(t, carol.privateKey)],
    ["no signature", 400, "broadcast.no_signature", (t: ReturnType<typeof signTrc20Transfer>) => stripSignature(t)],
    ["an unreadable transaction", 400, "broadcast.malformed", () => ({ txID: "x", raw_data: 1 })],
    ["two contracts", 422, "broadcast.unsupported_contract", (t: ReturnType<typeof signTrc20Transfer>) => withTwoContracts(t, alice.privateKey)],
    ["JSON changed after signing", 422, "broadcast.invalid_tx", (t: ReturnType<typeof signTrc20Transfer>) => tamperTrc20Amount(t, 1n, bob.address)],
  ])("refuses %s (%i %s) and charges nothing", async (_name, status, code, mutate) => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const r = await submit(mutate(usdtTx()), apiKey);
    expect(r.status).toBe(status);
    expect(r.json.code).toBe(code);
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
  });

  it("names both ids on a txID mismatch and the sender on a bad signature", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const tx = usdtTx();
    const declared = "cd".repeat(32);
    expect((await submit(withDeclaredTxId(tx, declared), apiKey)).json.detail).toContain(`txID mismatch: declared=${declared} derived=${tx.txID}`);
    expect((await submit(resignWith(tx, carol.privateKey), apiKey)).json.detail).toContain("Signature does not match fromAddress");
  });

  it("refuses a missing or non-object signedTx with 400 validation.invalid_field", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    for (const body of [{}, { signedTx: "abc" }, { signedTx: [1] }, { signedTx: null }]) {
      const r = await call(sim, "POST", "/v1/broadcasts", { apiKey, body });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe("validation.invalid_field");
    }
  });

  it("applies the expiration windows: < 30 s tx_expired, 30 to < 75 s insufficient_time, 75 s accepted", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const cases: Array<[number, number, string | undefined]> = [
      [-5_000, 422, "broadcast.tx_expired"],
      [29_999, 422, "broadcast.tx_expired"],
      [30_000, 422, "broadcast.insufficient_time"],
      [74_999, 422, "broadcast.insufficient_time"],
      [75_000, 202, undefined],
    ];
    for (const [left, status, code] of cases) {
      const r = await submit(usdtTx({ expiresInMs: left }), apiKey);
      expect([left, r.status, r.json.code]).toEqual([left, status, code]);
    }
  });

  it("refuses a transfer larger than the sender's token balance with 422 broadcast.insufficient_usdt", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.chain.setTokenBalance(bob.address, 5_000_000n);
    const r = await submit(usdtTx({ from: bob, to: carol.address, amount: 5_000_001n }), apiKey);
    expect(r.json.code).toBe("broadcast.insufficient_usdt");
    expect((await submit(usdtTx({ from: bob, to: carol.address, amount: 5_000_000n }), apiKey)).status).toBe(202);
  });

  it("refuses what simulation says would revert or lacks bandwidth, and provisions bandwidth for a system contract", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.chain.setReverts(erin.address, true);
    expect((await submit(usdtTx({ from: erin }), apiKey)).json.code).toBe("broadcast.tx_would_revert");
    sim.chain.setReverts(erin.address, false);
    sim.chain.setNoBandwidth(erin.address, true);
    expect((await submit(usdtTx({ from: erin }), apiKey)).json.code).toBe("broadcast.insufficient_bandwidth");
    sim.chain.setNoBandwidth(erin.address, false);
    const freeze = signContract({
      privateKey: carol.privateKey,
      expirationMs: clock.now + 600_000,
      type: "FreezeBalanceV2Contract",
      value: { owner_address: TronWeb.address.toHex(carol.address), frozen_balance: 1_000_000, resource: "ENERGY" },
    });
    // A system contract is provisioned as BANDWIDTH: the size the chain charges for it.
    const accepted = await submit(freeze, apiKey);
    expect(accepted.status).toBe(202);
    const record = await read(apiKey, String(accepted.json.broadcastId));
    expect(record).toMatchObject({ resource: "BANDWIDTH", kind: "tron", energyRequired: 0 });
    expect(record.resourceRequired).toBe((freeze.raw_data_hex.length + freeze.signature![0]!.length) / 2 + 2 + 2 + 64);
  });

  it("judges signatures as java-tron does: a real high-s signature is accepted, extra or duplicate signatures are refused", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const corpus = loadCorpus();
    const highS = corpus.find((e) => e.transaction.txID.startsWith("3de78211"))!;
    const other = corpus.find((e) => e.transaction.txID.startsWith("b0b68ea4"))!;
    const saved = clock.now;
    try {
      clock.now = ownTime(other);
      const sig = other.transaction.signature[0]!;
      const extra = await submit({ ...other.transaction, signature: [sig, highS.transaction.signature[0]!] }, apiKey);
      expect([extra.status, extra.json.code]).toEqual([422, "broadcast.invalid_tx"]);
      const twice = await submit({ ...other.transaction, signature: [sig, sig] }, apiKey);
      expect([twice.status, twice.json.code, twice.json.detail]).toEqual([422, "broadcast.invalid_tx", expect.stringContaining("has signed twice")]);
      clock.now = ownTime(highS);
      const accepted = await submit(highS.transaction, apiKey);
      expect(accepted.status).toBe(202);
      expect(await read(apiKey, String(accepted.json.broadcastId))).toMatchObject({ txId: highS.transaction.txID, resource: "BANDWIDTH" });
    } finally {
      clock.now = saved;
    }
  });

  it("answers 503 broadcast.upstream_unavailable when a fault says the node is down, charging nothing", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.faults.inject({ method: "POST", path: "/v1/broadcasts", times: 1, kind: "status", status: 503, code: "broadcast.upstream_unavailable" });
    const r = await submit(usdtTx(), apiKey);
    expect(r.status).toBe(503);
    expect(r.json.code).toBe("broadcast.upstream_unavailable");
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
  });

  it("scopes GET /v1/broadcasts/{id} to the submitting account", async () => {
    const a = sim.createAccount({ balanceSun: 100_000_000 });
    const b = sim.createAccount();
    const id = (await submit(usdtTx(), a.apiKey)).json.broadcastId as string;
    expect((await call(sim, "GET", `/v1/broadcasts/${id}`, { apiKey: b.apiKey })).status).toBe(404);
    expect((await call(sim, "GET", `/v1/broadcasts/${id}`)).status).toBe(401);
    expect((await call(sim, "GET", `/v1/broadcasts/${"0".repeat(24)}`, { apiKey: a.apiKey })).json.code).toBe("not_found");
  });
});
