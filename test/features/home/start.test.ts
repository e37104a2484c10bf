import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

describe("/start, /help, /cancel and the rest of a private chat", () => {
  const h = useBotHarness();

  it("greets a new user and points to /link", async () => {
    const u = h.user(1001, { languageCode: "en" });
    await u.send("/start");
    expect(u.lastText()).toContain("Hello, User1001");
    expect(u.lastText()).toContain("/link");
  });

  it("escapes a name with HTML characters instead of breaking the message", async () => {
    const u = h.user(1003, { languageCode: "en" });
    await u.send("/start", { from: { id: 1003, firstName: "<Bob> & <i>Co" } });
    expect(u.lastText()).toContain("Hello, <Bob> & <i>Co!");
  });

  it("greets a linked user differently", async () => {
    const u = h.user(1002, { languageCode: "en" });
    await h.linkChat(u.chatId);
    await u.send("/start");
    expect(u.lastText()).toContain("your account is connected");
  });

  it.each([
    ["ru", "Здравствуйте"],
    ["ru-RU", "Здравствуйте"],
    ["zh-hans", "您好"],
    ["de", "Hello"],
  ])("speaks the Telegram language %s", async (languageCode, greeting) => {
    const u = h.user(1010 + languageCode.length, { languageCode });
    await u.send("/start");
    expect(u.lastText()).toContain(greeting);
  });

  it("greets for an unknown deep-link payload", async () => {
    const u = h.user(1021, { languageCode: "en" });
    await u.send("/start from_a_friend");
    expect(u.lastText()).toContain("Hello, User1021");
  });

  it("leaves /start order_… payloads of a linked chat to the order feature (not greeted here)", async () => {
    const u = h.user(1020, { languageCode: "en" });
    await h.linkChat(u.chatId);
    await u.send("/start order_100000_3600");
    expect(u.botTexts().some((t) => t.includes("Hello"))).toBe(false);
  });

  it("/help lists the private commands and the inline hint with the bot's username", async () => {
    const u = h.user(1030, { languageCode: "en" });
    await u.send("/help");
    expect(u.lastText()).toContain("/balance");
    expect(u.lastText()).toContain("@energy_test_bot 100k 1h");
  });

  it("/cancel with nothing running says so", async () => {
    const u = h.user(1031, { languageCode: "en" });
    await u.send("/cancel");
    expect(u.lastText()).toBe("There is nothing to cancel right now.");
  });

  it("answers unknown commands, plain text and stale buttons", async () => {
    const u = h.user(1032, { languageCode: "en" });
    await u.send("/frobnicate");
    expect(u.lastText()).toContain("do not know that command");
    await u.send("hi");
    expect(u.lastText()).toContain("did not understand");
    await u.send("/start");
    const stale = h.tg.rawCallback(u.chatId, u.last()!.messageId, "ghost:1");
    await h.send(stale);
    expect(h.tg.answerOf(stale)?.["text"]).toBe("This button has expired. Please start again.");
  });

  it("marks a chat that blocked the bot inactive (no error), and active again on /start", async () => {
    const u = h.user(1040, { languageCode: "en" });
    await u.send("/start");
    h.tg.blockChat(u.chatId);
    await u.send("/prices");
    expect(h.takeFailedCalls().map((c) => [c.method, c.errorCode])).toEqual([["sendMessage", 403]]);
    expect((await h.deps.chats.get(u.chatId))?.active).toBe(false);
    h.tg.blockChat(u.chatId, false);
    await u.send("/start");
    expect((await h.deps.chats.get(u.chatId))?.active).toBe(true);
  });

  it("follows Telegram's block and unblock notices (my_chat_member) without sending anything", async () => {
    const u = h.user(1041, { languageCode: "en" });
    await h.linkChat(u.chatId);
    const sent = h.tg.calls.length;
    await h.send(h.tg.blockedByUser(u.chatId));
    expect((await h.deps.chats.get(u.chatId))?.active).toBe(false);
    await h.send(h.tg.blockedByUser(u.chatId, false));
    expect((await h.deps.chats.get(u.chatId))?.active).toBe(true);
    expect(h.tg.calls.length).toBe(sent);
    await h.send(h.tg.blockedByUser(1042));
    expect(await h.deps.chats.get(1042)).toBeUndefined();
  });

  it("counts updates by type", async () => {
    expect(await h.deps.metrics.get("bot_updates_total", { type: "message", outcome: "ok" })).toBeGreaterThan(5);
  });
});
