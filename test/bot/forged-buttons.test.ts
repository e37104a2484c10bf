import { describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

// Fixed cases of the properties in test/fuzz/bot-buttons.slow.test.ts.
const CHAT = 7301;
let h: OrderHarness;
useOrderHarness((started) => (h = started));

const dataOf = (prefix: string) =>
  h.tg
    .lastBotMessage(CHAT)!
    .buttons.flat()
    .map((b) => b.callback_data ?? "")
    .find((d) => d.startsWith(`${prefix}:`))!;
const posts = (path: string) => h.sim.requests.filter((r) => r.method === "POST" && r.path.startsWith(path)).length;

describe("forged buttons on the chat's own quote, draft and history", () => {
  it("a quote or draft button with an action no button carries answers 'expired' instead of confirming", async () => {
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    const user = h.user(CHAT);
    await user.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
    const quoteId = dataOf("q").split(":")[1]!;
    const quoteMessage = h.tg.lastBotMessage(CHAT)!.messageId;
    // Was: any action but x and f placed the order.
    const forgedQuote = h.tg.rawCallback(CHAT, quoteMessage, `q:${quoteId}:zz`);
    await h.send(forgedQuote);
    expect(h.tg.answerOf(forgedQuote)?.["text"]).toBe("This button has expired. Please start again.");
    expect((await h.flows.quotes.get(quoteId))?.state).toBe("open");
    expect(posts("/v1/orders")).toBe(0);

    await user.send(
      JSON.stringify(
        signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 3_600_000 }),
      ),
    );
    const draftId = dataOf("bd").split(":")[1]!;
    const forgedDraft = h.tg.rawCallback(CHAT, h.tg.lastBotMessage(CHAT)!.messageId, `bd:${draftId}:submit`);
    await h.send(forgedDraft);
    expect(h.tg.answerOf(forgedDraft)?.["text"]).toBe("This button has expired. Please start again.");
    expect((await h.flows.drafts.get(draftId))?.state).toBe("open");
    expect(posts("/v1/broadcasts")).toBe(0);
  });

  it("a history page button with a page that is no number shows the first page, never 'NaN'", async () => {
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    const user = h.user(CHAT);
    await user.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
    await user.press("✅ Confirm");
    await user.send("/orders");
    // The order's own announcements may arrive meanwhile: pick the /orders reply itself.
    const first = [...user.botTexts()].reverse().find((t) => t.startsWith("Orders and broadcasts of this account")) ?? "";
    expect(first).toContain("page 1 of 1, 1 in all");
    for (const page of ["NaN", "abc", "", "1e999", "-5"]) {
      // Pressed on a fresh message each time, so the edit always changes something.
      await user.send("/settings");
      const pressed = h.tg.lastBotMessage(CHAT)!.messageId;
      const update = h.tg.rawCallback(CHAT, pressed, `hp:${page}`);
      await h.send(update);
      expect(h.tg.answerOf(update)).toBeDefined();
      // Was: "page NaN of 1" with no entries. (The order's status, and later messages, may have moved on meanwhile.)
      expect(h.textOf(CHAT, pressed)).toContain("page 1 of 1, 1 in all");
      expect(h.textOf(CHAT, pressed)).toContain(first.split("\n").find((l) => l.startsWith("1. Order"))!);
    }
  });
});
