import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay } from "../../../src/shared/tracking/tracked-item.js";
import { createTracker, DEFAULT_TRACKING, type TrackerChange, type TrackerDeps, type TrackerGiveUp } from "../../../src/shared/tracking/tracker.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { startSimEnv, type SimEnv } from "../orders/sim-env.js";
import { waitUntil } from "../../support/wait.js";

const CHAT = 8001;
let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv({ orderStepMs: 30 });
});
afterEach(async () => env.stop());

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  await waitUntil(check, { timeoutMs: ms, intervalMs: 10 });
}

async function newTracker(overrides: Partial<TrackerDeps> = {}, apiKey?: string) {
  const { store, history } = await env.open();
  const changes: TrackerChange[] = [];
  const giveUps: TrackerGiveUp[] = [];
  const tracker = createTracker({
    store,
    history,
    service: env.service,
    getApiKey: () => Promise.resolve(apiKey),
    onChange: (c) => {
      changes.push(c);
      return Promise.resolve();
    },
    onGiveUp: (g) => {
      giveUps.push(g);
      return Promise.resolve();
    },
    logger: env.logger,
    minDelayMs: 10,
    maxDelayMs: 40,
    ...overrides,
  });
  return { tracker, changes, giveUps, history };
}

async function placeOrder(apiKey: string) {
  const { orders } = await env.patientService.createOrders(
    apiKey,
    [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
    `k-${Math.random()}`,
  );
  return orders[0]!;
}

describe("tracker", () => {
  it("announces every later status of an order once, and ends at fulfilled", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const { tracker, changes } = await newTracker({}, account.apiKey);
    await tracker.start();
    // Stepped by hand: a loaded machine must not let a poll skip a status.
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending", cardMessageId: 55 });
    for (const [n, status] of ["matching", "executing", "fulfilled"].entries()) {
      env.sim.control.setOrderStatus(order.orderId, status);
      await until(() => changes.length === n + 1);
    }
    expect(changes.map((c) => [c.previousStatus, c.record.status, c.final, c.cardMessageId])).toEqual([
      ["pending", "matching", false, 55],
      ["matching", "executing", false, 55],
      ["executing", "fulfilled", true, 55],
    ]);
    // The item leaves once the poll that announced its end has finished.
    await vi.waitFor(() => expect(tracker.size).toBe(0));
    await tracker.hint({ chatId: CHAT, kind: "order", id: order.orderId });
    expect(changes).toHaveLength(3);
    await tracker.stop();
  });

  it("picks unfinished items up after a restart and announces nothing twice", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const first = await newTracker({}, account.apiKey);
    await first.tracker.start();
    // The order moves only when the test says: its end must come after the restart, however slow the machine.
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    await first.tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    env.sim.control.setOrderStatus(order.orderId, "matching");
    await until(() => first.changes.length >= 1);
    await first.tracker.stop();
    const second = await newTracker({}, account.apiKey);
    await second.tracker.start();
    expect(second.tracker.size).toBe(1);
    env.sim.control.setOrderStatus(order.orderId, "fulfilled");
    await until(() => second.changes.some((c) => c.final));
    const statuses = [...first.changes, ...second.changes].map((c) => c.record.status);
    expect(statuses).toEqual([...new Set(statuses)]);
    expect(statuses.at(-1)).toBe("fulfilled");
    await second.tracker.stop();
  });

  it("treats an unknown status as unfinished, then gives up past the horizon", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const { tracker, changes, giveUps } = await newTracker({ orderHorizonMs: 300 }, account.apiKey);
    const order = await placeOrder(account.apiKey);
    env.sim.control.pauseLifecycles(true);
    env.sim.control.setOrderStatus(order.orderId, "rebalancing");
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    await until(() => giveUps.length === 1);
    expect(changes.map((c) => [c.record.status, c.final])).toEqual([["rebalancing", false]]);
    expect(giveUps[0]).toMatchObject({ chatId: CHAT, kind: "order", id: order.orderId, lastStatus: "rebalancing" });
    expect(tracker.size).toBe(0);
  });

  it("starts tracking an id the bot did not create when a webhook hints at it, after a grace while a confirmation is in flight", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const { tracker, changes, history } = await newTracker({ firstSightGraceMs: 50, confirmationInFlight: () => Promise.resolve(true) }, account.apiKey);
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    await tracker.hint({ chatId: CHAT, kind: "order", id: order.orderId });
    await until(() => changes.length > 0);
    expect(changes.map((c) => [c.origin, c.previousStatus, c.record.status])).toEqual([["hint", undefined, "pending"]]);
    expect((await history.page(CHAT, 0, 5)).entries.map((e) => [e.id, e.status, e.amount])).toEqual([[order.orderId, "pending", 100_000]]);
    await tracker.hint({ chatId: CHAT, kind: "order", id: order.orderId });
    expect(changes).toHaveLength(1);
    expect(await tracker.stopChat(CHAT)).toBe(1);
    expect(tracker.size).toBe(0);
  });

  it("takes a webhook that overtakes the answer to the bot's own POST for the bot's order, not one made elsewhere", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    // A grace no loaded machine outlasts: the test ends on the placer's track, not on the timer.
    const { tracker, changes, history } = await newTracker({ firstSightGraceMs: 60_000, confirmationInFlight: () => Promise.resolve(true) }, account.apiKey);
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    // The service's webhook comes first: the chat's history does not hold the order yet.
    await tracker.hint({ chatId: CHAT, kind: "order", id: order.orderId });
    expect(changes).toEqual([]);
    // Then the placer, having read the POST's answer, records the order and tracks it as the card shows it.
    await history.add(CHAT, [
      { kind: "order", id: order.orderId, status: "pending", createdAtMs: Date.now(), address: TEST_KEYS.bob.address, amount: 100_000, durationSec: 60 },
    ]);
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    env.sim.control.pauseLifecycles(false);
    await until(() => changes.some((c) => c.final));
    expect(changes.every((c) => c.origin === "bot")).toBe(true);
    expect((await history.get(CHAT, "order", order.orderId))?.madeElsewhere).toBeUndefined();
    await tracker.stop();
  });

  it("reads a webhook's first sight at once when no confirmation of the account is in flight", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const { tracker, changes } = await newTracker({ firstSightGraceMs: 60_000, confirmationInFlight: () => Promise.resolve(false) }, account.apiKey);
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    await tracker.hint({ chatId: CHAT, kind: "order", id: order.orderId });
    expect(changes.map((c) => [c.origin, c.previousStatus, c.record.status])).toEqual([["hint", undefined, "pending"]]);
    await tracker.stop();
  });

  it("offers a change again when rendering it failed", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    let fail = true;
    const seen: string[] = [];
    const { tracker } = await newTracker(
      {
        onChange: (c) => {
          if (fail) {
            fail = false;
            return Promise.reject(new Error("push queue down"));
          }
          seen.push(c.record.status);
          return Promise.resolve();
        },
      },
      account.apiKey,
    );
    const order = await placeOrder(account.apiKey);
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    await until(() => seen.includes("fulfilled"));
    expect(seen.at(-1)).toBe("fulfilled");
    await tracker.stop();
  });

  it("drops an id it cannot read without a word, and tells the chat when a tracked one becomes unreadable", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    const { tracker, changes, giveUps } = await newTracker({}, account.apiKey);
    await tracker.hint({ chatId: CHAT, kind: "order", id: "f".repeat(24) });
    expect([changes.length, giveUps.length, tracker.size]).toEqual([0, 0, 0]);
    env.sim.control.pauseLifecycles(true);
    const order = await placeOrder(account.apiKey);
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    env.sim.revokeKey(account.apiKey);
    await until(() => giveUps.length === 1);
    expect(giveUps[0]).toMatchObject({ id: order.orderId, lastStatus: "pending" });
  });

  it("keeps tracking after a poll fails unexpectedly (a store or key-vault fault)", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    let faults = 1;
    const { tracker, changes } = await newTracker({
      getApiKey: () => (faults-- > 0 ? Promise.reject(new Error("store unavailable")) : Promise.resolve(account.apiKey)),
    });
    const order = await placeOrder(account.apiKey);
    await tracker.track({ chatId: CHAT, kind: "order", id: order.orderId, status: "pending" });
    await until(() => changes.some((c) => c.final));
    expect(changes.at(-1)?.record.status).toBe("fulfilled");
    // The item leaves once the poll that announced its end has finished.
    await until(() => tracker.size === 0);
    await tracker.stop();
  });

  it("backs off from about 1 s to 30 s by default", () => {
    const delays = Array.from({ length: 8 }, (_, attempt) => backoffDelay(attempt, DEFAULT_TRACKING));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
