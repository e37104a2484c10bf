import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTracker, type TrackerChange, type TrackerDeps } from "../../../src/shared/tracking/tracker.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { startSimEnv, type SimEnv } from "../orders/sim-env.js";

/**
 * The first card after a confirm is drawn by the bot or by the tracker,
 * never by both and never by neither: the tracker holds its first read
 * while the bot draws, takes the bot's word for what the card shows, and
 * announces the status itself when the drawing failed, took too long, or
 * the process that drew it died.
 */

const CHAT = 8101;
let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv({ orderStepMs: 30 });
});
afterEach(async () => env.stop());

async function setup(overrides: Partial<TrackerDeps> = {}) {
  const account = env.sim.createAccount({ balanceSun: 100_000_000 });
  const parts = await env.open();
  const changes: TrackerChange[] = [];
  const make = () =>
    createTracker({
      store: parts.store,
      history: parts.history,
      service: env.service,
      getApiKey: () => Promise.resolve(account.apiKey),
      onChange: (c) => Promise.resolve(void changes.push(c)),
      logger: env.logger,
      minDelayMs: 10,
      maxDelayMs: 40,
      ...overrides,
    });
  // Held at pending: each test moves the order itself.
  env.sim.control.pauseLifecycles(true);
  const { orders } = await env.patientService.createOrders(
    account.apiKey,
    [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
    `k-${Math.random()}`,
  );
  return { make, changes, orderId: orders[0]!.orderId };
}

describe("the first card after a confirm", () => {
  it("is not read while the bot draws it; the status the bot drew counts as announced", async () => {
    const { make, changes, orderId } = await setup({ cardGraceMs: 60_000 });
    const tracker = make();
    await tracker.start();
    await tracker.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, pendingCard: true });
    const reads = () => env.sim.requests.filter((r) => r.path.startsWith("/v1/orders/")).length;
    expect(reads()).toBe(0);
    await tracker.cardShown({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, status: "pending" });
    await expect.poll(reads).toBeGreaterThan(0);
    env.sim.control.setOrderStatus(orderId, "fulfilled");
    await expect.poll(() => changes.length).toBe(1);
    expect(changes.map((c) => [c.previousStatus, c.record.status, c.cardStatus, c.cardMessageId])).toEqual([["pending", "fulfilled", "pending", 7]]);
    await tracker.stop();
  });

  it("already at its end: the end is still announced once (history, notice), with the card marked as showing it", async () => {
    const { make, changes, orderId } = await setup({ cardGraceMs: 60_000 });
    const tracker = make();
    await tracker.start();
    await tracker.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, pendingCard: true });
    env.sim.control.setOrderStatus(orderId, "fulfilled");
    await tracker.cardShown({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, status: "fulfilled" });
    await expect.poll(() => changes.length).toBe(1);
    expect(changes.map((c) => [c.previousStatus, c.record.status, c.final, c.cardStatus, c.cardMessageId])).toEqual([
      [undefined, "fulfilled", true, "fulfilled", 7],
    ]);
    await expect.poll(() => tracker.size).toBe(0);
    expect(changes).toHaveLength(1);
    await tracker.stop();
  });

  it("tracked with its end already on the card: the end is announced once all the same", async () => {
    const { make, changes, orderId } = await setup();
    env.sim.control.setOrderStatus(orderId, "fulfilled");
    const tracker = make();
    await tracker.start();
    await tracker.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 9, status: "fulfilled" });
    await expect.poll(() => changes.length).toBe(1);
    expect(changes.map((c) => [c.previousStatus, c.record.status, c.final, c.cardStatus])).toEqual([[undefined, "fulfilled", true, "fulfilled"]]);
    await expect.poll(() => tracker.size).toBe(0);
    expect(changes).toHaveLength(1);
    await tracker.stop();
  });

  it("is drawn by the tracker at once when the bot reports that drawing failed", async () => {
    const { make, changes, orderId } = await setup({ cardGraceMs: 60_000 });
    const tracker = make();
    await tracker.start();
    await tracker.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, pendingCard: true });
    await tracker.cardNotShown({ chatId: CHAT, kind: "order", id: orderId });
    await expect.poll(() => changes.length).toBe(1);
    expect(changes.map((c) => [c.previousStatus, c.record.status, c.cardStatus, c.cardMessageId])).toEqual([[undefined, "pending", undefined, 7]]);
    await tracker.stop();
  });

  it("is drawn by the tracker once the grace passes without a word from the bot", async () => {
    const { make, changes, orderId } = await setup({ cardGraceMs: 50 });
    const tracker = make();
    await tracker.start();
    await tracker.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, pendingCard: true });
    await expect.poll(() => changes.length).toBe(1);
    expect(changes[0]?.record.status).toBe("pending");
    await tracker.stop();
  });

  it("is drawn by the next process when the one drawing it died", async () => {
    const { make, changes, orderId } = await setup({ cardGraceMs: 60_000 });
    const dying = make();
    await dying.start();
    await dying.track({ chatId: CHAT, kind: "order", id: orderId, cardMessageId: 7, pendingCard: true });
    await dying.stop();
    const next = make();
    await next.start();
    await expect.poll(() => changes.length).toBe(1);
    expect(changes[0]?.cardMessageId).toBe(7);
    await next.stop();
  });
});
