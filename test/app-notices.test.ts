/**
 * What a finished order sends, as src/app.ts wires it (docs/bot.md, "Cards and notices"): the card
 * edited once to its final state, and one short notice replying to it without the card's buttons,
 * sent first; with many orders finished at once, every chat's notice before any card is redrawn
 * (app-notices-many.ts, run by app-notices.slow.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../testkit/fake-telegram/fake-telegram.js";
import { RECEIVER, useSqliteAppWorld, waitFor } from "./app-harness.js";

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

describe("a guided order's messages", () => {
  const world = useSqliteAppWorld();

  it("from the home card: the first question in the card's place, at most one message per answer, one notice at the end", async () => {
    const { w, target } = world;
    const chat = 7302;
    await w.startApp(target);
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const home = await w.say(chat, "/start", (m) => m.text.includes("your account is connected"));
    const count = () => w.tg.botMessages(chat).length;
    const start = count();
    /** Presses a button on a message, and waits until that message or a newer one shows `shows`. */
    const press = async (label: string | RegExp, messageId: number, shows: RegExp) => {
      w.front.enqueue(w.tg.press(chat, label, { messageId }));
      return waitFor(() => w.tg.botMessages(chat).find((m) => m.messageId >= messageId && shows.test(m.text)), `${String(label)} answered`);
    };

    await press("⚡ Order energy", home.messageId, /Who receives the energy/);
    expect(count() - start).toBe(0);
    const amount = await w.say(chat, RECEIVER, (m) => m.text.includes("How much energy"));
    expect(count() - start).toBe(1);
    const duration = await press(/^65k/, amount.messageId, /For how long/);
    expect(count() - start).toBe(2);
    const quote = await press(/^1 ?h ·/, duration.messageId, /Your quote/);
    expect(count() - start).toBe(3);
    w.front.enqueue(w.tg.press(chat, "✅ Confirm", { messageId: quote.messageId }));
    await waitFor(() => FINAL.test(w.textOf(chat, quote.messageId)), "the card's final state");
    await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.startsWith("✅ Order")), "the fulfilled notice");
    // Three answers, three questions after the first; the quote became the card; one notice.
    expect(count() - start).toBe(4);
  });
});
