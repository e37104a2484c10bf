import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLimitSettingsStore } from "../../../src/shared/limits/limit-settings.js";
import { createSpendLimits, type SpendLimits } from "../../../src/shared/limits/spend-guard.js";
import { spentIn } from "../../../src/shared/limits/spend-ledger.js";
import { spendWindows } from "../../../src/shared/limits/spend-window.js";
import { createOrderHistory, HISTORY_LIMIT, type HistoryEntry, type OrderHistory } from "../../../src/shared/orders/order-history.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

const CHAT = 11;
const TRX = 1_000_000;
const NOW = Date.UTC(2026, 4, 20, 12);
let store: StoreBackend;
let history: OrderHistory;
let limits: SpendLimits;
let clock = NOW;
const frozen: number[] = [];

beforeEach(async () => {
  store = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  history = createOrderHistory({ store, logger: captureLogger().logger });
  const logger = captureLogger().logger;
  clock = NOW;
  frozen.length = 0;
  limits = createSpendLimits({
    settings: createLimitSettingsStore({ store, logger }),
    history,
    logger,
    now: () => clock,
    onFreeze: (chatId) => {
      frozen.push(chatId);
      return Promise.resolve();
    },
  });
});
afterEach(async () => store.close());

const order = (n: number, createdAtMs: number, totalCostSun: number): HistoryEntry => ({
  kind: "order",
  id: n.toString(16).padStart(24, "0"),
  createdAtMs,
  status: "fulfilled",
  totalCostSun,
});
const broadcast = (id: string, createdAtMs: number, totalCostSun: number, status = "pending_energy"): HistoryEntry => ({
  kind: "broadcast",
  id,
  createdAtMs,
  status,
  totalCostSun,
  costEstimated: true,
});

describe("what a chat spent (the history as its ledger)", () => {
  // 503 adds past the history's limit: well under a second alone, 3-4 s beside the whole suite, more on a slower machine.
  it("counts every charge of the month, also those pushed out of the history by its limit", async () => {
    const monthStart = Date.UTC(2026, 4, 1);
    const count = HISTORY_LIMIT + 150;
    // One order a second from the 1st of the month, and one from April that must not count.
    await history.add(CHAT, [order(0, monthStart - 60_000, 99 * TRX)]);
    for (let i = 1; i <= count; i += 50) {
      await history.add(
        CHAT,
        Array.from({ length: 50 }, (_, k) => order(i + k, monthStart + (i + k) * 1_000, TRX)),
      );
    }
    const record = await history.spend(CHAT);
    expect(record?.entries.length).toBeLessThanOrEqual(HISTORY_LIMIT);
    const spent = spentIn(record, spendWindows(NOW));
    expect(spent.monthSun).toBe(BigInt(count * TRX));
    // Everything was on May 1: nothing today (May 20).
    expect(spent.daySun).toBe(0n);
    expect(spentIn(record, spendWindows(monthStart + 60_000)).daySun).toBe(BigInt(count * TRX));
  }, 60_000);

  it("counts a broadcast's estimated fee until its record is read, then the charge, and nothing once refunded", async () => {
    await history.add(CHAT, [broadcast("b".repeat(24), NOW - 1_000, 13 * TRX)]);
    expect((await limits.status(CHAT)).spent.daySun).toBe(BigInt(13 * TRX));
    await history.setStatus(CHAT, "broadcast", "b".repeat(24), "ready", NOW, 6_400_000);
    const entry = await history.get(CHAT, "broadcast", "b".repeat(24));
    expect(entry?.totalCostSun).toBe(6_400_000);
    expect(entry?.costEstimated).toBeUndefined();
    expect((await limits.status(CHAT)).spent.daySun).toBe(6_400_000n);
    await history.setStatus(CHAT, "broadcast", "b".repeat(24), "failed", NOW);
    expect((await limits.status(CHAT)).spent.daySun).toBe(0n);
  });
});

describe("the spend guard", () => {
  it("allows a charge that reaches a cap exactly and refuses one that would cross it", async () => {
    await history.add(CHAT, [order(1, NOW - 1_000, 15 * TRX)]);
    await limits.set(CHAT, "dailyCapSun", BigInt(20 * TRX));
    expect(await limits.authorize(CHAT, BigInt(5 * TRX), "order")).toEqual({ allowed: true, needsSecondTap: false });
    expect(await limits.authorize(CHAT, BigInt(5 * TRX) + 1n, "batch")).toEqual({
      allowed: false,
      reason: "daily_cap",
      capSun: "20000000",
      spentSun: "15000000",
    });
    // Tomorrow (UTC) the day starts again; the month does not.
    await limits.set(CHAT, "monthlyCapSun", BigInt(30 * TRX));
    clock = Date.UTC(2026, 4, 21, 0, 0);
    expect(await limits.authorize(CHAT, BigInt(16 * TRX), "renewal")).toEqual({
      allowed: false,
      reason: "monthly_cap",
      capSun: "30000000",
      spentSun: "15000000",
    });
    expect(await limits.authorize(CHAT, BigInt(15 * TRX), "renewal")).toEqual({ allowed: true, needsSecondTap: false });
    // In June the month starts again too.
    clock = Date.UTC(2026, 5, 1);
    expect(await limits.authorize(CHAT, BigInt(20 * TRX), "order")).toEqual({ allowed: true, needsSecondTap: false });
  });

  it("counts the day in the chat's zone", async () => {
    // 22:00 UTC on May 19 is already May 20 in Moscow.
    await history.add(CHAT, [order(1, Date.UTC(2026, 4, 19, 22), 10 * TRX)]);
    expect((await limits.status(CHAT)).spent.daySun).toBe(0n);
    await limits.setTimeZone(CHAT, "Europe/Moscow");
    expect((await limits.status(CHAT)).spent.daySun).toBe(BigInt(10 * TRX));
  });

  it("asks for a second tap above the threshold, but never of a renewal", async () => {
    await limits.set(CHAT, "confirmAboveSun", BigInt(10 * TRX));
    expect(await limits.authorize(CHAT, BigInt(10 * TRX), "order")).toEqual({ allowed: true, needsSecondTap: false });
    expect(await limits.authorize(CHAT, BigInt(10 * TRX) + 1n, "broadcast")).toEqual({ allowed: true, needsSecondTap: true });
    expect(await limits.authorize(CHAT, BigInt(99 * TRX), "renewal")).toEqual({ allowed: true, needsSecondTap: false });
  });

  it("refuses everything while frozen, calls onFreeze, and allows again once unfrozen", async () => {
    await limits.freeze(CHAT);
    expect(frozen).toEqual([CHAT]);
    expect(await limits.isFrozen(CHAT)).toBe(true);
    expect(await limits.authorize(CHAT, 1n, "renewal")).toEqual({ allowed: false, reason: "frozen" });
    await limits.unfreeze(CHAT);
    expect(await limits.authorize(CHAT, 1n, "order")).toEqual({ allowed: true, needsSecondTap: false });
  });
});
