import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../testkit/simulator/index.js";
import { randomAddress, signTrc20Transfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { call, startHookReceiver, startTestSimulator, waitFor, type HookReceiver, type ReceivedHook } from "./helpers.js";

const { alice, bob } = TEST_KEYS;
const item = { toAddress: bob.address, amount: 65_000, resource: "ENERGY", durationSec: 300 };

function verify(hook: ReceivedHook, secret: string): { t: number; ok: boolean } {
  const header = String(hook.headers["x-service-signature"]);
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return { t: 0, ok: false };
  const expected = createHmac("sha256", secret).update(`${m[1]}.${hook.body}`).digest("hex");
  return { t: Number(m[1]), ok: expected === m[2] };
}

function events(r: HookReceiver): string[] {
  return r.received.map((h) => String(h.headers["x-service-event"]));
}

describe("simulator webhooks, nested layout", () => {
  let sim: Simulator;
  let receiver: HookReceiver;
  beforeAll(async () => {
    sim = await startTestSimulator({ webhookPayloadLayout: "nested", webhookMaxAttempts: 4 });
  });
  afterAll(() => sim.stop());
  beforeAll(async () => {
    receiver = await startHookReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    receiver.received.length = 0;
    receiver.respondWith([200]);
  });

  it("posts order.created and order.fulfilled with a valid signature to the key's callback URL", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey, webhookSecret } = sim.createApiKey(accountId, { callbackUrl: receiver.url });
    const r = await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "w1", body: { items: [item] } });
    const orderId = r.json.orders[0].orderId as string;
    await waitFor(() => events(receiver).includes("order.fulfilled"));
    expect(events(receiver)).toEqual(["order.created", "order.fulfilled"]);
    for (const hook of receiver.received) {
      const sig = verify(hook, webhookSecret);
      expect(sig.ok).toBe(true);
      expect(Math.abs(sig.t - Date.now() / 1000)).toBeLessThan(300);
      expect(hook.headers["x-service-delivery-id"]).toEqual(expect.any(String));
      expect(hook.headers["x-service-delivery-sig"]).toMatch(/^v1=[0-9a-f]{64}$/);
      const body = JSON.parse(hook.body);
      expect(body).toMatchObject({ id: hook.headers["x-service-delivery-id"], event: hook.headers["x-service-event"], data: { order: { orderId } } });
      expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
    }
    expect(JSON.parse(receiver.received[1]!.body).data.order).toMatchObject({ status: "fulfilled", remainAmount: 0 });
    expect(verify(receiver.received[0]!, "whsec_wrong").ok).toBe(false);
  });

  it("retries a failing receiver with the same delivery id and body, a new t, and a stable Delivery-Sig", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey, webhookSecret } = sim.createApiKey(accountId, { callbackUrl: receiver.url });
    sim.control.pauseLifecycles(true);
    receiver.respondWith([500, 503, 200]);
    await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "w2", body: { items: [item] } });
    await waitFor(() => receiver.received.length >= 3);
    sim.control.pauseLifecycles(false);
    const [a, b, c] = receiver.received;
    expect(new Set([a, b, c].map((h) => h!.headers["x-service-delivery-id"])).size).toBe(1);
    expect(new Set([a, b, c].map((h) => h!.body)).size).toBe(1);
    expect(new Set([a, b, c].map((h) => h!.headers["x-service-delivery-sig"])).size).toBe(1);
    for (const h of [a, b, c]) expect(verify(h!, webhookSecret).ok).toBe(true);
    const id = String(a!.headers["x-service-delivery-id"]);
    // The simulator logs an attempt once the receiver's answer is back, after the receiver has seen it.
    const log = await waitFor(() => {
      const attempts = sim.webhookDeliveries.filter((d) => d.deliveryId === id);
      return attempts.length >= 3 && attempts;
    });
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    const expectedSig = createHmac("sha256", webhookSecret).update(`${id}.${a!.body}`).digest("hex");
    expect(a!.headers["x-service-delivery-sig"]).toBe(`v1=${expectedSig}`);
  });

  it("gives up after webhookMaxAttempts", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey } = sim.createApiKey(accountId, { callbackUrl: receiver.url });
    sim.control.pauseLifecycles(true);
    receiver.respondWith([500]);
    await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "w3", body: { items: [item] } });
    const id = await waitFor(() => receiver.received[0]?.headers["x-service-delivery-id"]);
    await waitFor(() => sim.webhookDeliveries.filter((d) => d.deliveryId === id).length === 4);
    sim.control.pauseLifecycles(false);
    expect(sim.webhookDeliveries.filter((d) => d.deliveryId === id).map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("records an unreachable callback as status error and retries it", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey } = sim.createApiKey(accountId, { callbackUrl: "http://127.0.0.1:9/nothing" });
    sim.control.pauseLifecycles(true);
    await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "w4", body: { items: [item] } });
    await waitFor(() => sim.webhookDeliveries.filter((d) => d.url.endsWith(":9/nothing")).length >= 2);
    sim.control.pauseLifecycles(false);
    expect(sim.webhookDeliveries.find((d) => d.url.endsWith(":9/nothing"))!.status).toBe("error");
  });

  it("sends broadcast.accepted with txId and broadcast.failed with status expired", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey } = sim.createApiKey(accountId, { callbackUrl: receiver.url });
    const tx = signTrc20Transfer({ privateKey: alice.privateKey, to: randomAddress(), amountAtomic: 7n, expirationMs: Date.now() + 600_000 });
    sim.control.setBroadcastOutcome(tx.txID, "expired");
    await call(sim, "POST", "/v1/broadcasts", { apiKey, body: { signedTx: tx } });
    await waitFor(() => events(receiver).includes("broadcast.failed"));
    // Earlier tests' order events may still trickle in; look at this broadcast's only.
    const mine = receiver.received.filter((h) => String(h.headers["x-service-event"]).startsWith("broadcast."));
    expect(mine.map((h) => h.headers["x-service-event"])).toEqual(["broadcast.accepted", "broadcast.failed"]);
    expect(JSON.parse(mine[0]!.body).data.broadcast).toMatchObject({ txId: tx.txID, status: "pending_energy" });
    expect(JSON.parse(mine[1]!.body).data.broadcast).toMatchObject({ txId: tx.txID, status: "expired" });
  });

  it("sends nothing for an anonymous broadcast", async () => {
    const owner = sim.createAccount({ balanceSun: 100_000_000, address: TEST_KEYS.carol.address });
    sim.setCallbackUrl(owner.apiKey, receiver.url);
    const tx = signTrc20Transfer({ privateKey: TEST_KEYS.carol.privateKey, to: randomAddress(), amountAtomic: 9n, expirationMs: Date.now() + 600_000 });
    receiver.received.length = 0;
    const id = (await call(sim, "POST", "/v1/broadcasts", { body: { signedTx: tx } })).json.broadcastId as string;
    await waitFor(async () => (await call(sim, "GET", `/v1/broadcasts/${id}`, { apiKey: owner.apiKey })).json.broadcast.status === "confirmed");
    expect(receiver.received.filter((h) => String(h.headers["x-service-event"]).startsWith("broadcast."))).toHaveLength(0);
  });
});

describe("simulator webhooks, flat layout and a custom header prefix", () => {
  let sim: Simulator;
  let receiver: HookReceiver;
  beforeAll(async () => {
    sim = await startTestSimulator({ webhookPayloadLayout: "flat", headerPrefix: "X-Acme" });
    receiver = await startHookReceiver();
  });
  afterAll(async () => {
    await sim.stop();
    await receiver.close();
  });

  it("puts the record's fields at the top level next to event, and signs with the prefix's headers", async () => {
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey, webhookSecret } = sim.createApiKey(accountId, { callbackUrl: receiver.url });
    const tx = signTrc20Transfer({ privateKey: alice.privateKey, to: randomAddress(), amountAtomic: 11n, expirationMs: Date.now() + 600_000 });
    await call(sim, "POST", "/v1/broadcasts", { apiKey, body: { signedTx: tx } });
    await waitFor(() => receiver.received.some((h) => h.headers["x-acme-event"] === "broadcast.confirmed"));
    const confirmed = receiver.received.find((h) => h.headers["x-acme-event"] === "broadcast.confirmed")!;
    expect(JSON.parse(confirmed.body)).toMatchObject({ event: "broadcast.confirmed", txId: tx.txID, status: "confirmed", broadcastTxid: tx.txID });
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(confirmed.headers["x-acme-signature"]))!;
    expect(createHmac("sha256", webhookSecret).update(`${m[1]}.${confirmed.body}`).digest("hex")).toBe(m[2]);
    expect(confirmed.headers["x-acme-delivery-id"]).toEqual(expect.any(String));
  });
});
