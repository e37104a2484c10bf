import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulSun } from "../../../src/shared/money.js";
import type { OrderItemInput } from "../../../src/platform/service/schemas.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { caught, leakedKeys, startHarness, type Harness } from "./sim-harness.js";

/** Every endpoint of section 4 and the envelope errors of section 7, against the real simulator. */

const RECEIVER = TEST_KEYS.bob.address;
const item = (over: Partial<OrderItemInput> = {}): OrderItemInput => ({
  toAddress: RECEIVER,
  amount: 65_000,
  resource: "ENERGY",
  durationSec: 300,
  ...over,
});

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(leakedKeys(h)).toEqual([]);
});

describe("public endpoints", () => {
  it("reads the pricing record with its tiers", async () => {
    const pricing = await h.client().getPricing();
    expect(pricing.resource).toBe("ENERGY");
    expect(pricing.amountMin).toBe(50_000);
    expect(pricing.tiers.map((t) => t.durationSec)).toEqual([60, 300, 900, 3600]);
    expect(pricing.tiers.every((t) => Number.isInteger(t.unitPriceSun))).toBe(true);
    expect(h.mark()().length).toBe(0);
  });

  it("accepts a tier it has never heard of", async () => {
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 200 });
    const pricing = await h.client().getPricing();
    expect(pricing.tiers.at(-1)).toMatchObject({ durationSec: 7200, label: "2h" });
  });

  it("reads the system snapshot", async () => {
    const system = await h.client().getSystem();
    expect(system.provider.registration.requiredContractPermissions).toContain("DelegateResourceContract");
    expect(system.internalPools.totalMatchableUnits).toMatch(/^\d+$/);
  });

  it("sends no Authorization header to public endpoints", async () => {
    const since = h.mark();
    await h.client().getPricing();
    await h.client().getSystem();
    expect(since().map((r) => r.hasAuth)).toEqual([false, false]);
  });
});

describe("GET /v1/balance", () => {
  it("returns the balance and deposit address", async () => {
    const { apiKey } = h.account({ balanceSun: 42_000_000, depositAddress: TEST_KEYS.erin.address });
    expect(await h.client().getBalance(apiKey)).toEqual({ availableSun: 42_000_000, depositAddress: TEST_KEYS.erin.address });
  });

  it("returns a null deposit address before one is issued", async () => {
    const { apiKey } = h.account({ depositAddress: null });
    expect((await h.client().getBalance(apiKey)).depositAddress).toBeNull();
  });

  it("reports 404 not_found for an account without a wallet", async () => {
    const { apiKey } = h.account({ hasWallet: false, balanceSun: 0 });
    const e = await caught(h.client().getBalance(apiKey));
    expect(e).toMatchObject({ code: "not_found", status: 404 });
    expect(e.requestId).toMatch(/^req_/);
  });
});

describe("authentication errors (section 5)", () => {
  it("401 api_key.invalid for an unknown key, not retried", async () => {
    const since = h.mark();
    const e = await caught(h.client().getBalance("sk_unknown_key_000000"));
    expect(e).toMatchObject({ code: "api_key.invalid", status: 401, isKeyRejected: true });
    expect(e.detail).toBeTruthy();
    expect(since()).toHaveLength(1);
  });

  it("401 api_key.revoked for a revoked key", async () => {
    const { apiKey } = h.account();
    h.sim.revokeKey(apiKey);
    const e = await caught(h.client().getOrder(apiKey, "0123456789abcdef01234567"));
    expect(e).toMatchObject({ code: "api_key.revoked", status: 401, isKeyRejected: true });
    expect(e.message).not.toContain(apiKey);
  });

  it("403 api_keys.ip_not_allowed carries seenIp", async () => {
    const { apiKey } = h.account();
    h.sim.setIpAllowlist(apiKey, ["10.1.2.3"]);
    const e = await caught(h.client().getBalance(apiKey));
    expect(e).toMatchObject({ code: "api_keys.ip_not_allowed", status: 403, seenIp: "127.0.0.1" });
  });

  it("the same key is refused on POST /v1/broadcasts too (401, not the anonymous path)", async () => {
    const since = h.mark();
    const e = await caught(h.client().createBroadcast({ txID: "00" }, "sk_unknown_key_000000"));
    expect(e).toMatchObject({ code: "api_key.invalid", status: 401 });
    expect(since()[0]!.hasAuth).toBe(true);
  });
});

describe("POST /v1/orders and GET /v1/orders/:id", () => {
  it("creates an order, charges amount x tier price once, and reads it back", async () => {
    const { apiKey, accountId } = h.account({ balanceSun: 100_000_000 });
    const client = h.client();
    const pricing = await client.getPricing();
    const tier = pricing.tiers.find((t) => t.durationSec === 300)!;

    const { orders, replayed } = await client.createOrders(apiKey, [item()], "order-1");
    expect(replayed).toBe(false);
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(order).toMatchObject({ status: "pending", isMatching: true, resourceAmount: 65_000, remainAmount: 65_000 });
    expect(BigInt(order!.totalCostSun)).toBe(mulSun(65_000, tier.unitPriceSun));
    expect(h.sim.balanceOf(accountId)).toBe(100_000_000 - order!.totalCostSun);

    const read = await client.getOrder(apiKey, order!.orderId);
    expect(read.orderId).toBe(order!.orderId);
    expect(read.receiver).toBe(RECEIVER);
  });

  it("creates a batch all at once", async () => {
    const { apiKey, accountId } = h.account();
    const { orders } = await h.client().createOrders(apiKey, [item(), item({ amount: 100_000, durationSec: 3600 })], "batch-1");
    expect(orders.map((o) => o.resourceAmount)).toEqual([65_000, 100_000]);
    expect(h.sim.ledger(accountId).filter((l) => l.kind === "debit")).toHaveLength(2);
  });

  it("keeps an unknown order status as a string", async () => {
    const { apiKey } = h.account();
    const client = h.client();
    const { orders } = await client.createOrders(apiKey, [item()], "status-1");
    h.sim.control.setOrderStatus(orders[0]!.orderId, "re_matching");
    expect((await client.getOrder(apiKey, orders[0]!.orderId)).status).toBe("re_matching");
  });

  it("404 not_found for an order of another account", async () => {
    const owner = h.account();
    const other = h.account();
    const client = h.client();
    const { orders } = await client.createOrders(owner.apiKey, [item()], "scoped-1");
    const e = await caught(client.getOrder(other.apiKey, orders[0]!.orderId));
    expect(e).toMatchObject({ code: "not_found", status: 404, path: `/v1/orders/${orders[0]!.orderId}` });
  });

  it("refuses an id that is not 24 hex characters without sending anything", async () => {
    const { apiKey } = h.account();
    const since = h.mark();
    for (const id of ["", "123", "zzzzzzzzzzzzzzzzzzzzzzzz", "0123456789abcdef012345678", "../balance/0123456789abc"]) {
      await expect(h.client().getOrder(apiKey, id)).rejects.toMatchObject({ code: "client.invalid_id", status: 0 });
      await expect(h.client().getBroadcast(apiKey, id)).rejects.toMatchObject({ code: "client.invalid_id", status: 0 });
    }
    expect(since()).toHaveLength(0);
  });

  it.each([
    [{ amount: 65_000.5 }, "amount must be an integer"],
    [{ amount: 10 }, "amount must be between 50000 and 200000"],
    [{ durationSec: 120 }, "durationSec must be one of: 60, 300, 900, 3600"],
    [{ toAddress: "T-not-an-address" }, "toAddress must be a valid Tron address"],
  ])("400 validation.invalid_field for %j, not retried, nothing charged", async (over, detail) => {
    const { apiKey, accountId } = h.account({ balanceSun: 10_000_000_000 });
    const since = h.mark();
    const e = await caught(h.client().createOrders(apiKey, [item(over)], "bad-1"));
    expect(e).toMatchObject({ code: "validation.invalid_field", status: 400, detail });
    expect(since()).toHaveLength(1);
    expect(h.sim.balanceOf(accountId)).toBe(10_000_000_000);
  });

  it("422 order.receiver_undeliverable for an inactive receiver or a contract; the key stays usable", async () => {
    const { apiKey } = h.account();
    const client = h.client();
    h.sim.chain.setActivated(RECEIVER, false);
    const since = h.mark();
    const e = await caught(client.createOrders(apiKey, [item()], "receiver-1"));
    expect(e).toMatchObject({ code: "order.receiver_undeliverable", status: 422 });
    expect(since()).toHaveLength(1);

    h.sim.chain.setContract(TEST_KEYS.carol.address);
    const e2 = await caught(client.createOrders(apiKey, [item({ toAddress: TEST_KEYS.carol.address })], "receiver-2"));
    expect(e2.code).toBe("order.receiver_undeliverable");

    // Rule 5: after fixing the address the same key goes through.
    h.sim.chain.setActivated(RECEIVER, true);
    expect((await client.createOrders(apiKey, [item()], "receiver-1")).replayed).toBe(false);
  });

  it("402 wallet.insufficient_balance carries requiredSun, is not retried, and does not consume the key", async () => {
    const { apiKey, accountId } = h.account({ balanceSun: 1_000_000 });
    const client = h.client();
    const since = h.mark();
    const e = await caught(client.createOrders(apiKey, [item()], "topup-1"));
    expect(e).toMatchObject({ code: "wallet.insufficient_balance", status: 402, requiredSun: 6_500_000 });
    expect(e.detail).toContain("6500000");
    expect(since()).toHaveLength(1);
    expect(h.sim.balanceOf(accountId)).toBe(1_000_000);

    h.sim.credit(accountId, 10_000_000);
    const { replayed, orders } = await client.createOrders(apiKey, [item()], "topup-1");
    expect(replayed).toBe(false);
    expect(h.sim.balanceOf(accountId)).toBe(11_000_000 - orders[0]!.totalCostSun);
  });

  it("413 request.invalid from the service is not retried", async () => {
    const { apiKey } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "status", status: 413, code: "request.invalid" });
    const since = h.mark();
    const e = await caught(h.client().createOrders(apiKey, [item()], "big-1"));
    expect(e).toMatchObject({ code: "request.invalid", status: 413 });
    expect(since()).toHaveLength(1);
  });

  it("refuses a body over 1 MiB before sending (client.body_too_large)", async () => {
    const { apiKey } = h.account();
    const since = h.mark();
    const huge = Array.from({ length: 100 }, () => item({ toAddress: "T".repeat(11_000) }));
    const e = await caught(h.client().createOrders(apiKey, huge, "huge-1"));
    expect(e).toMatchObject({ code: "client.body_too_large", status: 0 });
    expect(since()).toHaveLength(0);
  });

  it("sends a body of exactly the limit", async () => {
    const { apiKey } = h.account();
    const base = JSON.stringify({ items: [item({ toAddress: "" })] }).length;
    const body = [item({ toAddress: "x".repeat(1_048_576 - base) })];
    expect(JSON.stringify({ items: body }).length).toBe(1_048_576);
    const e = await caught(h.client().createOrders(apiKey, body, "edge-1"));
    // It reached the service, which found the address invalid.
    expect(e).toMatchObject({ code: "validation.invalid_field", status: 400 });
  });
});

describe("logging", () => {
  it("logs each attempt at debug with the path template, status, attempt and ms, never the key", async () => {
    const { apiKey } = h.account();
    const client = h.client();
    const { orders } = await client.createOrders(apiKey, [item()], "log-1");
    await client.getOrder(apiKey, orders[0]!.orderId);
    await caught(client.getBalance("sk_unknown_key_000000"));
    const records = h.log.records().filter((r) => String(r["msg"]).startsWith("service call"));
    expect(records.map((r) => [r["method"], r["path"], r["status"], r["attempt"]])).toEqual([
      ["POST", "/v1/orders", 201, 1],
      ["GET", "/v1/orders/:id", 200, 1],
      ["GET", "/v1/balance", 401, 1],
    ]);
    expect(records.every((r) => r["level"] === 20 && typeof r["ms"] === "number")).toBe(true);
    expect(h.log.lines.join("\n")).not.toContain(apiKey);
    expect(h.log.lines.join("\n")).not.toContain("sk_unknown_key_000000");
  });
});
