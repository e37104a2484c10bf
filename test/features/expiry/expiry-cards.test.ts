/**
 * The end of a delegation on the order's card and notification, and the
 * card's reminder switch (docs/expiry.md); the reminder itself and its
 * buttons are in test/app-expiry.test.ts.
 */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5601;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const answers = () => h.tg.callsOf("answerCallbackQuery").map((c) => (typeof c.params["text"] === "string" ? c.params["text"] : ""));

describe("a fulfilled order's card", () => {
  it("says until when energy is delegated and switches its own reminder on and off", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send(`/order ${TEST_KEYS.bob.address} 100k 1h`);
    expect(user.lastText()).not.toContain("delegated until");
    const confirm = await user.press("✅ Confirm");
    const cardId = h.pressedMessage(confirm)!;
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
    const orderId = /Order ([0-9a-f]{24})/.exec(user.lastText())![1]!;
    expect(user.lastText()).toMatch(/⏳ Energy delegated until ([A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2} UTC \(ends in (1 h|60 min|59 min)\)\.$/);
    // The notice replies to the card and repeats none of its buttons; no time zone picked: it offers to set one.
    expect(user.last()!.replyTo).toBe(cardId);
    expect(user.lastButtons()).toEqual([["🕒 Set my time zone"]]);
    await h.until(() => /Energy delegated until/.test(h.textOf(CHAT, cardId)));
    const card = () => h.tg.view(CHAT).find((m) => m.messageId === cardId)!;
    // Reminders are off for this chat: the card's switch offers one.
    expect(
      card()
        .buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "🔁 Rent again", "⏰ Remind me", "🔎 Explorer"]);
    await user.press("⏰ Remind me", { messageId: cardId });
    expect(answers().at(-1)).toMatch(/^I will remind you at (?:[A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2} UTC\.$/);
    expect(
      card()
        .buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "🔁 Rent again", "🔕 No reminder", "🔎 Explorer"]);
    expect(await h.deps.reminders!.isScheduled(CHAT, orderId)).toBe(true);

    // Dropped from the /track card, the first card's switch is stale: it only says so, and shows the switch as it is.
    await user.send(`/track ${orderId}`);
    const tracked = user.last()!.messageId;
    expect(user.lastButtons().flat()).toContain("🔕 No reminder");
    await user.press("🔕 No reminder", { messageId: tracked });
    expect(answers().at(-1)).toBe("No reminder for this order.");
    expect(await h.deps.reminders!.isScheduled(CHAT, orderId)).toBe(false);
    await user.press("🔕 No reminder", { messageId: cardId });
    expect(answers().at(-1)).toBe("No reminder for this order.");
    expect(
      card()
        .buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "🔁 Rent again", "⏰ Remind me", "🔎 Explorer"]);
    expect(await h.deps.reminders!.isScheduled(CHAT, orderId)).toBe(false);
  });

  it("lists the end of each fulfilled order in /orders", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send(`/order ${TEST_KEYS.bob.address} 100k 5m`);
    await user.press("✅ Confirm");
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
    await user.send("/orders");
    expect(user.lastText()).toMatch(/energy for 5 min → \S+\n💰 [\d.,]+ TRX · ⏳ energy until (?:[A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2}/);
    expect(user.lastText()).toContain("Times in UTC");
  });
});
