import { Readable } from "node:stream";
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeSignature, formatSignatureHeader } from "../../src/platform/http/signature.js";
import { createOrder, linkChat, METRICS_TOKEN, postHook, reReads, settle, startHarness, texts, until, type Harness, type HarnessOptions } from "./harness.js";
import { collect } from "../platform/store/helpers.js";

/** The webhook tests run through the real tracker and notifier, as src/app.ts wires them. */
describe("POST /hooks/:routeId", () => {
  let h: Harness;
  let options: HarnessOptions = {};
  beforeEach(async () => {
    h = await startHarness(options);
  });
  afterEach(async () => {
    await h.close();
    options = {};
  });

  async function setup(chatId = 5001) {
    const link = await linkChat(h, chatId);
    const orderId = await createOrder(h, link.apiKey);
    const nested = JSON.stringify({ id: "evt", event: "order.created", data: { order: { orderId, status: "pending" } } });
    return { ...link, orderId, nested, chatId };
  }

  it("accepts a signed delivery with 202, re-reads the order and tells the chat what the API says, not the payload", async () => {
    const s = await setup();
    const body = JSON.stringify({ id: "evt", event: "order.created", data: { order: { orderId: s.orderId, status: "fulfilled" } } });
    const res = await postHook(h, s.routeId, body, { secret: s.webhookSecret });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body)).toEqual({ status: "accepted" });
    await until(() => texts(h, s.chatId).length === 1);
    await settle(h);
    const [message] = texts(h, s.chatId);
    expect(message).toContain("New on your account");
    expect(message).toContain(s.orderId);
    expect(message).toContain("Status: pending");
    expect(message).not.toContain("fulfilled");
    expect(texts(h, s.chatId)).toHaveLength(1);
    expect(reReads(h, s.orderId)).toBe(1);
    expect(h.notices).toEqual([expect.objectContaining({ chatId: s.chatId, kind: "order", id: s.orderId, verified: true, event: "order.created" })]);
  });

  it("answers before the re-read: a hanging service does not hold the 202 back", async () => {
    const s = await setup();
    h.sim.faults.inject({ method: "GET", path: `/v1/orders/${s.orderId}`, kind: "hang", times: 1 });
    const res = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    expect(res.status).toBe(202);
    // The only read so far hangs: the delivery is still waiting in the inbox and nothing was said.
    expect(await h.inbox.size()).toBe(1);
    expect(texts(h, s.chatId)).toEqual([]);
    await until(() => texts(h, s.chatId).length === 1);
    expect(texts(h, s.chatId)[0]).toContain("Status: pending");
  });

  it("answers a replayed delivery id with 200 and ignores it", async () => {
    const s = await setup();
    const first = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    expect(first.status).toBe(202);
    await settle(h);
    const replay = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, deliveryId: first.deliveryId });
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ status: "duplicate" });
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(1);
    expect(texts(h, s.chatId)).toHaveLength(1);
    expect(h.notices).toHaveLength(1);
    expect(await h.metrics.get("webhooks_total", { outcome: "duplicate" })).toBe(1);
  });

  it("treats a retry without a delivery id header as the same delivery (same body)", async () => {
    const s = await setup();
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, deliveryId: null })).status).toBe(202);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, deliveryId: null })).status).toBe(200);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(1);
  });

  it("announces each status once: one message per status whatever the number of deliveries", async () => {
    const s = await setup();
    await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    await settle(h);
    h.sim.control.setOrderStatus(s.orderId, "fulfilled");
    const fulfilled = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId: s.orderId } } });
    const t = Math.floor(Date.now() / 1000);
    expect((await postHook(h, s.routeId, fulfilled, { secret: s.webhookSecret, event: "order.fulfilled", t })).status).toBe(202);
    await settle(h);
    // Another delivery of the same event: signed at another moment (the same signed content would be a replay, hooks-replay.test.ts).
    expect((await postHook(h, s.routeId, fulfilled, { secret: s.webhookSecret, event: "order.fulfilled", t: t - 1 })).status).toBe(202);
    await settle(h);
    const seen = texts(h, s.chatId);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain("Status: pending");
    expect(seen[1]).toContain(`Order ${s.orderId} is fulfilled`);
    expect(reReads(h, s.orderId)).toBe(3);
  });

  it.each([
    ["a wrong secret", (s: { webhookSecret: string }) => ({ secret: `${s.webhookSecret}x` })],
    ["a stale timestamp (301 s old)", (s: { webhookSecret: string }) => ({ secret: s.webhookSecret, t: Math.floor(Date.now() / 1000) - 301 })],
    // Over loopback the clock moves on between signing and checking (a second boundary under load would turn
    // 301 s ahead into 300 s): the exact ±301 boundary is signature.test.ts's, with a fixed clock.
    ["a future timestamp (330 s ahead)", (s: { webhookSecret: string }) => ({ secret: s.webhookSecret, t: Math.floor(Date.now() / 1000) + 330 })],
    ["no signature header", () => ({ signature: null })],
    ["no headers at all", () => ({ signature: null, deliveryId: null, event: null })],
    ["a malformed signature header", () => ({ signature: "v1=abc,t=nope" })],
    [
      "a signature of another body",
      (s: { webhookSecret: string }) => {
        const t = Math.floor(Date.now() / 1000);
        return { signature: formatSignatureHeader(t, [computeSignature(s.webhookSecret, t, "{}")]) };
      },
    ],
  ])("refuses %s with 401 and does nothing", async (_name, makeOptions) => {
    const s = await setup();
    const res = await postHook(h, s.routeId, s.nested, makeOptions(s));
    expect(res.status).toBe(401);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(0);
    expect(texts(h, s.chatId)).toEqual([]);
    expect(h.notices).toEqual([]);
    expect(await h.inbox.size()).toBe(0);
    expect(await h.metrics.get("webhooks_total", { outcome: "unauthorized" })).toBe(1);
    // A refused delivery is not remembered: the genuine one with the same id still goes through.
    const genuine = await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, ...(res.deliveryId ? { deliveryId: res.deliveryId } : {}) });
    expect(genuine.status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
  });

  it("verifies the raw bytes: odd spacing, escapes and non-ASCII text survive the signature check", async () => {
    const s = await setup();
    const body = `{ "event" : "order.created",\n  "data": { "order": { "orderId": "${s.orderId}", "note": "\\u00e9t\\u00e9 ✓ 注文" } } }\n`;
    expect((await postHook(h, s.routeId, body, { secret: s.webhookSecret })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
  });

  it("accepts any of several v1 signatures (secret rotation)", async () => {
    const s = await setup();
    const t = Math.floor(Date.now() / 1000);
    const header = formatSignatureHeader(t, [computeSignature("old-secret", t, s.nested), computeSignature(s.webhookSecret, t, s.nested)]);
    expect((await postHook(h, s.routeId, s.nested, { signature: header })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
  });

  it("accepts timestamps 300 s off in either direction", async () => {
    const s = await setup();
    const now = Math.floor(Date.now() / 1000);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, t: now - 290 })).status).toBe(202);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret, t: now + 290 })).status).toBe(202);
  });

  it("refuses a body over 1 MiB with 413 and does nothing; exactly 1 MiB is accepted", async () => {
    const s = await setup();
    const big = JSON.stringify({ orderId: s.orderId, pad: "x".repeat(1_048_576) });
    const res = await postHook(h, s.routeId, big, { secret: s.webhookSecret });
    expect(res.status).toBe(413);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(0);
    expect(texts(h, s.chatId)).toEqual([]);
    const head = JSON.stringify({ orderId: s.orderId, pad: "" });
    const exact = JSON.stringify({ orderId: s.orderId, pad: "x".repeat(1_048_576 - Buffer.byteLength(head)) });
    expect(Buffer.byteLength(exact)).toBe(1_048_576);
    expect((await postHook(h, s.routeId, exact, { secret: s.webhookSecret })).status).toBe(202);
  });

  it("refuses an oversized chunked body (no Content-Length) with 413", async () => {
    const s = await setup();
    function* chunks() {
      for (let i = 0; i < 20; i += 1) yield Buffer.alloc(64 * 1024, 0x20);
    }
    const res = await request(`${h.baseUrl}/hooks/${s.routeId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Readable.from(chunks()),
    });
    await res.body.dump();
    expect(res.statusCode).toBe(413);
    await settle(h);
    expect(h.notices).toEqual([]);
  });

  it("answers 404 for an unknown route and 405 for other methods", async () => {
    const s = await setup();
    expect((await postHook(h, "A".repeat(24), s.nested, { secret: s.webhookSecret })).status).toBe(404);
    expect((await postHook(h, "not/a-route", s.nested, { secret: s.webhookSecret })).status).toBe(404);
    const get = await postHook(h, s.routeId, s.nested, { method: "GET" });
    expect(get.status).toBe(405);
    const put = await request(`${h.baseUrl}/hooks/${s.routeId}`, { method: "PUT", body: s.nested });
    await put.body.dump();
    expect(put.statusCode).toBe(405);
    expect(put.headers["allow"]).toBe("POST");
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(0);
    expect(texts(h, s.chatId)).toEqual([]);
  });

  it("answers 404 on the old URL after the route is rotated", async () => {
    const s = await setup();
    const fresh = await h.chats.rotateRoute(s.chatId);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret })).status).toBe(404);
    await settle(h);
    expect(texts(h, s.chatId)).toEqual([]);
    expect((await postHook(h, fresh!, s.nested, { secret: s.webhookSecret })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
  });

  it("finds the id in the flat layout too, with the event only in the payload", async () => {
    const s = await setup();
    const flat = JSON.stringify({ event: "order.created", orderId: s.orderId, status: "pending", receiver: "T..." });
    expect((await postHook(h, s.routeId, flat, { secret: s.webhookSecret, event: null })).status).toBe(202);
    await until(() => texts(h, s.chatId).length === 1);
    expect(reReads(h, s.orderId)).toBe(1);
    expect(h.notices[0]).toMatchObject({ kind: "order", id: s.orderId, event: "order.created" });
  });

  it("treats an unsigned delivery for a chat without a secret as a hint: re-read, then what the API says", async () => {
    const link = await linkChat(h, 5002, { withSecret: false });
    const orderId = await createOrder(h, link.apiKey);
    const res = await postHook(h, link.routeId, JSON.stringify({ orderId, status: "fulfilled" }), { event: "order.fulfilled" });
    expect(res.status).toBe(202);
    await until(() => texts(h, 5002).length === 1);
    await settle(h);
    expect(texts(h, 5002)).toHaveLength(1);
    expect(texts(h, 5002)[0]).toContain("Status: pending");
    expect(texts(h, 5002)[0]).not.toContain("fulfilled");
    expect(h.notices[0]?.verified).toBe(false);
    expect(reReads(h, orderId)).toBe(1);
  });

  it("never turns an unsigned hint into a message by itself: an id the chat's key cannot read says nothing", async () => {
    const link = await linkChat(h, 5003, { withSecret: false });
    const stranger = h.sim.createAccount({ balanceSun: 100_000_000_000 });
    const foreignOrder = await createOrder(h, stranger.apiKey);
    const forged = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId: foreignOrder, status: "fulfilled", receiver: "T..." } } });
    expect((await postHook(h, link.routeId, forged, { event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(reReads(h, foreignOrder)).toBe(1);
    expect(texts(h, 5003)).toEqual([]);
    expect(h.tracker.size).toBe(0);
  });

  it("logs and drops an unknown id in a signed delivery: one re-read (404), no message, no retries", async () => {
    const s = await setup();
    const unknown = "0123456789abcdef01234567";
    const body = JSON.stringify({ event: "order.fulfilled", orderId: unknown });
    expect((await postHook(h, s.routeId, body, { secret: s.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(reReads(h, unknown)).toBe(1);
    expect(texts(h, s.chatId)).toEqual([]);
    expect(h.tracker.size).toBe(0);
  });

  it("drops a delivery that names no record (logged, 2xx so the service stops retrying)", async () => {
    const s = await setup();
    expect((await postHook(h, s.routeId, JSON.stringify({ hello: "world" }), { secret: s.webhookSecret })).status).toBe(202);
    await settle(h);
    expect(h.notices).toEqual([]);
    expect(texts(h, s.chatId)).toEqual([]);
    expect(await h.metrics.get("webhooks_total", { outcome: "dropped" })).toBe(1);
  });

  it("refuses a body that is not JSON with 400 after the signature check", async () => {
    const s = await setup();
    expect((await postHook(h, s.routeId, "not json", { secret: s.webhookSecret })).status).toBe(400);
    expect((await postHook(h, s.routeId, "not json", { secret: "wrong" })).status).toBe(401);
  });

  it("marks the chat inactive and stops tracking it when Telegram answers 403", async () => {
    const s = await setup();
    h.tg.blockChat(s.chatId);
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret })).status).toBe(202);
    await until(async () => (await h.chats.get(s.chatId))?.active === false);
    // Stopped: nothing polled, and the stored item gone too (its delete can land after the poll ends).
    await until(async () => h.tracker.size === 0 && (await collect(h.store.namespace("tracking").entries())).length === 0);
    expect(await h.tracker.stopChat(s.chatId)).toBe(0);
    expect(await h.metrics.get("notifications_total", { outcome: "failed" })).toBe(1);
  });

  it("respects /settings: with order notifications off, a webhook re-reads but tells the chat nothing", async () => {
    const s = await setup();
    await h.chats.setNotifications(s.chatId, { orders: false });
    expect((await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret })).status).toBe(202);
    await settle(h);
    h.sim.control.setOrderStatus(s.orderId, "fulfilled");
    const fulfilled = JSON.stringify({ event: "order.fulfilled", orderId: s.orderId });
    expect((await postHook(h, s.routeId, fulfilled, { secret: s.webhookSecret, event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(reReads(h, s.orderId)).toBe(2);
    expect(texts(h, s.chatId)).toEqual([]);
  });

  it("feeds /metrics: webhooks, notifications, tracked items and service calls", async () => {
    const s = await setup();
    await postHook(h, s.routeId, s.nested, { secret: s.webhookSecret });
    await until(() => texts(h, s.chatId).length === 1);
    await settle(h);
    const res = await request(`${h.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const body = await res.body.text();
    expect(body).toContain('webhooks_total{outcome="accepted"} 1');
    expect(body).toContain('webhooks_total{outcome="processed"} 1');
    expect(body).toContain('notifications_total{outcome="queued"} 1');
    expect(body).toContain('notifications_total{outcome="sent"} 1');
    expect(body).toContain('tracked_items{kind="order"} 1');
    expect(body).toMatch(/service_calls_total\{endpoint="GET \/v1\/orders\/[^"]+",outcome="ok"\} 1/);
  });
});
