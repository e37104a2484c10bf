import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrderHistory, delegationEndsAtMs, hasRefund, type OrderHistory } from "../../../src/shared/orders/order-history.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

let store: StoreBackend;
let history: OrderHistory;
const CHAT = 7;

beforeEach(async () => {
  store = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  history = createOrderHistory({ store, logger: captureLogger().logger });
});
afterEach(async () => store.close());

const order = { kind: "order" as const, id: "a".repeat(24), createdAtMs: 1_000, status: "pending", amount: 65_000, durationSec: 60, totalCostSun: 1 };

describe("the delegation's end", () => {
  it("is the time the bot first saw the order fulfilled plus its duration, unknown before", async () => {
    await history.add(CHAT, [order]);
    await history.setStatus(CHAT, "order", order.id, "executing", 5_000);
    const executing = await history.get(CHAT, "order", order.id);
    expect(executing && delegationEndsAtMs(executing)).toBeUndefined();

    await history.setStatus(CHAT, "order", order.id, "fulfilled", 9_000);
    await history.setStatus(CHAT, "order", order.id, "fulfilled", 20_000);
    const fulfilled = await history.get(CHAT, "order", order.id);
    expect(fulfilled?.fulfilledAtMs).toBe(9_000);
    expect(fulfilled && delegationEndsAtMs(fulfilled)).toBe(69_000);
  });

  it("is never computed for a broadcast", async () => {
    const broadcast = { kind: "broadcast" as const, id: "b".repeat(24), createdAtMs: 1_000, status: "confirmed" };
    await history.add(CHAT, [broadcast]);
    await history.setStatus(CHAT, "broadcast", broadcast.id, "confirmed", 9_000);
    const read = await history.get(CHAT, "broadcast", broadcast.id);
    expect(read?.fulfilledAtMs).toBeUndefined();
    expect(read && delegationEndsAtMs(read)).toBeUndefined();
  });
});

describe("the refunds and receiver filters", () => {
  const A = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
  const B = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
  const hex = (n: number) => n.toString(16).padStart(24, "0");
  const entries = [
    { kind: "order" as const, id: hex(1), createdAtMs: 1_000, status: "fulfilled", address: A, totalCostSun: 2_000_000 },
    { kind: "broadcast" as const, id: hex(2), createdAtMs: 2_000, status: "failed", address: B, totalCostSun: 1_500_000 },
    { kind: "broadcast" as const, id: hex(3), createdAtMs: 3_000, status: "expired", address: A, totalCostSun: 700_000 },
    // Failed with no fee recorded: no money came back, so no refund (the statement draws no refund line either).
    { kind: "broadcast" as const, id: hex(4), createdAtMs: 4_000, status: "failed", address: A },
    { kind: "broadcast" as const, id: hex(5), createdAtMs: 5_000, status: "confirmed", address: B, totalCostSun: 300_000 },
    // An order that failed was never charged: the service refunds broadcasts, not orders.
    { kind: "order" as const, id: hex(6), createdAtMs: 6_000, status: "failed", address: B, totalCostSun: 0 },
  ];

  it("lists the entries whose money came back, the same ones the statement draws a refund line for", async () => {
    await history.add(CHAT, entries);
    const refunds = await history.page(CHAT, 0, 10, { refunded: true });
    expect(refunds.entries.map((e) => e.id)).toEqual([hex(3), hex(2)]);
    expect(refunds.total).toBe(2);
    // The same entries as `hasRefund`, the rule the statement's refund lines use.
    expect(entries.filter(hasRefund).map((e) => e.id)).toEqual([hex(2), hex(3)]);
  });

  it("lists one receiver's entries exactly, combined with a kind, a time span and refunds", async () => {
    await history.add(CHAT, entries);
    expect((await history.page(CHAT, 0, 10, { receiver: A })).entries.map((e) => e.id)).toEqual([hex(4), hex(3), hex(1)]);
    expect((await history.page(CHAT, 0, 10, { receiver: A, kind: "order" })).entries.map((e) => e.id)).toEqual([hex(1)]);
    expect((await history.page(CHAT, 0, 10, { receiver: B, refunded: true })).entries.map((e) => e.id)).toEqual([hex(2)]);
    expect((await history.page(CHAT, 0, 10, { receiver: B, fromMs: 4_000, toMs: 7_000 })).total).toBe(2);
    // Exact: another case or a prefix is another address.
    expect((await history.page(CHAT, 0, 10, { receiver: A.toLowerCase() })).total).toBe(0);
    expect((await history.page(CHAT, 0, 10, { receiver: A.slice(0, 10) })).total).toBe(0);
  });

  it("counts and pages over many chunks", async () => {
    const many = Array.from({ length: 250 }, (_, n) =>
      n % 5 === 0
        ? { kind: "broadcast" as const, id: hex(100 + n), createdAtMs: 10_000 + n, status: "failed", address: B, totalCostSun: 1_000 + n }
        : { kind: "order" as const, id: hex(100 + n), createdAtMs: 10_000 + n, status: "fulfilled", address: n % 2 === 0 ? A : B, totalCostSun: 1 },
    );
    await history.add(CHAT, many);
    const refunds = await history.page(CHAT, 4, 10, { refunded: true });
    expect(refunds.total).toBe(50);
    expect(refunds.pages).toBe(5);
    expect(refunds.entries.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => hex(100 + 45 - i * 5)));
    expect((await history.page(CHAT, 0, 10, { receiver: A })).total).toBe(many.filter((e) => e.address === A).length);
  });
});
