import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeSignature, formatSignatureHeader } from "../../src/platform/http/signature.js";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { createOrder, linkChat, postHook, PREFIX, reReads, settle, startHarness, texts, until, type Harness } from "./harness.js";

/**
 * Webhooks over time, through the real tracker and notifier: the memory of
 * announced statuses shared with the poller, whole lifecycles delivered by
 * the simulator in both payload layouts, and the configurable header prefix.
 */
describe("webhooks and the tracker's poller share one announced-(id, status) memory", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("a status the poller announced is not announced again by a webhook", async () => {
    h = await startHarness({ trackerMinDelayMs: 20 });
    const link = await linkChat(h, 5101);
    const orderId = await createOrder(h, link.apiKey);
    // As the order flow does: the card already shows pending.
    await h.tracker.track({ chatId: 5101, kind: "order", id: orderId, status: "pending" });
    h.sim.control.setOrderStatus(orderId, "fulfilled");
    await until(() => texts(h, 5101).length === 1);
    expect(texts(h, 5101)[0]).toContain(`Order ${orderId} is fulfilled`);
    await until(() => h.tracker.size === 0);
    const before = reReads(h, orderId);
    const body = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId } } });
    expect((await postHook(h, link.routeId, body, { secret: link.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(reReads(h, orderId)).toBe(before + 1);
    expect(texts(h, 5101)).toHaveLength(1);
  });

  it("a status a webhook announced is not announced again by the poller", async () => {
    h = await startHarness({ trackerMinDelayMs: 60_000 });
    const link = await linkChat(h, 5102);
    const orderId = await createOrder(h, link.apiKey);
    await h.tracker.track({ chatId: 5102, kind: "order", id: orderId, status: "pending" });
    h.sim.control.setOrderStatus(orderId, "fulfilled");
    const body = JSON.stringify({ event: "order.fulfilled", orderId });
    expect((await postHook(h, link.routeId, body, { secret: link.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    await until(() => texts(h, 5102).length === 1);
    // Finished: the tracker forgot it, so no poll can announce it a second time.
    expect(h.tracker.size).toBe(0);
    await h.tracker.hint({ chatId: 5102, kind: "order", id: orderId });
    await settle(h);
    expect(texts(h, 5102)).toHaveLength(1);
  });
});

describe.each(["nested", "flat"] as const)("deliveries from the simulator (%s layout)", (layout) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ webhookPayloadLayout: layout, orderStepMs: 150, broadcastStepMs: 100 });
  });
  afterEach(async () => {
    await h.close();
  });

  it("relays an order's life to the chat, one message per status re-read, ending fulfilled", async () => {
    const link = await linkChat(h, 6001, { callback: true });
    const orderId = await createOrder(h, link.apiKey);
    await until(() => texts(h, 6001).some((t) => t.includes(`Order ${orderId} is fulfilled`)));
    await until(() => h.sim.webhookDeliveries.filter((d) => d.status === 202 || d.status === 200).length >= 2);
    await settle(h);
    const seen = texts(h, 6001);
    expect(seen.filter((t) => t.includes("is fulfilled"))).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(2);
    expect(reReads(h, orderId)).toBeGreaterThanOrEqual(2);
    expect(h.sim.webhookDeliveries.every((d) => d.status === 202 || d.status === 200)).toBe(true);
    expect(h.notices.length).toBeGreaterThanOrEqual(2);
    expect(h.notices.every((n) => n.verified && n.kind === "order" && n.id === orderId)).toBe(true);
  });

  it("tells expired from failed by the re-read status of a broadcast", async () => {
    const link = await linkChat(h, 6002, { callback: true });
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });
    h.sim.control.setBroadcastOutcome(tx.txID, "expired");
    const { broadcastId } = await h.service.createBroadcast(tx, link.apiKey);
    await until(() => texts(h, 6002).some((t) => t.includes(`Broadcast ${broadcastId} expired`)));
    await until(() => h.sim.webhookDeliveries.some((d) => d.event === "broadcast.failed" && d.status === 202));
    await settle(h);
    const seen = texts(h, 6002);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((t) => t.includes(`${broadcastId} expired`))).toHaveLength(1);
    expect(seen.some((t) => t.includes(" failed:"))).toBe(false);
    expect(h.notices.some((n) => n.event === "broadcast.failed")).toBe(true);
    expect(h.notices.every((n) => n.kind === "broadcast" && n.id === broadcastId)).toBe(true);
  });

  it("says failed, not expired, when the re-read says failed", async () => {
    const link = await linkChat(h, 6003, { callback: true });
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });
    h.sim.control.setBroadcastOutcome(tx.txID, "failed", "REVERT");
    const { broadcastId } = await h.service.createBroadcast(tx, link.apiKey);
    await until(() => texts(h, 6003).some((t) => t.includes(`Broadcast ${broadcastId} failed`)));
    await until(() => h.sim.webhookDeliveries.some((d) => d.event === "broadcast.failed" && d.status === 202));
    await settle(h);
    expect(texts(h, 6003).some((t) => t.includes(`${broadcastId} expired`))).toBe(false);
  });
});

describe("header prefix", () => {
  it("comes from SERVICE_HEADER_PREFIX: the service's X-Acme-* headers are read, X-Service-* ones are not", async () => {
    const h = await startHarness({ headerPrefix: "X-Acme", orderStepMs: 100 });
    try {
      const link = await linkChat(h, 5201, { callback: true });
      const orderId = await createOrder(h, link.apiKey);
      await until(() => texts(h, 5201).some((t) => t.includes(`Order ${orderId} is fulfilled`)));
      expect(h.sim.webhookDeliveries.length).toBeGreaterThan(0);
      expect(h.sim.webhookDeliveries.every((d) => d.status === 202)).toBe(true);

      const body = JSON.stringify({ orderId });
      const t = Math.floor(Date.now() / 1000);
      const res = await request(`${h.baseUrl}/hooks/${link.routeId}`, {
        method: "POST",
        headers: { "content-type": "application/json", [`${PREFIX}-Signature`]: formatSignatureHeader(t, [computeSignature(link.webhookSecret, t, body)]) },
        body,
      });
      await res.body.dump();
      expect(res.statusCode).toBe(401);
    } finally {
      await h.close();
    }
  });
});
