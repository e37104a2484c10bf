import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { makeChat, makeMessage, makeUser } from "../../../testkit/updates.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5601;
let h: OrderHarness;

// Slow polls, so a Refresh right after a status change is drawn before the tracker reads it.
useOrderHarness((started) => (h = started), { tracker: { minDelayMs: 300, maxDelayMs: 300 } });

describe("/track", () => {
  it("shows the live record of /track, answers 404 as not found for your account, and never edits to the same text", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/track 123");
    expect(user.lastText()).toContain("Send /track id");
    await user.send(`/track ${"a".repeat(24)}`);
    expect(user.lastText()).toBe(`${"a".repeat(24)} was not found for your account.`);
    const { orders } = await h.deps.service.createOrders(
      account.apiKey,
      [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
      "k-track",
    );
    const id = orders[0]!.orderId;
    await h.until(async () => (await h.deps.service.getOrder(account.apiKey, id)).status === "fulfilled");
    await user.send(`/track ${id}`);
    expect(user.lastText()).toContain(`Order ${id}\nStatus: fulfilled (energy delivered)\nReceiver: ${TEST_KEYS.carol.address}`);
    // A finished record's card: Track, Rent again and the explorer (the bot never saw this order
    // fulfilled, so it shows no end and offers no reminder).
    expect(user.lastButtons()).toEqual([["🔄 Track", "🔁 Rent again"], ["🔎 Explorer"]]);
    expect(user.lastText()).not.toContain("delegated until");

    h.sim.control.pauseLifecycles(true);
    const pending = (
      await h.deps.service.createOrders(
        account.apiKey,
        [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
        "k-track-2",
      )
    ).orders[0]!.orderId;
    await user.send(`/track ${pending}`);
    const edits = h.tg.callsOf("editMessageText").length;
    const tap = await user.press("🔄 Refresh");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Nothing has changed.");
    expect(h.tg.callsOf("editMessageText")).toHaveLength(edits);
  });

  it("tracks an unfinished record from /track on and edits its card in place", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    const { orders } = await h.deps.service.createOrders(
      account.apiKey,
      [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
      "k-live",
    );
    const id = orders[0]!.orderId;
    await user.send(`/track ${id}`);
    const card = user.last()!.messageId;
    expect(h.textOf(CHAT, card)).toContain("Status: pending");
    h.sim.control.pauseLifecycles(false);
    await h.until(() => h.textOf(CHAT, card).includes("Status: fulfilled"));
    await h.until(() => user.botTexts().some((t) => t.startsWith(`✅ Order ${id}`)));
  });

  it("never redraws a card to the status it already shows after a Refresh or a new /track card", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await user.send(`/order ${TEST_KEYS.bob.address} 100k 1h`);
    const confirm = await user.press("✅ Confirm");
    const cardA = h.pressedMessage(confirm)!;
    const id = /Order ([0-9a-f]{24})/.exec(h.textOf(CHAT, cardA))![1]!;
    const statusOf = async () => (await h.flows.history.get(CHAT, "order", id))?.status;
    const editsTo = (messageId: number, status: string) =>
      h.tg.callsOf("editMessageText").filter((c) => c.params["message_id"] === messageId && String(c.params["text"]).includes(`Status: <b>${status}`)).length;

    h.sim.control.setOrderStatus(id, "matching");
    await user.press("🔄 Refresh", { messageId: cardA });
    expect(h.textOf(CHAT, cardA)).toContain("Status: matching");
    await h.until(async () => (await statusOf()) === "matching");
    expect(editsTo(cardA, "matching")).toBe(1);

    h.sim.control.setOrderStatus(id, "executing");
    await user.send(`/track ${id}`);
    const cardB = user.last()!.messageId;
    expect(h.textOf(CHAT, cardB)).toContain("Status: executing");
    await h.until(async () => (await statusOf()) === "executing");
    expect(editsTo(cardB, "executing")).toBe(0);

    h.sim.control.pauseLifecycles(false);
    await h.until(() => h.textOf(CHAT, cardB).includes("Status: fulfilled"));
    await h.until(() => user.botTexts().some((t) => t.startsWith(`✅ Order ${id}`)));
    expect(user.botTexts().filter((t) => t.startsWith(`✅ Order ${id}`))).toHaveLength(1);
  });

  it("takes a 64-hex value after /track as a transaction id: kept in the chat and answered, never deleted as a private key", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const txId = "9f".repeat(32);
    const userTexts = () =>
      h.tg
        .view(CHAT)
        .filter((m) => m.from === "user")
        .map((m) => m.text);
    for (const text of [`/track ${txId}`, `/track 0x${txId.toUpperCase()}`, `/track@${h.tg.botInfo.username} ${txId}`]) {
      await user.send(text);
      expect(userTexts()).toContain(text);
      expect(user.lastText()).toBe(
        `${txId} is a transaction id, and no broadcast of this chat carries it. /track takes the 24-character id of an order or a broadcast; tap a row in /orders for its card.`,
      );
    }
    expect(user.botTexts().join("\n")).not.toMatch(/private key/);
    // Inside a flow too: the command leaves the flow and answers; the id stays.
    await user.send("/order");
    await user.send(`/track ${txId}`);
    expect(userTexts()).toContain(`/track ${txId}`);
    expect(user.lastText()).toContain("is a transaction id");
    // An edit that makes a message `/track <txId>` is left alone too.
    const mine = h.tg
      .view(CHAT)
      .filter((m) => m.from === "user")
      .at(-1)!;
    const from = makeUser({ id: CHAT });
    const edited = {
      ...makeMessage({ messageId: mine.messageId, chat: makeChat({ id: CHAT, type: "private" }, from), from, text: `/track ${txId}` }),
      edit_date: Math.floor(Date.now() / 1000),
    };
    await h.send({ update_id: 991_001, edited_message: edited } as Update);
    expect(h.tg.view(CHAT).some((m) => m.messageId === mine.messageId)).toBe(true);
    expect(user.botTexts().join("\n")).not.toMatch(/private key/);
  });

  it("still deletes a private key pasted anywhere else, also after another command or next to /track's words", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const key = TEST_KEYS.alice.privateKey;
    const userTexts = () =>
      h.tg
        .view(CHAT)
        .filter((m) => m.from === "user")
        .map((m) => m.text);
    for (const text of [key, `my key is ${key}`, `/order ${key}`, `/track ${key} please`, `/broadcast ${key}`]) {
      await user.send(text);
      expect(userTexts(), text).not.toContain(text);
      expect(user.lastText()).toContain("looked like a private key");
    }
  });
});
