import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BALANCE_WATCH_DEFAULTS,
  checkOffsetsMs,
  createBalanceWatcher,
  type BalanceWatcherDeps,
  type CreditedEvent,
} from "../../../src/features/balance/top-up-watcher.js";
import { eventually } from "../../platform/store/helpers.js";
import { startSimEnv, type SimEnv } from "../../shared/orders/sim-env.js";
import { createJobsEngine } from "../../../src/platform/jobs/jobs-engine.js";

describe("the watch schedule", () => {
  it("reads within seconds, then backs off to at most 30 s between reads, and stops after 30 min", () => {
    const { firstDelayMs, maxDelayMs, maxWatchMs } = BALANCE_WATCH_DEFAULTS;
    const offsets = checkOffsetsMs(firstDelayMs, maxDelayMs, maxWatchMs);
    expect(offsets.slice(0, 5)).toEqual([3_000, 9_000, 21_000, 45_000, 75_000]);
    const gaps = offsets.slice(1).map((at, i) => at - offsets[i]!);
    expect(Math.max(...gaps)).toBe(30_000);
    expect(offsets.at(-1)!).toBeLessThan(maxWatchMs);
    // Bounded: about one read per 30 s over half an hour.
    expect(offsets.length).toBeLessThanOrEqual(62);
    // A quote's 10 minutes: a deposit is seen within 30 s of arriving at any point.
    expect(checkOffsetsMs(firstDelayMs, maxDelayMs, 10 * 60_000).length).toBeGreaterThan(18);
  });
});

describe("createBalanceWatcher", () => {
  let env: SimEnv;
  beforeEach(async () => {
    env = await startSimEnv();
  });
  afterEach(async () => {
    await env.stop();
  });

  async function watcherWith(overrides: Partial<BalanceWatcherDeps> & { apiKey: string; events: CreditedEvent[] }) {
    const { store } = await env.open();
    const { apiKey, events, ...rest } = overrides;
    return createBalanceWatcher({
      store,
      jobs: createJobsEngine({ store, queue: "local" }),
      service: env.service,
      getApiKey: () => Promise.resolve(apiKey),
      isWanted: () => Promise.resolve(true),
      onCredited: (event) => Promise.resolve(void events.push(event)),
      logger: env.logger,
      firstDelayMs: 10,
      maxDelayMs: 40,
      ...rest,
    });
  }

  it("announces once when the balance covers the amount, then forgets the watch", async () => {
    const account = env.sim.createAccount({ balanceSun: 1_000_000 });
    const events: CreditedEvent[] = [];
    const watcher = await watcherWith({ apiKey: account.apiKey, events });
    await watcher.start();
    await watcher.watch({ kind: "order", refId: "q1", chatId: 7, requiredSun: 15_000_000n, origin: "quote", untilMs: Date.now() + 60_000 });
    await eventually(() => env.sim.requests.filter((r) => r.path === "/v1/balance").length >= 2);
    expect(events).toEqual([]);
    env.sim.deposit(account.accountId, 14_000_000);
    await eventually(() => events.length > 0);
    await eventually(async () => (await watcher.watchesOf(7)).length === 0);
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({ availableSun: 15_000_000, watch: { kind: "order", refId: "q1", requiredSun: "15000000" } });
    await watcher.stop();
  });

  it("resumes a stored watch after a restart, under the same announcement id", async () => {
    const account = env.sim.createAccount({ balanceSun: 0 });
    const first: CreditedEvent[] = [];
    const before = await watcherWith({ apiKey: account.apiKey, events: first, firstDelayMs: 60_000 });
    await before.start();
    await before.watch({ kind: "broadcast", refId: "d1", chatId: 8, requiredSun: "5000000", origin: "refused", untilMs: Date.now() + 120_000 });
    await before.stop();
    env.sim.credit(account.accountId, 10_000_000);
    const second: CreditedEvent[] = [];
    // The stored watch keeps its own next read; this process only takes it up.
    const after = await watcherWith({ apiKey: account.apiKey, events: second, now: () => Date.now() + 60_000 });
    await after.start();
    await eventually(() => second.length > 0);
    expect(first).toEqual([]);
    expect(second[0]!.announcementId).toMatch(/^topup:broadcast:d1:\d+$/);
    await after.stop();
  });

  it("ends silently when the quote is no longer wanted, or its time is up", async () => {
    const account = env.sim.createAccount({ balanceSun: 0 });
    const events: CreditedEvent[] = [];
    let wanted = true;
    const watcher = await watcherWith({ apiKey: account.apiKey, events, isWanted: () => Promise.resolve(wanted) });
    await watcher.start();
    await watcher.watch({ kind: "order", refId: "gone", chatId: 9, requiredSun: 1n, origin: "quote", untilMs: Date.now() + 60_000 });
    await watcher.watch({ kind: "order", refId: "short", chatId: 9, requiredSun: 1n, origin: "quote", untilMs: Date.now() + 15 });
    wanted = false;
    await eventually(async () => (await watcher.watchesOf(9)).length === 0);
    wanted = true;
    env.sim.credit(account.accountId, 10_000_000);
    expect(events).toEqual([]);
    await watcher.stop();
  });
});
