/**
 * A finished order's or broadcast's card carries its buttons: Track (the card
 * read again), Rent again (fulfilled orders), and the receiver or transaction
 * on the block explorer (Tronscan by default). The notice replies to the card
 * and repeats none of them.
 */
import { describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

const CHAT = 7401;
const { bob, carol } = TEST_KEYS;
let h: OrderHarness;
useOrderHarness((started) => (h = started));

const buttonsOf = (messageId: number | undefined) =>
  h.tg
    .view(CHAT)
    .find((m) => m.messageId === messageId)
    ?.buttons.flat() ?? [];

describe("a finished order's buttons", () => {
  it("Track, Rent again and Explorer on the card, none on the notice replying to it; each leads where it says", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT, { languageCode: "en" });
    await user.send(`/order ${bob.address} 100k 1h`);
    const confirm = await user.press("✅ Confirm");
    const cardId = h.pressedMessage(confirm)!;
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
    await h.until(() => h.textOf(CHAT, cardId).includes("Status: fulfilled"));
    const notification = user.last()!;
    const orderId = /Order ([0-9a-f]{24})/.exec(h.textOf(CHAT, cardId))![1]!;

    // The notice replies to the card; the first message with a clock time, it only offers to set the time zone (none picked yet).
    expect(notification.replyTo).toBe(cardId);
    expect(notification.buttons.flat().map((b) => b.text)).toEqual(["🕒 Set my time zone"]);
    const buttons = buttonsOf(cardId);
    expect(buttons.map((b) => b.text)).toEqual(["🔄 Track", "🔁 Rent again", "⏰ Remind me", "🔎 Explorer"]);
    expect(buttons.find((b) => b.text === "🔎 Explorer")?.url).toBe(`https://tronscan.org/#/address/${bob.address}`);
    expect(h.textOf(CHAT, cardId)).toContain(`Order ${orderId}\nStatus: fulfilled`);

    // On the card, which shows it already: nothing to redraw, only said.
    const edits = h.tg.callsOf("editMessageText").length;
    const tap = await user.press("🔄 Track", { messageId: cardId });
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Nothing has changed.");
    expect(h.tg.callsOf("editMessageText")).toHaveLength(edits);

    // Rent again from the card: a fresh quote for the same receiver, amount and duration.
    await user.press("🔁 Rent again", { messageId: cardId });
    expect(user.lastText()).toContain(`Receiver: ${bob.address}`);
    expect(user.lastText()).toMatch(/Energy: 100,000 for 1 h/);
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });
});

describe("a finished broadcast's buttons", () => {
  it("Track and the transaction on the explorer on the card; the notice replying to it has no buttons", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT, { languageCode: "en" });
    const tx = signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
    h.sim.control.setBroadcastOutcome(tx.txID, "confirmed");
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    const confirm = await user.press("✅ Confirm");
    const cardId = h.pressedMessage(confirm)!;
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")));
    await h.until(() => buttonsOf(cardId).some((b) => b.text === "🔎 Explorer"));
    const notification = h.tg.botMessages(CHAT).find((m) => m.text.startsWith("✅ Broadcast"))!;
    expect(notification.replyTo).toBe(cardId);
    expect(notification.buttons).toEqual([]);
    const buttons = buttonsOf(cardId);
    expect(buttons.map((b) => b.text)).toEqual(["🔄 Track", "🔎 Explorer"]);
    expect(buttons.find((b) => b.text === "🔎 Explorer")?.url).toBe(`https://tronscan.org/#/transaction/${tx.txID}`);
    await user.press("🔄 Track", { messageId: cardId });
    expect(h.textOf(CHAT, cardId)).toMatch(/^Broadcast [0-9a-f]{24}/);
  });
});
