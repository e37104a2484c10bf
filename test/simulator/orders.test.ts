import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrdersResponseSchema, getOrderResponseSchema } from "../../src/platform/service/schemas.js";
import type { Simulator } from "../../testkit/simulator/index.js";
import { TEST_KEYS, USDT_MAINNET } from "../../testkit/tron-sign.js";
import { call, startTestSimulator, waitFor } from "./helpers.js";

const { bob, carol, dave } = TEST_KEYS;
const item = (o: Record<string, unknown> = {}) => ({ toAddress: bob.address, amount: 65_000, resource: "ENERGY", durationSec: 300, ...o });
let seq = 0;
const key = () => `idem-${++seq}`;

describe("POST /v1/orders", () => {
  let sim: Simulator;
  let clock = Date.now();
  beforeAll(async () => {
    sim = await startTestSimulator({ baseUnitPriceSun: 100, now: () => clock });
  });
  afterAll(() => sim.stop());

  /** `null` sends no Idempotency-Key header. */
  const order = (apiKey: string, items: unknown[], idempotencyKey: string | null = key()) =>
    call(sim, "POST", "/v1/orders", { apiKey, body: { items }, ...(idempotencyKey === null ? {} : { idempotencyKey }) });

  it("creates a pending order, charges amount × tier price and returns 201", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const r = await order(apiKey, [item({ amount: 65_000, durationSec: 3600 })]);
    expect(r.status).toBe(201);
    const { orders } = createOrdersResponseSchema.parse(r.json);
    expect(orders[0]).toMatchObject({
      status: "pending",
      receiver: bob.address,
      resource: "ENERGY",
      resourceAmount: 65_000,
      remainAmount: 65_000,
      isMatching: true,
      durationSec: 3600,
      totalCostSun: 65_000 * 150,
    });
    expect(orders[0]!.orderId).toMatch(/^[0-9a-f]{24}$/);
    expect(sim.balanceOf(accountId)).toBe(100_000_000 - 9_750_000);
    expect(sim.ledger(accountId).at(-1)).toMatchObject({ kind: "debit", amountSun: 9_750_000, ref: orders[0]!.orderId });
  });

  it("runs an order through matching and executing to fulfilled, with remainAmount 0", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const id = (await order(apiKey, [item()])).json.orders[0].orderId as string;
    const seen = new Set<string>();
    const final = await waitFor(async () => {
      const o = getOrderResponseSchema.parse((await call(sim, "GET", `/v1/orders/${id}`, { apiKey })).json).order;
      seen.add(o.status);
      return o.status === "fulfilled" && o;
    });
    expect(final).toMatchObject({ remainAmount: 0, isMatching: false });
    expect([...seen].every((s) => ["pending", "matching", "executing", "fulfilled"].includes(s))).toBe(true);
  });

  it("creates a batch as one all-or-nothing charge", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 20_000_000 });
    const ok = await order(apiKey, [item(), item({ toAddress: carol.address, durationSec: 60 })]);
    expect(ok.status).toBe(201);
    expect(ok.json.orders).toHaveLength(2);
    const before = sim.balanceOf(accountId);
    const r = await order(apiKey, [item(), item(), item()]);
    expect(r.status).toBe(402);
    expect(r.json).toMatchObject({ code: "wallet.insufficient_balance", requiredSun: 19_500_000 });
    expect(sim.balanceOf(accountId)).toBe(before);
  });

  it.each([
    [{ amount: 49_999 }, "amount must be between 50000 and 200000"],
    [{ amount: 200_001 }, "amount must be between 50000 and 200000"],
    [{ amount: 65_000.5 }, "amount must be an integer"],
    [{ amount: 0 }, "amount must be a positive number"],
    [{ amount: -5 }, "amount must be a positive number"],
    [{ amount: "65000" }, "amount must be a positive number"],
    [{ amount: undefined }, "amount must be a positive number"],
    [{ durationSec: 120 }, "durationSec must be one of: 60, 300, 900, 3600"],
    [{ durationSec: "300" }, "durationSec must be one of: 60, 300, 900, 3600"],
    [{ toAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pz" }, "toAddress must be a valid Tron address"],
    [{ toAddress: "41" + "00".repeat(20) }, "toAddress must be a valid Tron address"],
    [{ resource: undefined }, "resource must be ENERGY or BANDWIDTH"],
    [{ resource: "CPU" }, "resource must be ENERGY or BANDWIDTH"],
    [{ resource: "BANDWIDTH" }, "Only ENERGY orders are supported"],
  ])("refuses %j with 400 and the documented detail", async (patch, detail) => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const r = await order(apiKey, [item(patch)]);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: "validation.invalid_field", detail });
  });

  it("refuses missing, empty or oversized items[] and a missing Idempotency-Key", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    for (const body of [{}, { items: [] }, { items: "x" }, { items: Array.from({ length: 101 }, () => item()) }]) {
      const r = await call(sim, "POST", "/v1/orders", { apiKey, body, idempotencyKey: key() });
      expect(r.json.detail).toMatch(/^items\[\] required/);
    }
    const r = await order(apiKey, [item()], null);
    expect(r.json).toMatchObject({ code: "validation.invalid_field", detail: "Idempotency-Key required" });
    const long = await order(apiKey, [item()], "k".repeat(129));
    expect(long.status).toBe(400);
    expect((await order(apiKey, [item()], "k".repeat(128))).status).toBe(201);
  });

  it("accepts 100 items in one request", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 1_000_000_000 });
    const r = await order(
      apiKey,
      Array.from({ length: 100 }, () => item({ amount: 50_000 })),
    );
    expect(r.status).toBe(201);
    expect(r.json.orders).toHaveLength(100);
  });

  it("refuses an inactive receiver or a contract with 422 order.receiver_undeliverable", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.chain.setActivated(dave.address, false);
    const r1 = await order(apiKey, [item(), item({ toAddress: dave.address })]);
    expect(r1.status).toBe(422);
    expect(r1.json.code).toBe("order.receiver_undeliverable");
    const r2 = await order(apiKey, [item({ toAddress: USDT_MAINNET })]);
    expect(r2.json.code).toBe("order.receiver_undeliverable");
    expect(sim.balanceOf(accountId)).toBe(100_000_000);
    sim.chain.setActivated(dave.address, true);
  });

  it("runs guards in order: fields, then receiver, then idempotency, then balance", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 0 });
    sim.chain.setActivated(dave.address, false);
    expect((await order(apiKey, [item({ toAddress: dave.address }), item({ amount: 1 })])).status).toBe(400);
    expect((await order(apiKey, [item({ toAddress: dave.address })])).status).toBe(422);
    sim.chain.setActivated(dave.address, true);
    expect((await order(apiKey, [item()])).status).toBe(402);
  });

  it("charges an account without a wallet nothing and answers 402", async () => {
    const { apiKey } = sim.createAccount({ hasWallet: false });
    const r = await order(apiKey, [item()]);
    expect(r.json).toMatchObject({ code: "wallet.insufficient_balance", requiredSun: 6_500_000 });
  });

  describe("idempotency", () => {
    it("replays a finished request with 200 and the same orders, charging once (rule 1)", async () => {
      const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
      const k = key();
      const first = await order(apiKey, [item()], k);
      const again = await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: k, rawBody: `{ "items" : [ ${JSON.stringify(item())} ] }` });
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.json.orders[0].orderId).toBe(first.json.orders[0].orderId);
      expect(sim.ledger(accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
    });

    it("refuses the same key with a different body with 422 idempotency.key_reuse, charging nothing (rule 3)", async () => {
      const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
      const k = key();
      await order(apiKey, [item()], k);
      const r = await order(apiKey, [item({ amount: 70_000 })], k);
      expect(r.status).toBe(422);
      expect(r.json.code).toBe("idempotency.key_reuse");
      expect(sim.ledger(accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
    });

    it("scopes keys per account", async () => {
      const a = sim.createAccount({ balanceSun: 100_000_000 });
      const b = sim.createAccount({ balanceSun: 100_000_000 });
      const k = key();
      expect((await order(a.apiKey, [item()], k)).status).toBe(201);
      expect((await order(b.apiKey, [item({ amount: 70_000 })], k)).status).toBe(201);
    });

    it("does not consume the key on 402 or on a receiver 422 (rule 5)", async () => {
      const { accountId, apiKey } = sim.createAccount({ balanceSun: 1_000 });
      const k = key();
      expect((await order(apiKey, [item()], k)).status).toBe(402);
      sim.credit(accountId, 100_000_000);
      expect((await order(apiKey, [item()], k)).status).toBe(201);
      const k2 = key();
      sim.chain.setActivated(dave.address, false);
      expect((await order(apiKey, [item({ toAddress: dave.address })], k2)).status).toBe(422);
      sim.chain.setActivated(dave.address, true);
      expect((await order(apiKey, [item({ toAddress: dave.address })], k2)).status).toBe(201);
    });

    it("runs the key again after 24 hours and charges again (rule 6)", async () => {
      const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
      const k = key();
      const first = await order(apiKey, [item()], k);
      clock += 23 * 3600_000;
      expect((await order(apiKey, [item()], k)).status).toBe(200);
      clock += 3600_000 + 1;
      const later = await order(apiKey, [item()], k);
      expect(later.status).toBe(201);
      expect(later.json.orders[0].orderId).not.toBe(first.json.orders[0].orderId);
      expect(sim.ledger(accountId).filter((e) => e.kind === "debit")).toHaveLength(2);
    });
  });

  describe("GET /v1/orders/{orderId}", () => {
    it("answers 404 for an unknown id, a malformed id, and another account's order", async () => {
      const a = sim.createAccount({ balanceSun: 100_000_000 });
      const b = sim.createAccount();
      const id = (await order(a.apiKey, [item()])).json.orders[0].orderId as string;
      expect((await call(sim, "GET", `/v1/orders/${id}`, { apiKey: a.apiKey })).status).toBe(200);
      for (const [apiKey, path] of [
        [b.apiKey, id],
        [a.apiKey, "0".repeat(24)],
        [a.apiKey, "xyz"],
      ] as const) {
        const r = await call(sim, "GET", `/v1/orders/${path}`, { apiKey });
        expect(r.status).toBe(404);
        expect(r.json.code).toBe("not_found");
      }
    });

    it("lets a second key of the same account read the order", async () => {
      const a = sim.createAccount({ balanceSun: 100_000_000 });
      const second = sim.createApiKey(a.accountId);
      const id = (await order(a.apiKey, [item()])).json.orders[0].orderId as string;
      expect((await call(sim, "GET", `/v1/orders/${id}`, { apiKey: second.apiKey })).status).toBe(200);
    });

    it("reports statuses set by the control API, unknown ones included, and resumes from them", async () => {
      const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
      sim.control.pauseLifecycles(true);
      const id = (await order(apiKey, [item()])).json.orders[0].orderId as string;
      sim.control.setOrderStatus(id, "queued_for_review");
      expect((await call(sim, "GET", `/v1/orders/${id}`, { apiKey })).json.order.status).toBe("queued_for_review");
      sim.control.pauseLifecycles(false);
      sim.control.setOrderStatus(id, "executing");
      await waitFor(async () => (await call(sim, "GET", `/v1/orders/${id}`, { apiKey })).json.order.status === "fulfilled");
    });
  });
});

describe("POST /v1/orders under concurrency", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ orderProcessingMs: 500 });
  });
  afterAll(() => sim.stop());

  it("answers 409 idempotency.in_progress with Retry-After: 2 while the first request runs (rule 2)", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const body = { items: [item()] };
    // The first holds the key for orderProcessingMs; the other arrives meanwhile.
    const both = await Promise.all([1, 2].map(() => call(sim, "POST", "/v1/orders", { apiKey, body, idempotencyKey: "same" })));
    const second = both.find((r) => r.status !== 201)!;
    expect(both.filter((r) => r.status === 201)).toHaveLength(1);
    expect(second.status).toBe(409);
    expect(second.json.code).toBe("idempotency.in_progress");
    expect(second.headers["retry-after"]).toBe("2");
  });

  it("resolves concurrent requests sharing a key to one order, charged once (rule 4)", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    const body = { items: [item()] };
    const results = await Promise.all(Array.from({ length: 5 }, () => call(sim, "POST", "/v1/orders", { apiKey, body, idempotencyKey: "conc" })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(sim.ledger(accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
    const replay = await call(sim, "POST", "/v1/orders", { apiKey, body, idempotencyKey: "conc" });
    expect(replay.status).toBe(200);
    expect(replay.json.orders[0].orderId).toBe(results.find((r) => r.status === 201)!.json.orders[0].orderId);
  });
});
