import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { randomAddress } from "../../testkit/tron-sign.js";
import { linkChat, postHook, startHarness, type Harness } from "./harness.js";

const waitOpts = { timeout: 60_000, interval: 20 };

/**
 * The route's rate limits as shipped (the harness's defaults), against the
 * service simulator sending its own signed webhooks: what the service sends
 * is never refused for rate; what nobody can vouch for still is.
 */
describe("POST /hooks/:routeId under a batch and under a flood", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("accepts every signed webhook of a 100-order batch at the first attempt, past what the inbox holds in memory, and processes each event once", async () => {
    // The service's own API limit is not under test (the re-reads of 100 orders at once), nor how long it waits for an answer on a loaded machine.
    // The inbox holds 16 in memory: most of each burst waits in the store, and is acknowledged all the same.
    h = await startHarness({
      rateLimitPerSecond: 10_000,
      webhookTimeoutMs: 60_000,
      inboxMaxInMemory: 16,
      serviceTimeouts: { attemptTimeoutMs: 30_000, totalTimeoutMs: 60_000 },
    });
    const link = await linkChat(h, 7001, { callback: true });
    const items = Array.from({ length: 100 }, () => ({ toAddress: randomAddress(), amount: 60_000, resource: "ENERGY" as const, durationSec: 300 }));
    const { orders } = await h.service.createOrders(link.apiKey, items, randomUUID());
    const orderIds = orders.map((o) => o.orderId);
    expect(new Set(orderIds).size).toBe(100);
    // The 100 order.created webhooks leave the simulator together with its answer; the 100 order.fulfilled ones all at once here.
    await vi.waitFor(() => expect(h.sim.webhookDeliveries.filter((d) => d.event === "order.created")).toHaveLength(100), waitOpts);
    for (const id of orderIds) h.sim.control.setOrderStatus(id, "fulfilled");
    await vi.waitFor(() => expect(h.sim.webhookDeliveries).toHaveLength(200), waitOpts);

    // Each delivery was answered 2xx the first time: no 429, no 503, nothing left to the service's retries.
    expect(h.sim.webhookDeliveries.filter((d) => d.attempt !== 1 || d.status !== 202).map((d) => `${d.event} #${d.attempt}: ${d.status}`)).toEqual([]);
    expect(await h.metrics.get("webhooks_total", { outcome: "rate_limited" })).toBe(0);
    expect(await h.metrics.get("webhooks_total", { outcome: "accepted" })).toBe(200);

    await vi.waitFor(async () => expect(await h.inbox.size()).toBe(0), waitOpts);
    await vi.waitFor(() => expect(h.notices).toHaveLength(200), waitOpts);
    // Once each: one notice per delivery, and per order one of each event.
    expect(new Set(h.notices.map((n) => n.deliveryId)).size).toBe(200);
    for (const event of ["order.created", "order.fulfilled"]) {
      const ids = h.notices.filter((n) => n.event === event).map((n) => n.id);
      expect([...ids].sort()).toEqual([...orderIds].sort());
    }
    expect(h.notices.every((n) => n.verified && n.chatId === 7001)).toBe(true);
  }, 180_000);

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
