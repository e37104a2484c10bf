/**
 * What a finished order sends, as src/app.ts wires it (docs/bot.md, "Cards and notices"): the card
 * edited once to its final state, and one short notice replying to it without the card's buttons,
 * sent first; with many orders finished at once, every chat's notice before any card is redrawn
 * (app-notices-many.ts).
 */
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../testkit/fake-telegram/fake-telegram.js";
import { finishedTogether } from "./app-notices-many.js";
import { useSqliteAppWorld, waitFor } from "./app-harness.js";

/** The notice's one row of its own while the chat has chosen no zone: the time-zone offer (docs/bot.md). */
const ZONE_OFFER = "🕒 Set my time zone";
const FINAL_CARD_BUTTONS = ["🔄 Track", "🔁 Rent again", "🔎 Explorer"];
/** The card at its end, as the user reads it or as sent (HTML). */
const FINAL = /Status: (?:<b>)?fulfilled/;

describe("a finished order's card and notice", () => {
  const world = useSqliteAppWorld();

  const chatOf = (c: RecordedCall) => Number(c.params["chat_id"]);
  const sendsAfter = (from: number, chatId?: number) =>
    world.w.tg.calls
      .slice(from)
      .filter((c) => c.ok && (c.method === "sendMessage" || c.method === "editMessageText") && (chatId === undefined || chatOf(c) === chatId));

  it("a one-shot order from quote to fulfilled: one card edit to the final state, and one new message replying to the card", async () => {
    const { w, target } = world;
    const chat = 7301;
    await w.startApp(target);
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    // Held at its first status until the chat's first push send is on hold too.
    w.sim.control.pauseLifecycles(true);
    const { orderId, cardId } = await w.placeOrder(chat);
    const from = w.tg.calls.length;
    const before = w.tg.botMessages(chat).length;
    // Telegram asks the bot to wait at its first card edit: whatever the chat has queued by then waits behind it.
    w.tg.injectFault({ method: "editMessageText", kind: "refuse", code: 429, description: "Too Many Requests: retry after 5", retryAfter: 5 });
    w.sim.control.pauseLifecycles(false);

    const notice = await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.startsWith("✅ Order")), "the fulfilled notice");
    await waitFor(() => FINAL.test(w.textOf(chat, cardId)), "the card's final state");

    const sent = sendsAfter(from, chat);
    // Exactly two sends: the notice first, then the card edited once, straight to its final state.
    const told = sent.map((c) => `${c.method} at ${c.at}: ${String(c.params["text"]).split("\n").slice(0, 2).join(" / ")}`);
    expect(
      sent.map((c) => c.method),
      told.join("\n"),
    ).toEqual(["sendMessage", "editMessageText"]);
    expect(String(sent[1]!.params["text"])).toMatch(FINAL);
    expect(w.tg.botMessages(chat)).toHaveLength(before + 1);
    expect(notice.text).toContain(orderId);
    expect(notice.replyTo).toBe(cardId);
    expect(notice.buttons.flat().map((b) => b.text)).toEqual([ZONE_OFFER]);
    const card = w.tg.view(chat).find((m) => m.messageId === cardId)!;
    expect(card.buttons.flat().map((b) => b.text)).toEqual(expect.arrayContaining(FINAL_CARD_BUTTONS));
    // The one refused call is the 429 the test asked for, on the card's first edit (an in-between state held back
    // for a chat window, or the final one when the notice went first).
    expect(w.tg.failedCalls().map((c) => [c.method, c.errorCode])).toEqual([["editMessageText", 429]]);
  });
});

// Ten at once here; fifty in the slow suite (app-notices.slow.test.ts).
finishedTogether(10, 5);
