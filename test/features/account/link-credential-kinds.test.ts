import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

/**
 * The webhook secret and the API key are told apart by their prefixes
 * (`whsec_…`, `sk_…`): a secret where the key belongs is refused without any
 * service call (never `Bearer whsec_…`), and a key where the secret belongs is
 * refused with what to send instead, in every language.
 */
describe("/link tells the webhook secret and the API key apart", () => {
  const h = useBotHarness();
  let nextChat = 7400;
  const newUser = (languageCode = "en") => h.user(++nextChat, { languageCode });
  const secretBearers = () => h.sim.requests.filter((r) => /^Bearer\s+whsec[_-]/i.test(r.authorization ?? ""));

  it("guided: a webhook secret sent at the key step is refused without a service call, and the flow still takes the key", async () => {
    const u = newUser();
    const { apiKey, webhookSecret } = h.sim.createAccount({ balanceSun: 5_000_000 });
    await u.send("/link");
    const requestsBefore = h.sim.requests.length;
    await u.send(webhookSecret);
    expect(h.sim.requests.length).toBe(requestsBefore);
    expect(h.tg.history(u.chatId).find((m) => m.from === "user" && m.text === webhookSecret)?.deleted).toBe(true);
    expect(u.lastText()).toContain("That is the webhook secret, not the API key");
    expect(u.lastText()).toContain("First send the API key");

    await u.send(apiKey);
    expect(u.lastText()).toContain("Now send the webhook secret");
    await u.send(webhookSecret);
    expect(u.lastText()).toContain("connected");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe(webhookSecret);
    expect(secretBearers()).toEqual([]);
  });

  it.each([
    ["ru", "Это секрет вебхуков, а не API-ключ"],
    ["zh", "这是 Webhook 密钥，不是 API 密钥"],
  ])("guided (%s): the refusal is in the chat's language", async (lang, expected) => {
    const u = newUser(lang);
    const { webhookSecret } = h.sim.createAccount();
    await u.send("/link");
    const requestsBefore = h.sim.requests.length;
    await u.send(webhookSecret);
    expect(h.sim.requests.length).toBe(requestsBefore);
    expect(u.lastText()).toContain(expected);
  });

  it("guided: an API key sent at the secret step is refused with Skip and Cancel; Skip links without a secret, below the refusal, and no step's button is left", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    await u.send("/link");
    await u.send(apiKey);
    await u.send(apiKey);
    expect(u.lastText()).toContain("That is an API key, not the webhook secret");
    expect(u.lastButtons()).toEqual([["Skip", "Cancel"]]);
    await u.press("Skip");
    expect(u.lastText()).toContain("connected");
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBeUndefined();
    const messages = h.tg.botMessages(u.chatId);
    expect(messages.at(-2)?.text).toContain("That is an API key, not the webhook secret");
    expect(messages.slice(0, -1).flatMap((m) => m.buttons.flat())).toEqual([]);
    expect(u.lastButtons()).toEqual([["⚡ Order energy", "💳 Top up"], ["◀️ Home"]]);
  });

  it("one step: /link with a webhook secret first is refused without a service call", async () => {
    const u = newUser();
    const { apiKey, webhookSecret } = h.sim.createAccount();
    const requestsBefore = h.sim.requests.length;
    for (const args of [webhookSecret, `${webhookSecret} ${apiKey}`, `${apiKey} ${apiKey}`]) {
      await u.send(`/link ${args}`);
      expect(u.lastText()).toContain("The values look swapped or doubled");
    }
    expect(h.sim.requests.length).toBe(requestsBefore);
    expect(await h.deps.chats.get(u.chatId)).toBeUndefined();
  });

  it("/webhook secret with an API key is refused and nothing is stored", async () => {
    const u = newUser();
    const { apiKey, webhookSecret } = h.sim.createAccount();
    await u.send(`/link ${apiKey}`);
    await u.send(`/webhook secret ${apiKey}`);
    expect(u.lastText()).toContain("That is an API key, not the webhook secret");
    await u.send("/webhook secret");
    await u.send(apiKey);
    expect(u.lastText()).toContain("That is an API key, not the webhook secret");
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBeUndefined();
    await u.send(webhookSecret);
    expect(await h.deps.chats.getWebhookSecret(u.chatId)).toBe(webhookSecret);
  });
});
