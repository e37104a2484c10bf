import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrderPlacer } from "../../../src/shared/orders/place-order.js";
import { buildQuote, QUOTE_LIFETIME_MS, type Quote } from "../../../src/shared/orders/quote.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { debits, startSimEnv, type SimEnv } from "./sim-env.js";

const CHAT = 7001;
let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv();
});
afterEach(async () => env.stop());

/** `checks`: how many times a lost answer is checked by sending again (default: none, to reach the journal's part). */
async function setup(balanceSun: number, checks = 0) {
  const account = env.sim.createAccount({ balanceSun });
  const parts = await env.open();
  let clock = Date.now();
  const untilKnown = { delaysMs: Array.from({ length: checks }, () => 1), sleep: async () => {} };
  const placer = createOrderPlacer({ ...parts, service: env.service, now: () => clock, logger: env.logger, sleep: async () => {}, untilKnown });
  const pricing = await env.service.getPricing();
  const quote = async (amount = 100_000): Promise<Quote> => {
    const built = buildQuote(CHAT, [{ toAddress: TEST_KEYS.bob.address, amount, durationSec: 3600 }], pricing, clock);
    if (!built.ok) throw new Error("quote");
    await parts.quotes.save(built.quote);
    return built.quote;
  };
  return { account, parts, placer, quote, pricing, advance: (ms: number) => (clock += ms) };
}

describe("order placement", () => {
  it("charges a confirmed quote once when Confirm is tapped twice at the same time", async () => {
    const { account, placer, quote } = await setup(100_000_000);
    const q = await quote();
    const [a, b] = await Promise.all([
      placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey }),
      placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey }),
    ]);
    expect(a.status).toBe("placed");
    expect(b.status === "placed" && b.alreadyPlaced).toBe(true);
    expect(a.status === "placed" && b.status === "placed" && a.orders[0]!.orderId).toBe(b.status === "placed" && b.orders[0]!.orderId);
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
    expect(env.sim.requests.filter((r) => r.method === "POST").length).toBe(1);
  });

  it("retries after a 402 top-up with the same Idempotency-Key and charges once", async () => {
    const { account, placer, quote } = await setup(1_000_000);
    const q = await quote();
    const first = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(first.status).toBe("failed");
    if (first.status !== "failed") return;
    expect(first.error.code).toBe("wallet.insufficient_balance");
    expect(first.retryable).toBe(true);
    expect(first.error.requiredSun).toBe(Number(q.totalSun));
    expect(first.balance?.availableSun).toBe(1_000_000);
    env.sim.credit(account.accountId, 100_000_000);
    const second = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(second.status).toBe("placed");
    const keys = env.sim.requests.filter((r) => r.method === "POST").map((r) => r.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([q.idempotencyKey]));
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
  });

  it("resolves a lost answer by replaying the key, even after the quote's lifetime", async () => {
    const { account, placer, quote, advance, parts } = await setup(100_000_000);
    const q = await quote();
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true, times: 10 });
    const lost = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(lost.status === "failed" && lost.error.outcomeUnknown).toBe(true);
    expect((await parts.quotes.get(q.quoteId))?.state).toBe("unknown");
    env.sim.faults.clear();
    advance(QUOTE_LIFETIME_MS + 1);
    const replay = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(replay.status === "placed" && replay.replayed).toBe(true);
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
  });

  it("checks a lost answer by sending the same key again: placed once, and the caller hears of the doubt once first", async () => {
    const { account, placer, quote } = await setup(100_000_000, 3);
    const q = await quote();
    // Applied, then the answer lost, for each of the client's 4 attempts of its first send.
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true, times: 4 });
    let told = 0;
    const placed = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey, onUnknown: () => Promise.resolve(void (told += 1)) });
    expect(placed.status === "placed" && placed.replayed).toBe(true);
    expect(told).toBe(1);
    expect(new Set(env.sim.requests.filter((r) => r.method === "POST").map((r) => r.idempotencyKey))).toEqual(new Set([q.idempotencyKey]));
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
  });

  it("offers a fresh quote for an expired one that was never sent, and refuses a foreign chat's quote", async () => {
    const { account, placer, quote, advance } = await setup(100_000_000);
    const q = await quote();
    expect((await placer.place({ chatId: CHAT + 1, quoteId: q.quoteId, apiKey: account.apiKey })).status).toBe("not_found");
    advance(QUOTE_LIFETIME_MS);
    expect((await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey })).status).toBe("expired");
    expect(env.sim.requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("keeps the key after an undeliverable receiver until it is activated", async () => {
    const { account, placer, quote, parts } = await setup(100_000_000);
    env.sim.chain.setActivated(TEST_KEYS.bob.address, false);
    const q = await quote();
    const refused = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(refused.status === "failed" && refused.error.code).toBe("order.receiver_undeliverable");
    env.sim.chain.setActivated(TEST_KEYS.bob.address, true);
    const placed = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(placed.status).toBe("placed");
    expect(debits(env.sim, account.accountId)).toHaveLength(1);
    const page = await parts.history.page(CHAT, 0, 5);
    expect(page.entries.map((e) => e.id)).toEqual(placed.status === "placed" ? [placed.orders[0]!.orderId] : []);
    expect((await parts.addressBook.list(CHAT)).map((e) => e.address)).toEqual([TEST_KEYS.bob.address]);
  });

  it("does not retry a key the service says was used for another body", async () => {
    const { account, placer, quote } = await setup(100_000_000);
    const q = await quote();
    await env.service.createOrders(
      account.apiKey,
      [{ toAddress: TEST_KEYS.carol.address, amount: 60_000, resource: "ENERGY", durationSec: 60 }],
      q.idempotencyKey,
    );
    const result = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(result.status === "failed" && [result.error.code, result.retryable]).toEqual(["idempotency.key_reuse", false]);
    expect(debits(env.sim, account.accountId)).toHaveLength(1);
  });

  it("resolves a timed-out attempt that was applied by replaying its key, charged once", async () => {
    const { account, placer, quote, parts } = await setup(100_000_000);
    const q = await quote();
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "hang", afterProcessing: true, times: 50 });
    const lost = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(lost.status === "failed" && [lost.error.code, lost.retryable]).toEqual(["client.timeout", true]);
    expect((await parts.quotes.get(q.quoteId))?.state).toBe("unknown");
    env.sim.faults.clear();
    const replay = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(replay.status === "placed" && replay.replayed).toBe(true);
    expect(new Set(env.sim.requests.filter((r) => r.method === "POST").map((r) => r.idempotencyKey))).toEqual(new Set([q.idempotencyKey]));
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
  });

  it("after idempotency.in_progress outlasts its waits, keeps the quote unresolved and retries with the same key", async () => {
    const { account, placer, quote, parts, advance } = await setup(100_000_000);
    const q = await quote();
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "status", status: 409, code: "idempotency.in_progress", retryAfterSec: 0, times: 100 });
    const busy = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(busy.status === "failed" && [busy.error.code, busy.retryable]).toEqual(["idempotency.in_progress", true]);
    expect((await parts.quotes.get(q.quoteId))?.state).toBe("unknown");
    env.sim.faults.clear();
    advance(QUOTE_LIFETIME_MS + 1);
    const placed = await placer.place({ chatId: CHAT, quoteId: q.quoteId, apiKey: account.apiKey });
    expect(placed.status).toBe("placed");
    expect(new Set(env.sim.requests.filter((r) => r.method === "POST").map((r) => r.idempotencyKey))).toEqual(new Set([q.idempotencyKey]));
    expect(debits(env.sim, account.accountId)).toEqual([Number(q.totalSun)]);
  });
});
