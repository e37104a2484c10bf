import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrderHistory, delegationEndsAtMs, type OrderHistory } from "../../../src/core/orders/order-history.js";
import { openStore } from "../../../src/core/store/open-store.js";
import type { StoreBackend } from "../../../src/core/store/types.js";
import { captureLogger } from "../service/capture-logger.js";

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
