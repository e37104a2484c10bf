import { afterEach, describe, expect, it } from "vitest";
import { useBotHarness, type BotHarness } from "../../support/bot-harness.js";

describe("/link and /unlink", () => {
  const h = useBotHarness();
  let nextChat = 2000;
  afterEach(() => {
    h.sim.faults.clear();
  });
  const newUser = (languageCode = "en") => h.user(++nextChat, { languageCode });

  it("guided: asks the key, deletes it, asks the secret, deletes it, and shows the callback URL, all on one card", async () => {
    const u = newUser();
    const { apiKey, webhookSecret } = h.sim.createAccount({ balanceSun: 12_345_678 });
    await u.send("/link");
    expect(u.lastText()).toContain("API key");
    expect(u.lastButtons()).toEqual([["Cancel"]]);

    const card = u.last()!.messageId;
    await u.send(apiKey);
    const keyMessage = h.tg.history(u.chatId).find((m) => m.from === "user" && m.text === apiKey);
    expect(keyMessage?.deleted).toBe(true);
    expect(u.last()!.messageId).toBe(card);
    expect(u.lastText()).toContain("The service accepted the key.");
    expect(u.lastText()).toContain("webhook secret");
    expect(u.lastButtons()).toEqual([["Skip", "Cancel"]]);

    await u.send(webhookSecret);
    const secretMessage = h.tg.history(u.chatId).find((m) => m.from === "user" && m.text === webhookSecret);
    expect(secretMessage?.deleted).toBe(true);
    const text = u.lastText();
    expect(text).toContain("connected");
    expect(text).toContain("12.345678 TRX");
    const record = await h.deps.chats.get(u.chatId);
    expect(record?.routeId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(record!.routeId!, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(text).toContain(`https://bot.example.test/hooks/${record!.routeId}`);
    expect(u.last()?.rawText).toContain(`<code>https://bot.example.test/hooks/${record!.routeId}</code>`);
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe(webhookSecret);
    expect(await h.deps.chats.findChatByRouteId(record!.routeId!)).toBe(u.chatId);
    // One message of the bot from the question to the outcome, which offers what to do next.
    expect(h.tg.botMessages(u.chatId).map((m) => m.messageId)).toEqual([card]);
    expect(u.lastButtons()).toEqual([["⚡ Order energy", "💳 Top up"], ["◀️ Home"]]);
  });

  it("a Cancel button left from a finished flow is taken off, and a stale keyboard's tap is answered as expired", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    await u.send("/link");
    const prompt = u.last()!.messageId;
    const cancel = u
      .last()!
      .buttons.flat()
      .find((b) => b.text === "Cancel")!.callback_data!;
    await u.send("/cancel"); // leaves the flow and takes the prompt's Cancel off
    expect(h.tg.view(u.chatId).find((m) => m.messageId === prompt)?.buttons).toEqual([]);
    // A client still showing the old keyboard.
    const stale = h.tg.rawCallback(u.chatId, prompt, cancel);
    await h.send(stale);
    expect(h.tg.answerOf(stale)?.["text"]).toBe("This button has expired. Please start again.");
    await u.send(`/link ${apiKey}`);
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
  });

  it("guided: Skip links without a webhook secret", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    await u.send("/link");
    await u.send(apiKey);
    await u.press("Skip");
    expect(u.lastText()).toContain("No webhook secret stored");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBeUndefined();
  });

  it("guided: Cancel leaves the flow and stores nothing", async () => {
    const u = newUser();
    await u.send("/link");
    await u.press("Cancel");
    expect(u.lastText()).toBe("Cancelled. Nothing was changed.");
    await u.send("hello");
    expect(u.lastText()).toContain("/help");
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it("guided: /cancel while waiting for the key", async () => {
    const u = newUser();
    await u.send("/link");
    await u.send("/cancel");
    expect(u.lastText()).toBe("Cancelled. Nothing was changed.");
    expect(Object.keys(await readConversations(h))).not.toContain(String(u.chatId));
  });

  it("guided: another command leaves the flow and runs", async () => {
    const u = newUser();
    await u.send("/link");
    await u.send("/prices");
    expect(u.lastText()).toContain("Energy prices");
    await u.send("not a key but text");
    expect(u.lastText()).toContain("I did not understand");
  });

  it("guided: a malformed key is refused before any request", async () => {
    const u = newUser();
    const before = h.sim.requests.length;
    await u.send("/link");
    await u.send("two words");
    expect(u.lastText()).toContain("does not look like an API key");
    expect(h.sim.requests.length).toBe(before);
    await u.send("/cancel");
  });

  it("/start link deep link opens the guided flow", async () => {
    const u = newUser();
    await u.send("/start link");
    expect(u.lastText()).toContain("API key");
    await u.send("/cancel");
  });

  it("one-shot /link KEY SECRET deletes the message and links", async () => {
    const u = newUser();
    const { apiKey, webhookSecret } = h.sim.createAccount({ balanceSun: 1 });
    await u.send(`/link ${apiKey} ${webhookSecret}`);
    expect(h.tg.history(u.chatId).find((m) => m.from === "user")?.deleted).toBe(true);
    expect(u.lastText()).toContain("0.000001 TRX");
    expect(u.lastText()).toContain("webhook secret is stored");
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe(webhookSecret);
  });

  it("re-link replaces the key and keeps the callback route", async () => {
    const u = newUser();
    const first = h.sim.createAccount();
    const second = h.sim.createAccount();
    await u.send(`/link ${first.apiKey}`);
    const route = (await h.deps.chats.get(u.chatId))?.routeId;
    await u.send(`/link ${second.apiKey}`);
    expect(u.lastText()).toContain("previous key of this chat was replaced");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(second.apiKey);
    expect((await h.deps.chats.get(u.chatId))?.routeId).toBe(route);
  });

  it("guided: a button of another message still works while the flow waits, and the flow goes on", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    await u.send("/language");
    const languageMenu = u.last()!.messageId;
    await u.send("/link");
    await u.press("🇷🇺 Русский", { messageId: languageMenu });
    expect(await h.deps.chats.getLocale(u.chatId)).toBe("ru");
    await u.send(apiKey);
    expect(u.lastText()).toContain("секрет");
    await u.press("Пропустить");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
  });

  it("/unlink asks first; Keep it keeps, Yes removes key, secret and route", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    const route = (await h.deps.chats.get(u.chatId))!.routeId!;
    await u.send("/unlink");
    expect(u.lastButtons()).toEqual([["Yes, disconnect", "Keep it"]]);
    await u.press("Keep it");
    expect(u.lastText()).toContain("stays connected");
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(true);
    await u.send("/unlink");
    await u.press("Yes, disconnect");
    expect(u.lastText()).toContain("Disconnected");
    const record = await h.deps.chats.get(u.chatId);
    expect(record?.apiKeySealed).toBeUndefined();
    expect(record?.webhookSecretSealed).toBeUndefined();
    expect(record?.routeId).toBeUndefined();
    expect(await h.deps.chats.findChatByRouteId(route)).toBeUndefined();
    await u.send("/unlink");
    expect(u.lastText()).toContain("not connected");
  });

  it("speaks Russian through the whole one-shot link and unlink", async () => {
    const u = newUser("ru");
    const { apiKey } = h.sim.createAccount({ balanceSun: 1_234_500_000 });
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("Аккаунт подключён");
    expect(u.lastText()).toContain("1\u00a0234,5 TRX");
    expect(u.lastText()).toContain("Секрет вебхуков не сохранён");
    await u.send("/unlink");
    await u.press("Да, отключить");
    expect(u.lastText()).toContain("Отключено");
  });
});

async function readConversations(h: BotHarness): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for await (const [k, v] of h.store.namespace("conversations").entries()) out[k] = v;
  return out;
}
