import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness, type BotHarness } from "../../support/bot-harness.js";

describe("/webhook", () => {
  let h: BotHarness;
  let nextChat = 8000;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterEach(() => {
    expect(h.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });
  afterAll(async () => {
    await h.close();
  });
  const newUser = (languageCode = "en") => h.user(++nextChat, { languageCode });
  const userMessages = (chatId: number, text: string) => h.tg.history(chatId).filter((m) => m.from === "user" && m.text.includes(text));

  it("asks an unlinked chat to /link first", async () => {
    const u = newUser();
    await u.send("/webhook");
    expect(u.lastText()).toContain("/link");
  });

  it("shows the callback URL (copyable) and whether a secret is stored", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    await u.send("/webhook");
    const routeId = (await h.deps.chats.get(u.chatId))!.routeId!;
    expect(u.last()?.rawText).toContain(`<code>https://bot.example.test/hooks/${routeId}</code>`);
    expect(u.lastText()).toContain("Webhook secret stored");
    expect(u.lastButtons()).toEqual([["Change secret", "Remove secret"], ["New callback URL"]]);
  });

  it("sets a secret step by step and deletes the message that carried it", async () => {
    const u = newUser();
    await h.linkChat(u.chatId, {}, false);
    await u.send("/webhook");
    expect(u.lastText()).toContain("No webhook secret stored");
    await u.press("Set secret");
    expect(u.lastText()).toContain("webhook secret");
    expect(u.lastButtons()).toEqual([["Cancel"]]);
    const prompt = u.last()!.messageId;
    await u.send("whsec_new_secret_value");
    expect(userMessages(u.chatId, "whsec_new_secret_value").every((m) => m.deleted)).toBe(true);
    expect(u.lastText()).toContain("saved");
    expect(u.view().find((m) => m.messageId === prompt)!.buttons).toEqual([]);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe("whsec_new_secret_value");
    expect(h.rawStoreBytes().includes(Buffer.from("whsec_new_secret_value"))).toBe(false);
  });

  it("deletes every message of the flow, a malformed secret included, and keeps asking until one fits", async () => {
    const u = newUser();
    await h.linkChat(u.chatId, {}, false);
    await u.send("/webhook");
    await u.press("Set secret");
    await u.send("whsec_half of_it");
    expect(u.lastText()).toContain("does not look like a webhook secret");
    await u.send("whsec_second_try_1");
    expect(userMessages(u.chatId, "whsec_").every((m) => m.deleted)).toBe(true);
    expect(userMessages(u.chatId, "whsec_")).toHaveLength(2);
    expect(u.lastText()).toContain("saved");
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe("whsec_second_try_1");
  });

  it("sets a secret in one step: /webhook secret <SECRET>, message deleted at once", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    await u.send("/webhook secret whsec_one_shot_1");
    expect(userMessages(u.chatId, "whsec_one_shot_1").every((m) => m.deleted)).toBe(true);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe("whsec_one_shot_1");
    expect(u.lastText()).toContain("saved");
  });

  it("asks the user to delete the message when Telegram refuses to delete it", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    const update = h.tg.text(u.chatId, "/webhook secret whsec_undeletable_1");
    // A message id Telegram does not know: deleteMessage fails.
    update.message!.message_id = 987_654;
    await h.send(update);
    expect(h.takeFailedCalls().map((c) => c.method)).toEqual(["deleteMessage"]);
    const said = h.tg.botMessages(u.chatId).map((m) => m.text);
    expect(said.some((t) => t.includes("could not delete your message"))).toBe(true);
    expect(u.lastText()).toContain("saved");
  });

  it("leaves the secret flow on Cancel without storing anything", async () => {
    const u = newUser();
    const account = await h.linkChat(u.chatId);
    await u.send("/webhook");
    await u.press("Change secret");
    await u.press("Cancel");
    await u.send("not a secret now");
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe(account.webhookSecret);
    expect(userMessages(u.chatId, "not a secret now").every((m) => !m.deleted)).toBe(true);
  });

  it("removes the secret", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    await u.send("/webhook");
    await u.press("Remove secret");
    expect(u.lastText()).toContain("removed");
    expect(u.lastButtons()).toEqual([["Set secret"], ["New callback URL"]]);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBeUndefined();
  });

  it("rotates the route after a confirmation: the old route stops resolving", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    const oldRoute = (await h.deps.chats.get(u.chatId))!.routeId!;
    await u.send("/webhook");
    await u.press("New callback URL");
    expect(u.lastButtons()).toEqual([["Yes, new URL", "Keep the current one"]]);
    await u.press("Yes, new URL");
    const newRoute = (await h.deps.chats.get(u.chatId))!.routeId!;
    expect(newRoute).not.toBe(oldRoute);
    expect(u.lastText()).toContain("New callback URL created");
    expect(u.last()?.rawText).toContain(`/hooks/${newRoute}</code>`);
    expect(await h.deps.chats.findChatByRouteId(oldRoute)).toBeUndefined();
    expect(await h.deps.chats.findChatByRouteId(newRoute)).toBe(u.chatId);
  });

  it("keeps the route when the rotation is declined", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    const route = (await h.deps.chats.get(u.chatId))!.routeId!;
    await u.send("/webhook");
    await u.press("New callback URL");
    await u.press("Keep the current one");
    expect((await h.deps.chats.get(u.chatId))!.routeId).toBe(route);
    expect(u.last()?.rawText).toContain(`/hooks/${route}</code>`);
  });

  it("is private only: in a group nothing is stored and the message is deleted", async () => {
    const groupId = -++nextChat;
    h.tg.addChat(groupId, { type: "supergroup", botCanDelete: true });
    const g = h.user(groupId);
    await g.send("/webhook secret whsec_group_leak");
    expect(userMessages(groupId, "whsec_group_leak").every((m) => m.deleted)).toBe(true);
    expect(await h.deps.chats.get(groupId)).toBeUndefined();
  });

  it("speaks Russian", async () => {
    const u = newUser("ru");
    await h.linkChat(u.chatId);
    await u.send("/webhook");
    expect(u.lastText()).toContain("Ваш личный адрес для уведомлений (callback URL):");
    expect(u.lastText()).toContain("о ваших заказах и отправках");
  });
});

describe("/webhook without PUBLIC_URL", () => {
  it("explains that the service cannot reach the bot", async () => {
    const h = await startBotHarness({ publicUrl: null });
    try {
      const u = h.user(9001, { languageCode: "en" });
      await h.linkChat(u.chatId);
      await u.send("/webhook");
      expect(u.lastText()).toContain("PUBLIC_URL");
      expect(u.lastText()).not.toContain("/hooks/");
    } finally {
      await h.close();
    }
  });
});
