/**
 * A charged order the service answers 404 for, through the whole app (src/app.ts as wired), the
 * simulator and the fake Bot API: a few 404s in a row are read past and the order is still
 * announced fulfilled; a 404 that lasts past the bound (here 4 reads over 1 s; production 5 reads
 * over 10 min) ends in a message that says what to do, whose Refresh picks the order up again
 * once the service finds it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { failOnLoggedErrors, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

const CHAT = 7310;
const BOUND = { TRACKING_NOT_FOUND_GRACE_MS: "1000", TRACKING_NOT_FOUND_READS: "4" };
const DASHBOARD = "https://dashboard.example.test";

let w: AppWorld;
let target: StoreTarget;

beforeAll(async () => {
  target = sqliteTarget();
  w = await startAppWorld();
  await w.startApp(target.url, { ...BOUND, DASHBOARD_URL: DASHBOARD });
  await w.say(CHAT, `/link ${w.demo.apiKey}`, (m) => /connected/i.test(m.text));
});

afterAll(async () => {
  await w?.close();
  await target?.cleanup();
});

afterEach(() => {
  w.sim.faults.clear();
  w.sim.control.pauseLifecycles(false);
});
failOnLoggedErrors(() => w?.logs);

const orderReads = (orderId: string, status: number) =>
  w.sim.requests.filter((r) => r.method === "GET" && r.path === `/v1/orders/${orderId}` && r.status === status).length;
const fulfilledNotices = (orderId: string) => w.botTexts(CHAT, new RegExp(`^✅ Order ${orderId} is fulfilled`));
const notFoundNotices = (orderId: string) => w.tg.botMessages(CHAT).filter((m) => m.text.includes(`that order ${orderId} does not exist`));
/** The message that ended tracking without a word on what to do. */
const stoppedWatching = () => w.botTexts(CHAT, /I have stopped watching .*\(last status/);

describe("a tracked order the service answers 404 for", () => {
  it("is read again after a few 404s and still announced fulfilled, once", async () => {
    w.sim.control.pauseLifecycles(true);
    const { orderId } = await w.placeOrder(CHAT);
    w.sim.faults.inject({ method: "GET", path: `/v1/orders/${orderId}`, kind: "status", status: 404, code: "not_found", times: 3 });
    await waitFor(() => orderReads(orderId, 404) === 3, "three reads of the order answered 404");
    w.sim.control.pauseLifecycles(false);
    await waitFor(() => fulfilledNotices(orderId).length > 0, "the order announced fulfilled", 40_000);
    expect(fulfilledNotices(orderId)).toHaveLength(1);
    expect(notFoundNotices(orderId)).toEqual([]);
    expect(stoppedWatching()).toEqual([]);
  });

  it("past the bound, tells the chat what to do, and its Refresh follows the order again once the service finds it", async () => {
    w.sim.control.pauseLifecycles(true);
    const { orderId } = await w.placeOrder(CHAT);
    w.sim.faults.inject({ method: "GET", path: `/v1/orders/${orderId}`, kind: "status", status: 404, code: "not_found" });
    const notice = await waitFor(() => notFoundNotices(orderId)[0], "the not-found message", 40_000);
    // Given up only past both halves of the bound: at least 4 reads in a row answered 404.
    expect(orderReads(orderId, 404)).toBeGreaterThanOrEqual(4);
    expect(notice.text).toContain(`/track ${orderId}`);
    expect(notice.buttons.flat().map((b) => b.text)).toEqual(["🔄 Refresh", "🖥 Dashboard"]);
    expect(notice.buttons.flat().find((b) => b.text === "🖥 Dashboard")?.url).toBe(DASHBOARD);
    expect(stoppedWatching()).toEqual([]);

    // The service finds it again: Refresh draws the order's card in place of the message and tracks it to its end.
    w.sim.faults.clear();
    w.front.enqueue(w.tg.press(CHAT, "🔄 Refresh", { messageId: notice.messageId }));
    await waitFor(() => w.textOf(CHAT, notice.messageId).startsWith(`Order ${orderId}`), "the order's card drawn by Refresh");
    w.sim.control.pauseLifecycles(false);
    await waitFor(() => fulfilledNotices(orderId).length > 0, "the order announced fulfilled after Refresh", 40_000);
    expect(fulfilledNotices(orderId)).toHaveLength(1);
    // The card Refresh drew is the one the tracker keeps current.
    await waitFor(() => w.textOf(CHAT, notice.messageId).includes("Status: fulfilled"), "the card showing fulfilled");
  });
});
