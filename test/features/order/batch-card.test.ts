import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { batchCardWalk, batchCsv, csvRows } from "./batch-card-steps.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5301;
const { alice: A } = TEST_KEYS;
let h: OrderHarness;
const { documentsOf, confirmBatch } = batchCardWalk(() => h, CHAT);

describe("one live card per batch", () => {
  useOrderHarness((started) => (h = started));

  it("sends the full quote of a long batch as a CSV beside a summary that keeps Confirm and Cancel", async () => {
    await h.linkChat(CHAT, { balanceSun: 10_000_000_000 });
    const user = h.user(CHAT);
    await user.send("/batch");
    await user.document({ bytes: batchCsv(100), fileName: "batch.csv", mimeType: "text/csv" });
    const [quoteDoc] = documentsOf();
    const rows = csvRows(quoteDoc?.document?.bytes);
    expect(rows[0]).toEqual(["line", "receiver", "energy", "duration", "cost sun"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 1)));
    expect(rows[100]).toEqual(["100", A.address, "50000", "300", "5000000"]);
    expect(user.lastText()).toContain("…and 85 more");
    expect(user.lastButtons().flat()).toEqual(expect.arrayContaining(["✅ Confirm", "Cancel"]));
  });

  // The same at the batch's 100 lines is the slow suite's (batch-card.slow.test.ts).
  it("shows a 20-line batch on one card edited to 20 / 20, then one final message with the result CSV", { timeout: 60_000 }, async () => {
    const { cardId, sentBefore } = await confirmBatch(20);
    const quoteDocuments = documentsOf().length;
    await h.until(() => h.textOf(CHAT, cardId).includes("20 / 20 fulfilled") && documentsOf().length === quoteDocuments + 1, 30_000);
    await h.until(async () => (await h.pushSize()) === 0);
    // After Confirm: the quote message became the card (edits only) and one message followed: the result CSV.
    const after = h.tg.botMessages(CHAT).slice(sentBefore);
    expect(after).toHaveLength(1);
    const final = after[0]!;
    expect(final.text).toContain("All 20 orders of the batch are fulfilled");
    expect(final.text).toContain("cost: 100 TRX");
    // As a single order's notice: it replies to the card, and is sent before the card's last edit.
    expect(final.replyTo).toBe(cardId);
    const sends = h.tg.calls.filter(
      (c) => c.ok && (c.method === "sendDocument" || (c.method === "editMessageText" && Number(c.params["message_id"]) === cardId)),
    );
    expect(sends.at(-1)?.method).toBe("editMessageText");
    // Before the card's final state, that is: a refresh of a state in between may still go out ahead of both.
    const documentAt = sends.findIndex((c) => c.method === "sendDocument");
    const finalEditAt = sends.findIndex((c) => c.method === "editMessageText" && String(c.params["text"]).includes("all fulfilled"));
    expect(documentAt).toBeGreaterThanOrEqual(0);
    expect(finalEditAt).toBeGreaterThan(documentAt);
    const rows = csvRows(final.document?.bytes);
    expect(rows[0]).toEqual(["line", "receiver", "energy", "duration", "order id", "status", "cost sun"]);
    const orderIds = rows.slice(1).map((r) => r[4]);
    expect(orderIds).toHaveLength(20);
    expect(new Set(orderIds).size).toBe(20);
    const placed = await h.flows.history.page(CHAT, 0, 200);
    expect(new Set(placed.entries.map((e) => e.id))).toEqual(new Set(orderIds));
    expect(rows.slice(1).every((r) => r[5] === "fulfilled" && r[6] === "5000000")).toBe(true);
    expect(h.textOf(CHAT, cardId)).toContain("Batch of 20 orders: all fulfilled");
  });

  // As long as its own wait for the card (30 s): a 20-order batch on a loaded machine outlasts the 20 s default.
  it("edits the card but sends no final message when order notifications are off", { timeout: 60_000 }, async () => {
    await h.linkChat(CHAT, { balanceSun: 10_000_000_000 });
    await h.deps.chats.setNotifications(CHAT, { orders: false });
    const user = h.user(CHAT);
    await user.send("/batch");
    await user.document({ bytes: batchCsv(20), fileName: "batch.csv", mimeType: "text/csv" });
    const sentBefore = h.tg.botMessages(CHAT).length;
    const cardId = h.pressedMessage(await user.press("✅ Confirm"))!;
    await h.until(() => h.textOf(CHAT, cardId).includes("20 / 20 fulfilled"), 30_000);
    await h.until(async () => h.tracker.size === 0 && (await h.pushSize()) === 0);
    expect(h.tg.botMessages(CHAT).slice(sentBefore)).toHaveLength(0);
  });
});

describe("a batch across a restart", () => {
  useOrderHarness((started) => (h = started), { simulator: { orderStepMs: 300 } });

  it("finishes the card after a restart mid-batch and says nothing twice", async () => {
    const { cardId, sentBefore } = await confirmBatch(12);
    expect(h.textOf(CHAT, cardId)).toContain("/ 12 fulfilled");
    expect(h.tracker.size).toBeGreaterThan(0);
    await h.restart();
    await h.until(() => documentsOf().length === 1 && h.textOf(CHAT, cardId).includes("12 / 12 fulfilled"), 30_000);
    await h.until(async () => h.tracker.size === 0 && (await h.pushSize()) === 0);
    const after = h.tg.botMessages(CHAT).slice(sentBefore);
    expect(after).toHaveLength(1);
    expect(csvRows(after[0]!.document?.bytes).slice(1)).toHaveLength(12);
  });
});

describe("a batch tracking gives up on", () => {
  useOrderHarness((started) => (h = started), { simulator: { orderStepMs: 60_000 }, tracker: { orderHorizonMs: 400 } });

  it("says so once for the batch, not once per order", async () => {
    const { sentBefore } = await confirmBatch(3);
    await h.until(async () => h.tracker.size === 0 && (await h.pushSize()) === 0 && h.tg.botMessages(CHAT).length > sentBefore);
    const after = h.tg
      .botMessages(CHAT)
      .slice(sentBefore)
      .map((m) => m.text);
    expect(after).toEqual([expect.stringContaining("I stopped following the batch of 3 orders") as string]);
  });
});
