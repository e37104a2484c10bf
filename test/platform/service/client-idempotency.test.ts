import { afterEach, describe, expect, it } from "vitest";
import type { OrderItemInput } from "../../../src/platform/service/schemas.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { caught, leakedKeys, startHarness, type Harness } from "./sim-harness.js";

/** Idempotency rules of POST /v1/orders (section 4), checked against the ledger. */

const item: OrderItemInput = { toAddress: TEST_KEYS.bob.address, amount: 65_000, resource: "ENERGY", durationSec: 300 };

let h: Harness | undefined;
afterEach(async () => {
  if (!h) return;
  await h.stop();
  expect(leakedKeys(h)).toEqual([]);
  h = undefined;
});

const debits = (harness: Harness, accountId: string) => harness.sim.ledger(accountId).filter((l) => l.kind === "debit");

describe("Idempotency-Key", () => {
  it("replays a finished request: replayed is true, same orders, charged once", async () => {
    h = await startHarness();
    const { apiKey, accountId } = h.account();
    const client = h.client();
    const first = await client.createOrders(apiKey, [item], "quote-42");
    const second = await client.createOrders(apiKey, [item], "quote-42");
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.orders.map((o) => o.orderId)).toEqual(first.orders.map((o) => o.orderId));
    expect(debits(h, accountId)).toHaveLength(1);
  });

  it("422 idempotency.key_reuse for the same key with another body; nothing more is charged", async () => {
    h = await startHarness();
    const { apiKey, accountId } = h.account();
    const client = h.client();
    await client.createOrders(apiKey, [item], "quote-43");
    const since = h.mark();
    const e = await caught(client.createOrders(apiKey, [{ ...item, amount: 70_000 }], "quote-43"));
    expect(e).toMatchObject({ code: "idempotency.key_reuse", status: 422 });
    expect(since()).toHaveLength(1);
    expect(debits(h, accountId)).toHaveLength(1);
  });

  it("keys are scoped per account: another account's same key is a new order", async () => {
    h = await startHarness();
    const a = h.account();
    const b = h.account();
    const client = h.client();
    const ra = await client.createOrders(a.apiKey, [item], "shared-key");
    const rb = await client.createOrders(b.apiKey, [item], "shared-key");
    expect(rb.replayed).toBe(false);
    expect(rb.orders[0]!.orderId).not.toBe(ra.orders[0]!.orderId);
  });

  it("waits out 409 idempotency.in_progress and retries with the same key", async () => {
    h = await startHarness({ orderProcessingMs: 400 });
    const { apiKey, accountId } = h.account();
    const client = h.client({ totalTimeoutMs: 8_000 });
    const since = h.mark();
    const first = client.createOrders(apiKey, [item], "slow-1");
    // Let the first request take the reservation before the second arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await client.createOrders(apiKey, [item], "slow-1");
    const firstResult = await first;

    expect(firstResult.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.orders[0]!.orderId).toBe(firstResult.orders[0]!.orderId);
    const posts = since("POST", "/v1/orders");
    expect(posts.map((r) => r.status).sort()).toEqual([200, 201, 409]);
    expect(new Set(posts.map((r) => r.idempotencyKey))).toEqual(new Set(["slow-1"]));
    const conflict = posts.find((r) => r.status === 409)!;
    const replay = posts.find((r) => r.status === 200)!;
    expect(replay.at - conflict.at).toBeGreaterThanOrEqual(1_950); // Retry-After: 2
    expect(debits(h, accountId)).toHaveLength(1);
  });

  it("gives up with the 409 when Retry-After does not fit the deadline", async () => {
    h = await startHarness({ orderProcessingMs: 1_500 });
    const { apiKey } = h.account();
    const first = h.client().createOrders(apiKey, [item], "slow-2");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const e = await caught(h.client({ totalTimeoutMs: 1_000 }).createOrders(apiKey, [item], "slow-2"));
    expect(e).toMatchObject({ code: "idempotency.in_progress", status: 409, retryAfterSec: 2 });
    await first;
  });

  it("concurrent requests sharing one key resolve to one order, charged once", async () => {
    h = await startHarness({ orderProcessingMs: 200 });
    const { apiKey, accountId } = h.account();
    const client = h.client({ totalTimeoutMs: 10_000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => client.createOrders(apiKey, [item], "burst-1")));
    const ids = new Set(results.map((r) => r.orders[0]!.orderId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(debits(h, accountId)).toHaveLength(1);
  });

  it("accepts keys of 1 and 128 characters and refuses empty, 129-character and non-ASCII keys before sending", async () => {
    h = await startHarness();
    const { apiKey } = h.account();
    const client = h.client();
    await client.createOrders(apiKey, [item], "k");
    await client.createOrders(apiKey, [item], "k".repeat(128));
    const since = h.mark();
    for (const bad of ["", "k".repeat(129), "ключ", "line\nbreak", " padded "]) {
      const e = await caught(client.createOrders(apiKey, [item], bad));
      expect(e).toMatchObject({ code: "client.invalid_idempotency_key", status: 0 });
    }
    expect(since()).toHaveLength(0);
  });
});
