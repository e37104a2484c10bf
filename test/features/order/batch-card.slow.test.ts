import { describe, expect, it } from "vitest";
import { batchCardWalk, csvRows } from "./batch-card-steps.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

// The batch at its full 100 lines: `npm test` runs the same at 20 (batch-card.test.ts).
const CHAT = 5301;
let h: OrderHarness;
const { documentsOf, confirmBatch } = batchCardWalk(() => h, CHAT);

describe("one live card per batch, at 100 lines", () => {
  useOrderHarness((started) => (h = started));

  it("shows a 100-line batch on one card edited to 100 / 100, then one final message with the result CSV", { timeout: 120_000 }, async () => {
    const { cardId, sentBefore } = await confirmBatch(100);
    await h.until(() => h.textOf(CHAT, cardId).includes("100 / 100 fulfilled") && documentsOf().length === 2, 60_000);
    await h.until(async () => (await h.pushSize()) === 0);
    // After Confirm: the quote message became the card (edits only) and one message followed: the result CSV.
    const after = h.tg.botMessages(CHAT).slice(sentBefore);
    expect(after).toHaveLength(1);
    const final = after[0]!;
    expect(final.text).toContain("All 100 orders of the batch are fulfilled");
    expect(final.text).toContain("cost: 500 TRX");
    const rows = csvRows(final.document?.bytes);
    expect(rows[0]).toEqual(["line", "receiver", "energy", "duration", "order id", "status", "cost sun"]);
    const orderIds = rows.slice(1).map((r) => r[4]);
    expect(orderIds).toHaveLength(100);
    expect(new Set(orderIds).size).toBe(100);
    const placed = await h.flows.history.page(CHAT, 0, 200);
    expect(new Set(placed.entries.map((e) => e.id))).toEqual(new Set(orderIds));
    expect(rows.slice(1).every((r) => r[5] === "fulfilled" && r[6] === "5000000")).toBe(true);
    expect(h.textOf(CHAT, cardId)).toContain("Batch of 100 orders: all fulfilled");
  });
});
