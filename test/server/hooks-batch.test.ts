import { afterEach, describe, expect, it } from "vitest";
import { linkChat, postHook, startHarness, type Harness } from "./harness.js";
import { acceptsSignedBatch } from "./signed-batch.js";

/**
 * The route's rate limits as shipped (the harness's defaults), against the
 * service simulator sending its own signed webhooks: what the service sends
 * is never refused for rate; what nobody can vouch for still is.
 */
describe("POST /hooks/:routeId under a batch and under a flood", () => {
  it("accepts every signed webhook of a 40-order batch at the first attempt, past what the inbox holds in memory, and processes each event once", async () => {
    await acceptsSignedBatch(40);
  }, 180_000);
});

describe("POST /hooks/:routeId under a flood", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("still limits forged signatures, unsigned hints and unknown routes, and lets genuine deliveries through once every budget is spent", async () => {
    // Budgets that do not refill during the test: the counts are exact however slow the machine.
    h = await startHarness({ hooksRateLimits: { global: { burst: 30, perSecond: 0.001 }, perRoute: { burst: 10, perSecond: 0.001 } } });
    const signed = await linkChat(h, 7002);
    const unsigned = await linkChat(h, 7003, { withSecret: false });
    const body = (n: number) => JSON.stringify({ event: "order.created", n, data: { order: { orderId: "0123456789abcdef01234567" } } });
    const statuses = (rs: { status: number }[]) => {
      const byStatus: Record<number, number> = {};
      for (const r of rs) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      return byStatus;
    };

    // 100 at once, signed under the wrong secret: the route's burst is answered 401, the rest 429.
    const forged = await Promise.all(Array.from({ length: 100 }, (_, n) => postHook(h, signed.routeId, body(n), { secret: "not-the-secret" })));
    expect(statuses(forged)).toEqual({ 401: 10, 429: 90 });
    // 100 unsigned hints at once to a route without a secret: the same.
    const hints = await Promise.all(Array.from({ length: 100 }, (_, n) => postHook(h, unsigned.routeId, body(n))));
    expect(statuses(hints)).toEqual({ 202: 10, 429: 90 });
    // Made-up routes spend what is left of the global budget (30 − 20).
    const unknown = await Promise.all(Array.from({ length: 20 }, (_, n) => postHook(h, `made-up-route-${String(n).padStart(4, "0")}`, body(n))));
    expect(statuses(unknown)).toEqual({ 404: 10, 429: 10 });
    expect(await h.metrics.get("webhooks_total", { outcome: "rate_limited" })).toBe(190);

    // Every budget is spent; what the chat's secret signs still goes through, each delivery once.
    const genuine = await Promise.all(Array.from({ length: 20 }, (_, n) => postHook(h, signed.routeId, body(n), { secret: signed.webhookSecret })));
    expect(statuses(genuine)).toEqual({ 202: 20 });
    const replayed = await postHook(h, signed.routeId, body(0), { secret: signed.webhookSecret, deliveryId: genuine[0]!.deliveryId });
    expect(replayed.status).toBe(200);
  }, 60_000);
});
