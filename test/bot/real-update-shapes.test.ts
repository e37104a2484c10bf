import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { languageData } from "../../src/bot/callback-data/language.js";
import { useBotHarness } from "../support/bot-harness.js";
import { loadUpdate } from "../support/real-updates.js";

/**
 * Shapes Telegram really sends that a bot written against the common case
 * trips on (test/fixtures/telegram-updates, each with its source): a button
 * under a message the bot can no longer see, updates without `from`, and a
 * typing indicator Telegram refuses.
 */
describe("real update shapes", () => {
  const h = useBotHarness();
  let chat = 9400;
  let update = 990_000;

  it("a button under a message the bot can no longer see (date 0, a real callback) is answered with a new message, never an edit", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    // Enough messages that the old message's id (4) names one the chat still shows: it must stay as it is.
    for (let i = 0; i < 3; i++) await u.send("/help");
    const before = u.view().find((m) => m.messageId === 4);
    expect(before).toBeDefined();
    const press = h.tg.adopt(loadUpdate("inaccessible-callback", { chatId: u.chatId, data: languageData.pack({ locale: "ru" }), updateId: ++update }));
    const sentBefore = h.tg.botMessages(u.chatId).length;
    await h.send(press);
    expect(h.tg.callsOf("editMessageText").filter((c) => Number(c.params["chat_id"]) === u.chatId)).toEqual([]);
    expect(u.view().find((m) => m.messageId === 4)).toEqual(before);
    expect(
      h.tg
        .botMessages(u.chatId)
        .slice(sentBefore)
        .map((m) => m.text),
    ).toEqual(["Готово: теперь в этом чате я говорю по-русски."]);
    expect(h.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });

  it("updates without `from` (a real giveaway_created, a private /start Telegram sent without it) never crash a handler", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    await h.send(loadUpdate("giveaway-created", { chatId: u.chatId, updateId: ++update }));
    const start = loadUpdate("edited-message", { chatId: u.chatId, text: "/start", updateId: ++update });
    // The same message as a new one, without its sender (documented: optional, absent for messages sent on behalf of a chat).
    const { edit_date: _edited, from: _from, ...message } = start.edited_message!;
    await h.send({ update_id: start.update_id, message } as Update);
    expect(u.lastText()).toContain("Hello, Chris!");
    await h.send({ update_id: ++update, message: { ...message, message_id: message.message_id + 1, text: "/balance" } } as Update);
    expect(h.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });

  it("the typing indicator failing (refused, or a long 429) never holds back or aborts the reply", async () => {
    for (const fault of [
      { kind: "refuse", code: 400, description: "Bad Request: not enough rights to send text messages to the chat" },
      { kind: "refuse", code: 429, description: "Too Many Requests: retry after 30", retryAfter: 30 },
    ] as const) {
      const u = h.user(++chat, { languageCode: "en" });
      await h.linkChat(u.chatId, { balanceSun: 12_345_678 });
      h.tg.injectFault({ method: "sendChatAction", ...fault });
      await u.send("/balance");
      expect(h.tg.botMessages(u.chatId).some((m) => m.text.includes("12.345678 TRX"))).toBe(true);
      h.takeFailedCalls();
    }
    expect(h.leftovers().errorLogs).toEqual([]);
  });
});
