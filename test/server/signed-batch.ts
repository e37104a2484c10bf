import { randomUUID } from "node:crypto";
import { expect, vi } from "vitest";
import { randomAddress } from "../../testkit/tron-sign.js";
import { linkChat, startHarness, type Harness } from "./harness.js";

const waitOpts = { timeout: 60_000, interval: 20 };

/**
 * A batch of `size` orders whose signed webhooks (order.created, then order.fulfilled) reach the
 * route at once: each accepted at the first attempt, past what the inbox holds in memory (16), and
 * each event processed once. `npm test` runs it at 40 orders (hooks-batch.test.ts), the slow suite
 * at 100 (hooks-batch.slow.test.ts).
 */
export async function acceptsSignedBatch(size: number): Promise<void> {
  // The service's own API limit is not under test (the re-reads of the orders at once), nor how long it waits for an answer on a loaded machine.
  // The inbox holds 16 in memory: most of each burst waits in the store, and is acknowledged all the same.
  const h: Harness = await startHarness({
    rateLimitPerSecond: 10_000,
    webhookTimeoutMs: 60_000,
    inboxMaxInMemory: 16,
    // Setting up is not under test: the service may take long to place the batch on a loaded machine.
    serviceTimeouts: { attemptTimeoutMs: 30_000, totalTimeoutMs: 60_000 },
  });
  try {
    const link = await linkChat(h, 7001, { callback: true });
    const items = Array.from({ length: size }, () => ({ toAddress: randomAddress(), amount: 60_000, resource: "ENERGY" as const, durationSec: 300 }));
    const { orders } = await h.service.createOrders(link.apiKey, items, randomUUID());
    const orderIds = orders.map((o) => o.orderId);
    expect(new Set(orderIds).size).toBe(size);
    // The order.created webhooks leave the simulator together with its answer; the order.fulfilled ones all at once here.
    await vi.waitFor(() => expect(h.sim.webhookDeliveries.filter((d) => d.event === "order.created")).toHaveLength(size), waitOpts);
    for (const id of orderIds) h.sim.control.setOrderStatus(id, "fulfilled");
    await vi.waitFor(() => expect(h.sim.webhookDeliveries).toHaveLength(2 * size), waitOpts);

    // Each delivery was answered 2xx the first time: no 429, no 503, nothing left to the service's retries.
    expect(h.sim.webhookDeliveries.filter((d) => d.attempt !== 1 || d.status !== 202).map((d) => `${d.event} #${d.attempt}: ${d.status}`)).toEqual([]);
    expect(await h.metrics.get("webhooks_total", { outcome: "rate_limited" })).toBe(0);
    expect(await h.metrics.get("webhooks_total", { outcome: "accepted" })).toBe(2 * size);

    await vi.waitFor(async () => expect(await h.inbox.size()).toBe(0), waitOpts);
    await vi.waitFor(() => expect(h.notices).toHaveLength(2 * size), waitOpts);
    // Once each: one notice per delivery, and per order one of each event.
    expect(new Set(h.notices.map((n) => n.deliveryId)).size).toBe(2 * size);
    for (const event of ["order.created", "order.fulfilled"]) {
      const ids = h.notices.filter((n) => n.event === event).map((n) => n.id);
      expect([...ids].sort()).toEqual([...orderIds].sort());
    }
    expect(h.notices.every((n) => n.verified && n.chatId === 7001)).toBe(true);
  } finally {
    await h.close();
  }
}
