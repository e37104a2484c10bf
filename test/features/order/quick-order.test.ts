/**
 * A TRON address pasted on its own gets a quick-order card (docs/bot.md): the usual amounts for each
 * duration with their totals, two taps to an order, all on the one message.
 */
import { describe, expect, it } from "vitest";
import { RECEIVER, useSqliteAppWorld, waitFor } from "../../app-harness.js";

const CHAT = 7701;

describe("a pasted address", () => {
  const world = useSqliteAppWorld();

  it("gets a quick-order card whose preset and Confirm place an order on that same message", async () => {
    const { w, target } = world;
    await w.startApp(target);
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const before = w.tg.botMessages(CHAT).length;
    const card = await w.say(CHAT, `  ${RECEIVER} `, (m) => m.text.startsWith("⚡ Energy for"));
    const presets = card.buttons.flat().map((b) => b.text);
    expect(presets.filter((t) => t.startsWith("65k · "))).not.toHaveLength(0);
    expect(presets.filter((t) => t.startsWith("131k · "))).not.toHaveLength(0);
    expect(presets).toEqual(expect.arrayContaining(["✏️ Other amount", "💾 Save address", "✉️ Send USDT"]));

    const hourPreset = presets.find((t) => /^65k · 1 ?h · /.test(t));
    expect(hourPreset, presets.join(" / ")).toBeDefined();
    w.front.enqueue(w.tg.press(CHAT, hourPreset!, { messageId: card.messageId }));
    await waitFor(() => w.textOf(CHAT, card.messageId).includes("Your quote"), "the card turned into the quote");
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: card.messageId }));
    await waitFor(() => /^Order [0-9a-f]{24}/.test(w.textOf(CHAT, card.messageId)), "the card turned into the order");
    expect(w.textOf(CHAT, card.messageId)).toContain("65,000");
    // The card and, at most, the order's notice: no other message.
    await waitFor(() => /fulfilled/.test(w.textOf(CHAT, card.messageId)), "the fulfilled card");
    expect(w.tg.botMessages(CHAT).length - before).toBeLessThanOrEqual(2);
  });

  it("saves the address under a label asked for, and the card's buttons go", async () => {
    const { w, target } = world;
    await w.startApp(target);
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const card = await w.say(CHAT, RECEIVER, (m) => m.text.startsWith("⚡ Energy for"));
    const asked = w.tg.waitForBotMessage(CHAT, 30_000, (m) => /label|name/i.test(m.text));
    w.front.enqueue(w.tg.press(CHAT, "💾 Save address", { messageId: card.messageId }));
    await asked;
    await w.say(CHAT, "shop", (m) => m.text.includes("shop"));
    const again = await w.say(CHAT, RECEIVER, (m) => m.text.startsWith("⚡ Energy for"));
    expect(again.text).toContain("shop");
    expect(again.buttons.flat().map((b) => b.text)).not.toContain("💾 Save address");
  });
});
