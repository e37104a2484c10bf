import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBatchStore, readBatchProgress, type BatchStore } from "../../../src/shared/orders/batch-progress.js";
import { createOrderHistory, type OrderHistory } from "../../../src/shared/orders/order-history.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

let store: StoreBackend;
let history: OrderHistory;
let batches: BatchStore;
const CHAT = 7;
const ids = ["a", "b", "c"].map((c) => c.repeat(24));
const entry = (id: string, status: string) => ({
  kind: "order" as const,
  id,
  createdAtMs: 1_000,
  status,
  address: `T${id.slice(0, 5)}`,
  amount: 65_000,
  durationSec: 300,
  totalCostSun: 5_000_001,
});

beforeEach(async () => {
  store = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  history = createOrderHistory({ store, logger: captureLogger().logger });
  batches = createBatchStore({ store, logger: captureLogger().logger });
  await history.add(
    CHAT,
    ids.map((id, i) => entry(id, i === 0 ? "fulfilled" : "pending")),
  );
  await batches.register({ batchId: "q1", chatId: CHAT, orderIds: ids, cardMessageId: 42 });
});
afterEach(async () => store.close());

describe("a batch's progress", () => {
  it("finds the batch of each of its orders, in that chat only, and nothing for other orders", async () => {
    expect((await batches.batchOf(CHAT, ids[1]!))?.batchId).toBe("q1");
    expect(await batches.batchOf(CHAT + 1, ids[1]!)).toBeUndefined();
    expect(await batches.batchOf(CHAT, "d".repeat(24))).toBeUndefined();
    expect((await batches.get("q1"))?.placedFulfilled).toBe(0);
  });

  it("counts from the history, the change being announced first, with totals in sun", async () => {
    const batch = (await batches.get("q1"))!;
    const before = await readBatchProgress(history, batch);
    expect({ fulfilled: before.fulfilled, inProgress: before.inProgress, done: before.done, energy: before.energy }).toEqual({
      fulfilled: 1,
      inProgress: 2,
      done: false,
      energy: 195_000,
    });
    expect(before.costSun).toBe(15_000_003n);
    await history.setStatus(CHAT, "order", ids[1]!, "fulfilled", 2_000);
    const last = await readBatchProgress(history, batch, new Map([[ids[2]!, "fulfilled"]]));
    expect(last.done).toBe(true);
    expect(last.lines.map((l) => [l.line, l.orderId, l.status])).toEqual(ids.map((id, i) => [i + 1, id, "fulfilled"]));
  });

  it("counts every status announced and not yet in the history: two orders ending at once make the batch done", async () => {
    const batch = (await batches.get("q1"))!;
    const announced = new Map([
      [ids[1]!, "fulfilled"],
      [ids[2]!, "fulfilled"],
    ]);
    expect((await readBatchProgress(history, batch, new Map([[ids[2]!, "fulfilled"]]))).done).toBe(false);
    const both = await readBatchProgress(history, batch, announced);
    expect(both.done).toBe(true);
    expect(both.fulfilled).toBe(3);
  });
});
