import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeases, type Leases } from "../../../src/platform/store/lease.js";
import { createTracker, type Tracker, type TrackerChange, type TrackerDeps } from "../../../src/shared/tracking/tracker.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { startSimEnv, type SimEnv } from "../orders/sim-env.js";
import { waitUntil } from "../../support/wait.js";

/**
 * Several processes on one store share the tracking: each item is polled by
 * the process holding its lease, a dead process's items are adopted once
 * their leases run out, and a status seen by two processes at once is
 * announced by one. Each tracker here has its own store connection to one
 * SQLite file and its own lease owner, as separate processes do.
 */

const CHAT = 8201;
// Far longer than any stall of a loaded machine's event loop between two renewals: a holder that stalled past its
// lease would rightly lose its items, which is not what the tests here are about. A dead holder's items wait this long.
const LEASE_TTL_MS = 2_000;
const SCAN_MS = 100;
let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv({ orderStepMs: 30 });
});
afterEach(async () => env.stop());

/** A process's leases; `die()` stops it answering, as kill -9 would (nothing is given up). */
function processLeases(store: Parameters<typeof createLeases>[0]["store"], owner: string): Leases & { die(): void } {
  const leases = createLeases({ store, owner });
  let dead = false;
  return {
    claim: (key, ttlMs) => (dead ? Promise.resolve(false) : leases.claim(key, ttlMs)),
    release: (key) => (dead ? Promise.resolve() : leases.release(key)),
    claimMany: (keys, ttlMs) => (dead ? Promise.resolve(keys.map(() => false)) : leases.claimMany(keys, ttlMs)),
    releaseMany: (keys) => (dead ? Promise.resolve() : leases.releaseMany(keys)),
    die: () => void (dead = true),
  };
}

async function startProcess(owner: string, apiKey: string, overrides: Partial<TrackerDeps> = {}) {
  const { store, history } = await env.open();
  const leases = processLeases(store, owner);
  const changes: TrackerChange[] = [];
  const tracker: Tracker = createTracker({
    store,
    history,
    service: env.service,
    getApiKey: () => Promise.resolve(apiKey),
    onChange: (c) => Promise.resolve(void changes.push(c)),
    logger: env.logger,
    minDelayMs: 10,
    maxDelayMs: 40,
    leases,
    leaseTtlMs: LEASE_TTL_MS,
    scanIntervalMs: SCAN_MS,
    ...overrides,
  });
  await tracker.start();
  return { tracker, changes, leases };
}

async function placeOrder(apiKey: string): Promise<string> {
  const { orders } = await env.patientService.createOrders(
    apiKey,
    [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
    `k-${Math.random()}`,
  );
  return orders[0]!.orderId;
}

describe("tracking shared by several processes", () => {
  it("polls each item in one process only, and the survivor takes a dead process's items over", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    env.sim.control.pauseLifecycles(true);
    const first = await startProcess("first", account.apiKey);
    const second = await startProcess("second", account.apiKey);
    const ids = [await placeOrder(account.apiKey), await placeOrder(account.apiKey)];
    for (const id of ids) await first.tracker.track({ chatId: CHAT, kind: "order", id, status: "pending", cardMessageId: 9 });
    env.sim.control.setOrderStatus(ids[0]!, "matching");
    await waitUntil(() => first.changes.length === 1, { what: "the holder to announce" });
    // Several scans later the other process still has not taken anything.
    const scansLater = env.sim.requests.length + 20;
    await waitUntil(() => env.sim.requests.length > scansLater, { what: "more polls" });
    expect([first.tracker.size, second.tracker.size]).toEqual([2, 0]);

    first.leases.die();
    await first.tracker.stop();
    await waitUntil(() => second.tracker.size === 2, { what: "the survivor to adopt the items" });
    env.sim.control.pauseLifecycles(false);
    await waitUntil(() => second.changes.filter((c) => c.final).length === 2, { what: "both orders finished" });
    const announced = [...first.changes, ...second.changes].map((c) => `${c.kind === "order" ? c.record.orderId : c.record.broadcastId}:${c.record.status}`);
    expect(announced).toEqual([...new Set(announced)]);
    expect(second.changes.every((c) => c.cardMessageId === 9)).toBe(true);
    expect(first.changes.map((c) => c.record.status)).toEqual(["matching"]);
    await second.tracker.stop();
  });

  it("hands its items over at once when it stops cleanly", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    env.sim.control.pauseLifecycles(true);
    // A lease far longer than the wait: only the release lets the other process in.
    const longLease = { leaseTtlMs: 600_000 };
    const first = await startProcess("first", account.apiKey, longLease);
    const second = await startProcess("second", account.apiKey, longLease);
    await first.tracker.track({ chatId: CHAT, kind: "order", id: await placeOrder(account.apiKey), status: "pending" });
    await first.tracker.stop();
    await waitUntil(() => second.tracker.size === 1, { what: "the other process to adopt the item" });
    await second.tracker.stop();
  });

  it("announces on the card another process drew last, and stops when another process forgets the chat", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    env.sim.control.pauseLifecycles(true);
    const holder = await startProcess("holder", account.apiKey);
    const other = await startProcess("other", account.apiKey);
    const first = await placeOrder(account.apiKey);
    const second = await placeOrder(account.apiKey);
    await holder.tracker.track({ chatId: CHAT, kind: "order", id: first, status: "pending", cardMessageId: 1 });
    await holder.tracker.track({ chatId: CHAT, kind: "order", id: second, status: "pending", cardMessageId: 3 });
    // A Refresh taken by the other process draws a new card of the first order.
    await other.tracker.track({ chatId: CHAT, kind: "order", id: first, status: "pending", cardMessageId: 2 });
    expect(other.tracker.size).toBe(0);
    // A poll already in flight read the stored card before it changed and may still announce on the old one; the holder's
    // polls of one item run one after another, so the second read from now on began after the new card was stored.
    const readsOfFirst = () => env.sim.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/${first}`)).length;
    const readsBefore = readsOfFirst();
    await waitUntil(() => readsOfFirst() >= readsBefore + 2, { what: "a poll begun after the new card" });
    env.sim.control.setOrderStatus(first, "matching");
    await waitUntil(() => holder.changes.length === 1, { what: "the holder to announce" });
    expect(holder.changes.map((c) => [c.record.status, c.cardMessageId])).toEqual([["matching", 2]]);
    // The chat blocked the bot, as the other process learnt: the holder stops at its next read.
    expect(await other.tracker.stopChat(CHAT)).toBe(2);
    await waitUntil(() => holder.tracker.size === 0, { what: "the holder to let go" });
    env.sim.control.setOrderStatus(second, "fulfilled");
    await waitUntil(() => other.tracker.size === 0 && holder.tracker.size === 0, { what: "nobody to track" });
    expect([holder.changes.length, other.changes.length]).toEqual([1, 0]);
    await holder.tracker.stop();
    await other.tracker.stop();
  });

  it("announces a status once when a webhook's re-read in one process races the holder's poll in another", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    env.sim.control.pauseLifecycles(true);
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const slow: TrackerChange[] = [];
    const holder = await startProcess("holder", account.apiKey, {
      onChange: async (c) => {
        // The holder is announcing (a slow push queue) when the webhook's re-read comes elsewhere.
        entered();
        await finished;
        slow.push(c);
      },
    });
    const other = await startProcess("other", account.apiKey);
    const id = await placeOrder(account.apiKey);
    await holder.tracker.track({ chatId: CHAT, kind: "order", id, status: "pending" });
    env.sim.control.setOrderStatus(id, "fulfilled");
    await inside;
    await other.tracker.hint({ chatId: CHAT, kind: "order", id });
    finish();
    await waitUntil(() => holder.tracker.size === 0, { what: "the holder to finish" });
    expect([slow.length, other.changes.length, other.tracker.size]).toEqual([1, 0, 0]);
    // Later re-reads find it announced.
    await other.tracker.hint({ chatId: CHAT, kind: "order", id });
    expect(other.changes).toHaveLength(0);
    await holder.tracker.stop();
    await other.tracker.stop();
  });

  it("reads an item again within the claim a killed announcer left, though the chat's webhooks have slowed its polling", async () => {
    const account = env.sim.createAccount({ balanceSun: 100_000_000 });
    env.sim.control.pauseLifecycles(true);
    // Trusted webhooks alone would put the next read a minute away.
    const holder = await startProcess("holder", account.apiKey, { schedule: { safetyNetMs: 60_000 } });
    const id = await placeOrder(account.apiKey);
    await holder.tracker.track({ chatId: CHAT, kind: "order", id, status: "pending" });
    await holder.tracker.hint({ chatId: CHAT, kind: "order", id, verified: true });
    // A process died in the middle of announcing "fulfilled": its claim stays until it runs out.
    const { store } = await env.open();
    expect(await createLeases({ store, owner: "killed" }).claim(`tracking-announce:${CHAT}_order_${id}_fulfilled`, LEASE_TTL_MS)).toBe(true);
    env.sim.control.setOrderStatus(id, "fulfilled");
    await holder.tracker.hint({ chatId: CHAT, kind: "order", id, verified: true });
    expect(holder.changes).toEqual([]);
    await waitUntil(() => holder.changes.some((c) => c.record.status === "fulfilled"), { what: "the holder to announce once the dead claim ran out" });
    expect(holder.changes.map((c) => c.record.status)).toEqual(["fulfilled"]);
    await holder.tracker.stop();
  });
});
