/**
 * The bot's own ids pasted back: the cards show transaction, order and
 * broadcast ids tap-to-copy, so users paste them. One this chat's history
 * knows is offered for tracking, never deleted as a private key; an unknown
 * 64-hex value is still removed, calmly.
 */
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { makeChat, makeMessage, makeUser } from "../../testkit/updates.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

const { alice, bob, carol } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

/** A broadcast and an order made through the bot, both finished; their ids as the cards show them. */
async function history(chatId: number) {
  await h.linkChat(chatId, { balanceSun: 100_000_000 });
  const user = h.user(chatId, { languageCode: "en" });
  const tx = signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
  await user.send(JSON.stringify(tx));
  await user.press("✅ Confirm");
  await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")));
  await user.send(`/order ${alice.address} 100k 1h`);
  await user.press("✅ Confirm");
  await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
  const broadcastId = /Broadcast ([0-9a-f]{24})/.exec(user.botTexts().find((t) => t.startsWith("✅ Broadcast"))!)![1]!;
  const orderId = /Order ([0-9a-f]{24})/.exec(user.botTexts().find((t) => t.startsWith("✅ Order"))!)![1]!;
  return { user, txId: tx.txID, broadcastId, orderId };
}

const userTexts = (h: OrderHarness, chatId: number) =>
  h.tg
    .view(chatId)
    .filter((m) => m.from === "user")
    .map((m) => m.text);

describe("pasted ids of this chat's history", () => {
  it("a known transaction id is offered for tracking, not deleted as a private key; the button shows the card", async () => {
    const { user, txId, broadcastId } = await history(6101);
    await user.send(txId);
    expect(userTexts(h, 6101)).toContain(txId);
    expect(user.lastText()).toContain(`${txId} is the transaction of your broadcast ${broadcastId}`);
    expect(user.botTexts().join("\n")).not.toMatch(/compromised|looked like a private key/);
    const press = await user.press(/^🔎 Track/);
    expect(h.textOf(6101, h.pressedMessage(press))).toMatch(new RegExp(`^Broadcast ${broadcastId}\\nStatus: confirmed`));
    // Also in capitals, with 0x, in a sentence, and after /track.
    for (const text of [txId.toUpperCase(), `0x${txId}`, `my tx is "${txId}".`, `/track ${txId}`]) {
      await user.send(text);
      expect(userTexts(h, 6101)).toContain(text);
      expect(user.lastText()).toContain(`is the transaction of your broadcast ${broadcastId}`);
    }
  });

  it("known order and broadcast ids are offered for tracking too, in Russian and Chinese as well", async () => {
    const { user, orderId, broadcastId } = await history(6102);
    await user.send(orderId);
    expect(user.lastText()).toContain(`${orderId} is one of your orders`);
    expect(user.lastButtons()).toEqual([[`🔎 Track …${orderId.slice(-6)}`]]);
    await user.send(broadcastId);
    expect(user.lastText()).toContain(`${broadcastId} is one of your broadcasts`);
    await user.send(`${orderId} ${broadcastId}`);
    expect(user.lastButtons()).toHaveLength(2);
    await h.deps.chats.setLocale(6102, "ru");
    await user.send(orderId);
    expect(user.lastText()).toContain("один из ваших заказов");
    await h.deps.chats.setLocale(6102, "zh");
    await user.send(orderId);
    expect(user.lastText()).toContain("是您的一个订单");
  });

  it("inside a flow a known transaction id gets the tracking offer and the step keeps waiting", async () => {
    const { user, txId } = await history(6103);
    await user.send("/order");
    await user.send(txId);
    expect(userTexts(h, 6103)).toContain(txId);
    expect(user.lastText()).toContain("is the transaction of your broadcast");
    expect(user.lastText()).toContain("The question above is still open");
    await user.send(bob.address);
    expect(user.lastText()).toContain("How much energy?");
    // An edit into a known id is no secret either.
    const last = h.tg
      .view(6103)
      .filter((m) => m.from === "user")
      .at(-1)!;
    const from = makeUser({ id: 6103 });
    const edited = {
      ...makeMessage({ messageId: last.messageId, chat: makeChat({ id: 6103, type: "private" }, from), from, text: txId }),
      edit_date: Math.floor(Date.now() / 1000),
    };
    await h.send({ update_id: 990_001, edited_message: edited } as Update);
    expect(h.tg.view(6103).some((m) => m.messageId === last.messageId)).toBe(true);
    expect(user.lastText()).toContain("is the transaction of your broadcast");
    await user.send("100000");
    expect(user.lastText()).toContain("For how long?");
  });

  it("an unknown 64-hex value is still removed, with calm wording", async () => {
    const { user, txId } = await history(6104);
    const unknown = alice.privateKey;
    for (const text of [unknown, `${txId} ${unknown}`]) {
      await user.send(text);
      expect(userTexts(h, 6104)).not.toContain(text);
      expect(user.lastText()).toContain("looked like a private key");
      expect(user.lastText()).toContain("If it was something else, nothing is lost");
      expect(user.lastText()).not.toMatch(/compromised|⚠️/);
    }
    // Another chat's transaction id is unknown here.
    await h.linkChat(6105);
    const other = h.user(6105, { languageCode: "en" });
    await other.send(txId);
    expect(userTexts(h, 6105)).not.toContain(txId);
    expect(other.lastText()).toContain("looked like a private key");
  });
});
