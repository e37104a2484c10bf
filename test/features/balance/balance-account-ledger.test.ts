import { describe, expect, it } from "vitest";
import { countOwnEffect, type AccountWatchState, type BroadcastFacts } from "../../../src/features/balance/balance-account-ledger.js";
import { lowBalanceThresholdSun, parseThreshold, DEFAULT_ALERT_SETTINGS } from "../../../src/shared/chats/alert-settings.js";
import type { HistoryEntry } from "../../../src/shared/orders/order-history.js";

const state = (over: Partial<AccountWatchState> = {}): AccountWatchState => ({
  linkTag: "t",
  lastSun: "100000000",
  readAtMs: 0,
  seq: 1,
  seen: [],
  refunded: [],
  low: false,
  ...over,
});
const order = (id: string, cost: number): HistoryEntry => ({ kind: "order", id, createdAtMs: 1, status: "pending", totalCostSun: cost });
const broadcast = (id: string, status: string): HistoryEntry => ({ kind: "broadcast", id, createdAtMs: 1, status });
const reader = (facts: Record<string, BroadcastFacts>) => (id: string) => Promise.resolve(facts[id]);

describe("countOwnEffect", () => {
  it("takes the bot's new orders and broadcast fees off a fall: nothing unexplained", async () => {
    const r = await countOwnEffect({
      state: state({ seen: ["order:old"] }),
      balanceSun: 100_000_000n - 15_000_000n - 3_000_001n,
      entries: [order("new", 15_000_000), broadcast("b1", "pending_energy"), order("old", 99)],
      broadcast: reader({ b1: { feeSun: 3_000_001n, status: "pending_energy" } }),
    });
    expect(r).toMatchObject({ chargedSun: 18_000_001n, refundSun: 0n, unexplainedSun: 0n });
    expect(r?.seen).toEqual(["order:new", "broadcast:b1", "order:old"]);
  });

  it("counts a refund once, also when the service refunded before the history saw the broadcast end", async () => {
    const facts = reader({ b1: { feeSun: 5_000_000n, status: "failed" } });
    const early = await countOwnEffect({
      state: state({ seen: ["broadcast:b1"] }),
      balanceSun: 105_000_000n,
      entries: [broadcast("b1", "confirming")],
      broadcast: facts,
    });
    expect(early).toMatchObject({ refundSun: 5_000_000n, unexplainedSun: 0n, refunded: ["b1"] });
    const later = await countOwnEffect({
      state: state({ lastSun: "105000000", seen: ["broadcast:b1"], refunded: ["b1"] }),
      balanceSun: 105_000_000n,
      entries: [broadcast("b1", "failed")],
      broadcast: facts,
    });
    expect(later).toMatchObject({ refundSun: 0n, unexplainedSun: 0n });
  });

  it("leaves a deposit or a foreign charge over, exactly", async () => {
    const deposit = await countOwnEffect({ state: state(), balanceSun: 110_000_001n - 15_000_000n, entries: [order("o", 15_000_000)], broadcast: reader({}) });
    expect(deposit?.unexplainedSun).toBe(10_000_001n);
    const foreign = await countOwnEffect({ state: state(), balanceSun: 90_000_000n, entries: [], broadcast: reader({}) });
    expect(foreign?.unexplainedSun).toBe(-10_000_000n);
  });

  it("never takes a charge made elsewhere for a deposit when the history learns of it after a read that already held it", async () => {
    // Read at t=1000 saw the fall of an order made in the dashboard at t=900 (told then as a foreign charge); its
    // record joins the history afterwards. A deposit of 12 TRX comes in before the next read.
    const dashboardOrder: HistoryEntry = { ...order("d", 6_500_000), createdAtMs: 900, madeElsewhere: true };
    const afterFall = state({ lastSun: "93500000", readAtMs: 1_000 });
    const r = await countOwnEffect({ state: afterFall, balanceSun: 105_500_000n, entries: [dashboardOrder], broadcast: reader({}) });
    expect(r).toMatchObject({ chargedSun: 0n, unexplainedSun: 12_000_000n });
    expect(r?.seen).toEqual(["order:d"]);
    // Made after the last read: its fall is in this reading, and the history explains it.
    const later: HistoryEntry = { ...dashboardOrder, createdAtMs: 1_100 };
    const r2 = await countOwnEffect({ state: state({ readAtMs: 1_000 }), balanceSun: 93_500_000n, entries: [later], broadcast: reader({}) });
    expect(r2).toMatchObject({ chargedSun: 6_500_000n, unexplainedSun: 0n });
  });

  it("waits when a broadcast's fee cannot be read", async () => {
    expect(await countOwnEffect({ state: state(), balanceSun: 1n, entries: [broadcast("b", "ready")], broadcast: reader({}) })).toBeUndefined();
  });
});

describe("the low-balance threshold", () => {
  it("is max(10 TRX, the next renewal) by default, else the user's own", () => {
    expect(lowBalanceThresholdSun(DEFAULT_ALERT_SETTINGS, undefined)).toBe(10_000_000n);
    expect(lowBalanceThresholdSun(DEFAULT_ALERT_SETTINGS, 4_000_000n)).toBe(10_000_000n);
    expect(lowBalanceThresholdSun(DEFAULT_ALERT_SETTINGS, 45_000_000n)).toBe(45_000_000n);
    expect(lowBalanceThresholdSun({ ...DEFAULT_ALERT_SETTINGS, thresholdSun: "1" }, 45_000_000n)).toBe(1n);
  });

  it("parses exact TRX and names what is wrong", () => {
    expect(parseThreshold("25.5")).toEqual({ ok: true, sun: 25_500_000n });
    expect(parseThreshold("0")).toEqual({ ok: true, sun: 0n });
    expect(parseThreshold("1,5")).toEqual({ ok: false, reason: "format" });
    expect(parseThreshold("-1")).toEqual({ ok: false, reason: "negative" });
    expect(parseThreshold("1000000000.000001")).toEqual({ ok: false, reason: "too_large" });
  });
});
