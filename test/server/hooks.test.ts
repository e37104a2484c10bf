import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeSignature, formatSignatureHeader } from "../../src/server/signature.js";
import { signTrxTransfer, TEST_KEYS } from "../support/tron-sign.js";
import { createOrder, linkChat, postHook, reReads, settle, startHarness, until, type Harness } from "./harness.js";

const texts = (h: Harness, chatId: number) => h.tg.botMessages(chatId).map((m) => m.text);

describe("POST /hooks/:routeId", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  async function setup(chatId = 5001) {
    const link = await linkChat(h, chatId);
    const orderId = await createOrder(h, link.apiKey);
    const nested = JSON.stringify({ id: "evt", event: "order.created", data: { order: { orderId, status: "pending" } } });
    return { ...link, orderId, nested, chatId };
  }

  it("accepts a signed delivery with 202, re-reads the order and tells the chat what the API says", async () => {
    const s = await setup();
    // The payload claims "fulfilled"; the API says pending, and the chat hears pending.
    const body = JSON.stringify({ id: "evt", event: "order.created", data: { order: { orderId: s.orderId, status: "fulfilled" } } });
    const res = await postHook(h, s.routeId, body, { secret: s.webhookSecret });
    expect(res.status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
    expect(texts(h, s.chatId)).toEqual([`order ${s.orderId} is pending`]);
    expect(reReads(h, s.orderId)).toBe(1);
    expect(h.notices[0]).toMatchObject({ chatId: s.chatId, kind: "order", id: s.orderId, verified: true, event: "order.created" });
  });

  it("answers a replayed delivery id with 200 and ignores it", async () => {
    const s = await setup();
    const first = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    await settle(h);
    const replay = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, deliveryId: first.deliveryId });
    expect(replay.status).toBe(200);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(1);
    expect(texts(h, s.chatId)).toHaveLength(1);
  });

  it("announces each status once: a new delivery for the same status sends nothing new", async () => {
    const s = await setup();
    await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    await settle(h);
    h.sim.control.setOrderStatus(s.orderId, "fulfilled");
    const fulfilled = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId: s.orderId } } });
    expect((await postHook(h, s.routeId, fulfilled, { secret: s.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    expect((await postHook(h, s.routeId, fulfilled, { secret: s.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(texts(h, s.chatId)).toEqual([`order ${s.orderId} is pending`, `order ${s.orderId} is fulfilled`]);
  });

  it.each([
    ["a wrong secret", (s: { webhookSecret: string }) => ({ secret: `${s.webhookSecret}x` })],
    ["a stale timestamp (301 s old)", (s: { webhookSecret: string }) => ({ secret: s.webhookSecret, t: Math.floor(Date.now() / 1000) - 301 })],
    ["a future timestamp (301 s ahead)", (s: { webhookSecret: string }) => ({ secret: s.webhookSecret, t: Math.floor(Date.now() / 1000) + 301 })],
    ["no signature header", () => ({ signature: null })],
    ["no headers at all", () => ({ signature: null, deliveryId: null, event: null })],
    ["a malformed signature header", () => ({ signature: "v1=abc,t=nope" })],
  ])("refuses %s with 401 and does nothing", async (_name, options) => {
    const s = await setup();
    const res = await postHook(h, s.routeId, s.nested, options(s));
    expect(res.status).toBe(401);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(0);
    expect(texts(h, s.chatId)).toEqual([]);
    expect(h.notices).toEqual([]);
    // A refused delivery is not remembered: the genuine one with the same id still goes through.
    const genuine = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, ...(res.deliveryId ? { deliveryId: res.deliveryId } : {}) });
    expect(genuine.status).toBe(202);
  });

  it("accepts any of several v1 signatures (secret rotation)", async () => {
    const s = await setup();
    const t = Math.floor(Date.now() / 1000);
    const header = formatSignatureHeader(t, [computeSignature("old-secret", t, s.nested), computeSignature(s.webhookSecret, t, s.nested)]);
    expect((await postHook(h, s.routeId, s.nested, { signature: header })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const s = await setup();
    const big = JSON.stringify({ orderId: s.orderId, pad: "x".repeat(1_048_576) });
    const res = await postHook(h, s.routeId, big, { secret: s.webhookSecret });
    expect(res.status).toBe(413);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(0);
  });

  it("answers 404 for an unknown route and 405 for other methods", async () => {
    const s = await setup();
    expect((await postHook(h, "A".repeat(24), s.nested, { secret: s.webhookSecret })).status).toBe(404);
    expect((await postHook(h, s.routeId, s.nested, { method: "GET" })).status).toBe(405);
    expect((await postHook(h, s.routeId, s.nested, { method: "PUT" })).status).toBe(405);
  });

  it("answers 404 on the old URL after the route is rotated", async () => {
    const s = await setup();
    const fresh = await h.chats.rotateRoute(s.chatId);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret })).status).toBe(404);
    expect((await postHook(h, fresh!, s.nested, { secret: s.webhookSecret })).status).toBe(202);
  });

  it("finds the id in the flat layout too", async () => {
    const s = await setup();
    const flat = JSON.stringify({ event: "order.created", orderId: s.orderId, status: "pending", receiver: "T..." });
    expect((await postHook(h, s.routeId, flat, { secret: s.webhookSecret, event: null })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
    expect(reReads(h, s.orderId)).toBe(1);
  });

  it("treats an unsigned delivery for a chat without a secret as a hint: re-read, then what the API says", async () => {
    const link = await linkChat(h, 5002, { withSecret: false });
    const orderId = await createOrder(h, link.apiKey);
    const res = await postHook(h, link.routeId, JSON.stringify({ orderId, status: "fulfilled" }));
    expect(res.status).toBe(202);
    await until(() => texts(h, 5002).length === 1);
    expect(texts(h, 5002)).toEqual([`order ${orderId} is pending`]);
    expect(h.notices[0]?.verified).toBe(false);
  });

  it("drops a delivery that names no record (logged, 2xx so the service stops retrying)", async () => {
    const s = await setup();
    expect((await postHook(h, s.routeId, JSON.stringify({ hello: "world" }), { secret: s.webhookSecret })).status).toBe(202);
    await settle(h);
    expect(h.notices).toEqual([]);
    expect(h.metrics.get("webhooks_total", { outcome: "dropped" })).toBe(1);
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
    await until(() => texts(h, 6001).includes(`order ${orderId} is fulfilled`));
    const seen = texts(h, 6001);
    expect(new Set(seen).size).toBe(seen.length);
    expect(reReads(h, orderId)).toBeGreaterThanOrEqual(2);
    await until(() => h.sim.webhookDeliveries.length >= 2);
    expect(h.sim.webhookDeliveries.every((d) => d.status === 202 || d.status === 200)).toBe(true);
    expect(h.notices.every((n) => n.verified && n.id === orderId)).toBe(true);
  });

  it("tells expired from failed by the re-read status of a broadcast", async () => {
    const link = await linkChat(h, 6002, { callback: true });
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });
    h.sim.control.setBroadcastOutcome(tx.txID, "expired");
    const { broadcastId } = await h.service.createBroadcast(tx, link.apiKey);
    await until(() => texts(h, 6002).includes(`broadcast ${broadcastId} is expired`));
    const seen = texts(h, 6002);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.some((t) => t.endsWith("is failed"))).toBe(false);
    expect(h.notices.every((n) => n.kind === "broadcast" && n.id === broadcastId)).toBe(true);
  });
});
