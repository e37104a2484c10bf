/**
 * One journey through the whole app over a given store, shared by
 * test/app-{sqlite,redis,postgres}.test.ts: /link, an order tracked to its
 * final notification through the push queue, a signed webhook relayed, a
 * restart over the same store, and a chat that blocked the bot (403).
 * Call it inside a `describe`; the tests run in order and share one app.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { App } from "../src/app.js";
import { createChatRepository } from "../src/shared/chats/chat-repository.js";
import { openStore } from "../src/platform/store/open-store.js";
import { createVault } from "../src/shared/vault.js";
import { failOnLoggedErrors, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

export interface JourneyHooks {
  /** This backend's queues as they stand (e.g. BullMQ's job counts), for a wait that timed out. */
  queueState?: (target: StoreTarget) => Promise<unknown>;
  /** Extra proof that the pushes went through this backend's queue (e.g. BullMQ's completed jobs). */
  afterPushes?: (target: StoreTarget) => Promise<void>;
  /** Extra proof that the webhook went through this backend's inbox. */
  afterWebhook?: (target: StoreTarget) => Promise<void>;
}

const CHAT = 4343;

export function appJourney(openTarget: () => Promise<StoreTarget>, hooks: JourneyHooks = {}): void {
  let target: StoreTarget | undefined;
  let w: AppWorld;
  let app: App;
  let hookUrl = "";
  let routeId = "";

  const finals = (orderId: string) => w.botTexts(CHAT, new RegExp(`^✅ Order ${orderId} is fulfilled`));
  const metric: App["metrics"]["get"] = (name, labels) => app.metrics.get(name, labels);

  /** A wait that timed out says what the chat, the card's edits, the tracker and the queues looked like. */
  async function explained<T>(wait: () => Promise<T>, orderId: string, cardId: number): Promise<T> {
    try {
      return await wait();
    } catch (error) {
      const edits = w.tg.callsOf("editMessageText").filter((c) => c.params["message_id"] === cardId);
      const state = {
        order: await (await fetch(`${w.sim.baseUrl}/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } })).text(),
        card: w.textOf(CHAT, cardId),
        cardEdits: edits.map((c) => ({ at: c.at, ok: c.ok, status: /Status: (\w+)/.exec(String(c.params["text"]))?.[1] })),
        finals: finals(orderId),
        trackedOrders: await metric("tracked_items", { kind: "order" }),
        sent: await metric("notifications_total", { outcome: "sent" }),
        queues: await hooks.queueState?.(target!),
        warnings: w.logs.filter((l) => l.level >= 40).slice(-10),
      };
      throw new Error(`${(error as Error).message}\n${JSON.stringify(state, null, 1)}`, { cause: error });
    }
  }

  beforeAll(async () => {
    target = await openTarget();
    w = await startAppWorld();
    app = await w.startApp(target);
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  failOnLoggedErrors(() => w?.logs);

  it("links the chat with /link and removes the message carrying the key", async () => {
    const linked = await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    expect(linked.text).toContain("1,000 TRX");
    expect(w.tg.view(CHAT).some((m) => m.text.includes(w.demo.apiKey))).toBe(false);
  });

  it("places an order from the chat, edits its card and sends the final notification once, through the push queue", async () => {
    const { orderId, cardId } = await w.placeOrder(CHAT);
    await waitFor(() => finals(orderId).length > 0, "the final notification");
    await waitFor(() => w.textOf(CHAT, cardId).includes("Status: fulfilled"), "the card showing fulfilled");
    expect(finals(orderId)).toHaveLength(1);
    // Card edits and the final notification are sent by the push queue only; it counts a send
    // after Telegram answered, so the count may trail what the chat already shows.
    await waitFor(async () => (await metric("notifications_total", { outcome: "sent" })) >= 2, "the push queue counting both sends");
    await hooks.afterPushes?.(target!);
  });

  // Three waits in sequence through the inbox, the tracker and the push queue (BullMQ on Redis):
  // on a loaded 2-core machine they outlive 20 s together, so each keeps its own 20 s deadline.
  it("relays a signed service webhook about an order the bot never saw", { timeout: 60_000 }, async () => {
    routeId = await w.routeIdOf(CHAT);
    hookUrl = `http://127.0.0.1:${app.httpPort}/hooks/${routeId}`;
    w.sim.setCallbackUrl(w.demo.apiKey, hookUrl);
    // Held unfinished until the chat is told: an order first seen already fulfilled gets only its final message.
    w.sim.control.pauseLifecycles(true);
    const orderId = await w.orderBehindTheBotsBack(`walk-${Date.now()}`);
    const delivery = await waitFor(
      () => w.sim.webhookDeliveries.find((d) => d.event === "order.created" && d.body.includes(orderId) && d.status === 202),
      "an accepted delivery",
    );
    expect(delivery.url).toBe(hookUrl);
    await waitFor(() => w.botTexts(CHAT, /^New on your account/).some((t) => t.includes(orderId)), "the chat being told about the order");
    w.sim.control.pauseLifecycles(false);
    await waitFor(() => finals(orderId).length > 0, "the final notification of the relayed order");
    expect(w.botTexts(CHAT, /^New on your account/).filter((t) => t.includes(orderId))).toHaveLength(1);
    expect(finals(orderId)).toHaveLength(1);
    expect(await metric("webhooks_total", { outcome: "accepted" })).toBeGreaterThanOrEqual(1);
    expect(await metric("webhooks_total", { outcome: "unauthorized" })).toBe(0);
    await hooks.afterWebhook?.(target!);
  });

  // A stop, a start and three waits in sequence: on a loaded 2-core CI machine this outlives the
  // default 20 s, so each wait keeps its own 20 s deadline (naming the step) inside a longer test budget.
  it("keeps the link and resumes tracking after a restart over the same store", { timeout: 60_000 }, async () => {
    w.sim.control.pauseLifecycles(true);
    const { orderId, cardId } = await w.placeOrder(CHAT);
    expect(w.textOf(CHAT, cardId)).toContain("Status: pending");
    await w.stopApp(app);

    // No webhooks meanwhile: only the tracker picking the order up from the store may finish it.
    w.sim.setCallbackUrl(w.demo.apiKey, null);
    app = await w.startApp(target!);
    await waitFor(async () => (await metric("tracked_items", { kind: "order" })) === 1, "the stored order being tracked again");
    const balance = await w.say(CHAT, "/balance", (m) => m.text.includes("TRX"));
    expect(balance.text).not.toMatch(/\/link/);
    w.sim.control.pauseLifecycles(false);
    await explained(() => waitFor(() => finals(orderId).length > 0, "the final notification after the restart"), orderId, cardId);
    await explained(() => waitFor(() => w.textOf(CHAT, cardId).includes("Status: fulfilled"), "the card edited after the restart"), orderId, cardId);
    expect(finals(orderId)).toHaveLength(1);
    hookUrl = `http://127.0.0.1:${app.httpPort}/hooks/${routeId}`;
    w.sim.setCallbackUrl(w.demo.apiKey, hookUrl);
  });

  it("marks a chat that blocked the bot inactive and stops tracking it (403 through the push queue)", async () => {
    w.sim.control.pauseLifecycles(true);
    const { orderId, cardId } = await w.placeOrder(CHAT);
    expect(w.textOf(CHAT, cardId)).toContain("Status: pending");
    await waitFor(async () => (await metric("tracked_items", { kind: "order" })) === 1, "the order being tracked");

    w.tg.blockChat(CHAT);
    // Not final: only the 403 may end its tracking.
    w.sim.control.setOrderStatus(orderId, "executing");
    await waitFor(() => w.tg.failedCalls().some((c) => c.errorCode === 403), "Telegram's 403");
    await waitFor(async () => (await metric("tracked_items", { kind: "order" })) === 0, "tracking of the chat to stop");
    expect(w.textOf(CHAT, cardId)).toContain("Status: pending");
    await w.stopApp(app);

    const order = await fetch(`${w.sim.baseUrl}/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } });
    expect(await order.text()).toContain('"executing"');
    const store = await openStore(target!.url, { logger: w.logger, purgeIntervalMs: 0, ...(target!.prefix === undefined ? {} : { prefix: target!.prefix }) });
    try {
      const chats = createChatRepository({ store, vault: createVault({ key: Buffer.from(w.encryptionKey, "base64") }), logger: w.logger });
      const record = await chats.get(CHAT);
      expect(record).toMatchObject({ chatId: CHAT, active: false });
      // Still linked: only the deliveries stop.
      expect(await chats.getApiKey(CHAT)).toBe(w.demo.apiKey);
      const tracked: string[] = [];
      for await (const [key, value] of store.namespace("tracking").entries()) tracked.push(`${key} ${JSON.stringify(value)}`);
      expect(tracked.filter((t) => t.includes(orderId))).toEqual([]);
    } finally {
      await store.close();
    }
    w.tg.blockChat(CHAT, false);
    w.sim.control.pauseLifecycles(false);
  });
}
