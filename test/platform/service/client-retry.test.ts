import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OrderItemInput } from "../../../src/platform/service/schemas.js";
import { TEST_KEYS, signTrc20Transfer } from "../../../testkit/tron-sign.js";
import { caught, leakedKeys, startHarness, type Harness } from "./sim-harness.js";

/** Retry policy of section 7, counted by the requests the simulator really received. */

const PRICING = "/v1/public/pricing";
const item: OrderItemInput = { toAddress: TEST_KEYS.bob.address, amount: 65_000, resource: "ENERGY", durationSec: 300 };
let nonce = 1n;
const usdtTx = () =>
  signTrc20Transfer({
    privateKey: TEST_KEYS.alice.privateKey,
    to: TEST_KEYS.bob.address,
    amountAtomic: 1_000_000n + nonce++,
    expirationMs: Date.now() + 600_000,
  });

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(leakedKeys(h)).toEqual([]);
});

describe("429 rate_limited", () => {
  it("waits Retry-After and tries again", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "status", status: 429, code: "rate_limited", retryAfterSec: 1, times: 1 });
    const since = h.mark();
    await h.client().getPricing();
    expect(since("GET", PRICING).map((r) => r.status)).toEqual([429, 200]);
    const [first, second] = since("GET", PRICING);
    // The simulator's own clock stamps each request: the retry came after the advertised second.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("gives up with the 429 itself (level, retryAfterSec) when the wait would pass the deadline", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "status", status: 429, code: "rate_limited", retryAfterSec: 30 });
    const since = h.mark();
    const e = await caught(h.client({ totalTimeoutMs: 3_000 }).getPricing());
    expect(e).toMatchObject({ code: "rate_limited", status: 429, retryAfterSec: 30, level: "api_key" });
    expect(since()).toHaveLength(1);
  });

  it("rides out the simulator's real token bucket", async () => {
    await h.stop();
    h = await startHarness({ rateLimitPerSecond: 2 });
    const client = h.client();
    const since = h.mark();
    for (let i = 0; i < 5; i += 1) await client.getPricing();
    const statuses = since().map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses).toContain(429);
  });
});

describe("503 and gateway errors", () => {
  it("backs off and retries a 503 until it clears", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "status", status: 503, code: "service_unavailable", times: 2 });
    const since = h.mark();
    await h.client().getPricing();
    expect(since().map((r) => r.status)).toEqual([503, 503, 200]);
    expect(h.events.at(-1)).toMatchObject({ endpoint: `GET ${PRICING}`, outcome: "ok", attempts: 3 });
  });

  it("stops after maxAttempts with the last 503", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "status", status: 503, code: "service_unavailable" });
    const since = h.mark();
    const e = await caught(h.client({ maxAttempts: 4 }).getPricing());
    expect(e).toMatchObject({ code: "service_unavailable", status: 503 });
    expect(since()).toHaveLength(4);
  });

  it("retries 503 broadcast.upstream_unavailable on POST /v1/broadcasts (nothing was charged) and charges once", async () => {
    const { apiKey, accountId } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "status", status: 503, code: "broadcast.upstream_unavailable", times: 1 });
    const since = h.mark();
    const accepted = await h.client().createBroadcast(usdtTx(), apiKey);
    expect(accepted.status).toBe("pending_energy");
    expect(since("POST", "/v1/broadcasts").map((r) => r.status)).toEqual([503, 202]);
    expect(h.sim.ledger(accountId).filter((l) => l.kind === "debit")).toHaveLength(1);
  });

  it("retries a non-JSON 502 page on a GET", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "non_json", status: 502, times: 1 });
    const since = h.mark();
    await h.client().getPricing();
    expect(since().map((r) => r.status)).toEqual([502, 200]);
  });

  it("turns a non-JSON 500 page into client.bad_error_body with the page, without retrying", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "non_json", status: 500, body: "<html>oops</html>" });
    const since = h.mark();
    const e = await caught(h.client().getPricing());
    expect(e).toMatchObject({ code: "client.bad_error_body", status: 500, responseBody: "<html>oops</html>" });
    expect(since()).toHaveLength(1);
  });
});

describe("connection resets", () => {
  it("retries a GET whose connection was reset", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "reset", times: 2 });
    const since = h.mark();
    await h.client().getPricing();
    expect(since().map((r) => r.status)).toEqual([0, 0, 200]);
  });

  it("reports client.connection_failed once attempts run out", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "reset" });
    const since = h.mark();
    const e = await caught(h.client({ maxAttempts: 3 }).getPricing());
    expect(e).toMatchObject({ code: "client.connection_failed", status: 0, outcomeUnknown: true });
    expect(since()).toHaveLength(3);
  });

  it("retries POST /v1/orders after a reset that lost the answer: the replay charges once", async () => {
    const { apiKey, accountId } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true, times: 1 });
    const since = h.mark();
    const { orders, replayed } = await h.client().createOrders(apiKey, [item], "reset-1");
    expect(replayed).toBe(true);
    expect(since("POST", "/v1/orders").map((r) => r.idempotencyKey)).toEqual(["reset-1", "reset-1"]);
    const debits = h.sim.ledger(accountId).filter((l) => l.kind === "debit");
    expect(debits).toHaveLength(1);
    expect(debits[0]!.ref).toBe(orders[0]!.orderId);
  });

  it("does not re-send a broadcast after a reset: the outcome is unknown", async () => {
    const { apiKey, accountId } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "reset", afterProcessing: true, times: 1 });
    const since = h.mark();
    const e = await caught(h.client().createBroadcast(usdtTx(), apiKey));
    expect(e).toMatchObject({ code: "client.connection_failed", status: 0, outcomeUnknown: true });
    expect(since("POST", "/v1/broadcasts")).toHaveLength(1);
    // It did land: a blind resend would have met broadcast.duplicate_tx.
    expect(h.sim.ledger(accountId).filter((l) => l.kind === "debit")).toHaveLength(1);
  });
});

describe("timeouts", () => {
  it("a hanging service gives client.timeout within the total deadline, after retrying a GET", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "hang" });
    const since = h.mark();
    // Attempts enough that the deadline, not their number, ends it; the deadline long enough that even a loaded
    // machine's timers fit a second attempt in it.
    const e = await caught(h.client({ attemptTimeoutMs: 150, totalTimeoutMs: 1_200, maxAttempts: 20, random: () => 0 }).getPricing());
    expect(e).toMatchObject({ code: "client.timeout", status: 0, outcomeUnknown: true });
    const attempts = since().length;
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(Math.ceil(1_200 / 150));
    expect(h.events.at(-1)).toMatchObject({ outcome: "client.timeout", attempts });
  });

  it("the default budget fits the 15 s promise: 4 attempts of 5 s are cut by a 14 s deadline", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "hang" });
    const since = h.mark();
    // Scaled down 10x: attempts of 500, 500 and the remaining 400 ms, then the deadline.
    const e = await caught(h.client({ attemptTimeoutMs: 500, totalTimeoutMs: 1_400, random: () => 0 }).getPricing());
    expect(e.code).toBe("client.timeout");
    // Three on an idle machine; two when a loaded machine's timers run late. Never a fourth: the deadline cuts it.
    expect(since().length).toBeGreaterThanOrEqual(2);
    expect(since().length).toBeLessThanOrEqual(3);
  });

  it("retries POST /v1/orders after a timeout with the same key and reports the replay", async () => {
    const { apiKey, accountId } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "hang", afterProcessing: true, times: 1 });
    const since = h.mark();
    const { replayed } = await h.client({ attemptTimeoutMs: 300, totalTimeoutMs: 3_000 }).createOrders(apiKey, [item], "hang-1");
    expect(replayed).toBe(true);
    expect(since("POST", "/v1/orders").map((r) => [r.status, r.idempotencyKey])).toEqual([
      [0, "hang-1"],
      [200, "hang-1"],
    ]);
    expect(h.sim.ledger(accountId).filter((l) => l.kind === "debit")).toHaveLength(1);
  });

  it("never re-sends POST /v1/broadcasts after a timeout", async () => {
    const { apiKey } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "hang", afterProcessing: true });
    const since = h.mark();
    const e = await caught(h.client({ attemptTimeoutMs: 200, totalTimeoutMs: 2_000 }).createBroadcast(usdtTx(), apiKey));
    expect(e).toMatchObject({ code: "client.timeout", outcomeUnknown: true });
    // One attempt, by the client's own count; the service saw it at most once (on a loaded machine the
    // 200 ms can run out before the request reaches it).
    expect(h.events.at(-1)).toMatchObject({ outcome: "client.timeout", attempts: 1 });
    expect(since("POST", "/v1/broadcasts").length).toBeLessThanOrEqual(1);
  });

  it("a slow answer within the attempt budget is simply awaited", async () => {
    h.sim.faults.inject({ path: PRICING, kind: "delay", ms: 100, times: 1 });
    const since = h.mark();
    await h.client({ attemptTimeoutMs: 2_000 }).getPricing();
    expect(since()).toHaveLength(1);
  });
});

describe("errors that are never retried", () => {
  it.each([
    [400, "validation.invalid_field"],
    [401, "api_key.invalid"],
    [402, "wallet.insufficient_balance"],
    [403, "api_keys.ip_not_allowed"],
    [404, "not_found"],
    [413, "request.invalid"],
    [422, "idempotency.key_reuse"],
  ])("%d %s: exactly one request", async (status, code) => {
    const { apiKey } = h.account();
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "status", status, code });
    const since = h.mark();
    const e = await caught(h.client().createOrders(apiKey, [item], `never-${status}`));
    expect(e).toMatchObject({ code, status });
    expect(since()).toHaveLength(1);
  });

  it("409 broadcast.duplicate_tx: exactly one request", async () => {
    const { apiKey } = h.account();
    const tx = usdtTx();
    const client = h.client();
    await client.createBroadcast(tx, apiKey);
    const since = h.mark();
    const e = await caught(client.createBroadcast(tx, apiKey));
    expect(e).toMatchObject({ code: "broadcast.duplicate_tx", status: 409 });
    expect(since()).toHaveLength(1);
  });
});
