import { afterEach, describe, expect, it } from "vitest";
import { QUICK_SERVICE_TIMEOUTS, startBotHarness, useBotHarness } from "../../support/bot-harness.js";

/** What each answer of GET /v1/balance does to a link, and what a dead key does later. */
describe("/link outcomes", () => {
  const h = useBotHarness({ serviceTimeouts: QUICK_SERVICE_TIMEOUTS });
  let nextChat = 2500;
  afterEach(() => {
    h.sim.faults.clear();
  });
  const newUser = (languageCode = "en") => h.user(++nextChat, { languageCode });

  it("refuses an invalid key (401 api_key.invalid), stores nothing, and still deletes the message", async () => {
    const u = newUser();
    await u.send("/link sk_definitely_not_a_key whsec_not_a_secret_either");
    expect(u.lastText()).toContain("does not accept this API key (invalid key)");
    expect(u.lastText()).not.toContain("of this chat");
    expect(u.lastText()).toContain("Nothing was stored.");
    expect(h.tg.history(u.chatId).find((m) => m.text.includes("sk_definitely_not_a_key"))?.deleted).toBe(true);
    expect(await h.deps.chats.get(u.chatId)).toBeUndefined();
  });

  it("refuses a revoked key (401 api_key.revoked) and deletes its message", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    h.sim.revokeKey(apiKey);
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("This API key was revoked");
    expect(h.tg.history(u.chatId).find((m) => m.text.includes(apiKey))?.deleted).toBe(true);
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it("guided: a key the service refuses is deleted from the chat too", async () => {
    const u = newUser();
    await u.send("/link");
    await u.send("sk_guided_unknown_key");
    expect(u.lastText()).toContain("invalid key");
    expect(h.tg.history(u.chatId).find((m) => m.text === "sk_guided_unknown_key")?.deleted).toBe(true);
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it.each([
    ["en", "invalid key", "🔗 Connect", "Send me your API key"],
    ["ru", "недействителен", "🔗 Подключить", "Пришлите API-ключ"],
    ["zh", "无效", "🔗 绑定", "API 密钥"],
  ])("guided (%s): the refusal takes the question's place with Connect, which asks again on the same card", async (lang, refused, connect, asked) => {
    const u = newUser(lang);
    await u.send("/link");
    const card = u.last()!.messageId;
    await u.send("sk_guided_unknown_key");
    expect(h.tg.botMessages(u.chatId).map((m) => m.messageId)).toEqual([card]);
    expect(u.lastText()).toContain(refused);
    expect(u.lastButtons()[0]).toEqual([connect]);
    await u.press(connect);
    expect(h.tg.botMessages(u.chatId).map((m) => m.messageId)).toEqual([card]);
    expect(u.lastText()).toContain(asked);
    const { apiKey } = h.sim.createAccount();
    await u.send(apiKey);
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
    expect(u.last()!.messageId).toBe(card);
  });

  it("one step: the refusal carries Connect, the link what to do next", async () => {
    const u = newUser();
    await u.send("/link sk_definitely_not_a_key");
    expect(u.lastButtons()[0]).toEqual(["🔗 Connect"]);
    const { apiKey } = h.sim.createAccount();
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("connected");
    expect(u.lastButtons()).toEqual([["⚡ Order energy", "💳 Top up"], ["◀️ Home"]]);
  });

  it("a malformed one-shot /link is deleted and answered with the usage", async () => {
    const u = newUser();
    const before = h.sim.requests.length;
    await u.send("/link a b c");
    expect(u.lastText()).toContain("/link API_KEY WEBHOOK_SECRET");
    expect(h.tg.history(u.chatId).find((m) => m.from === "user")?.deleted).toBe(true);
    expect(h.sim.requests.length).toBe(before);
  });

  it("a failure inside the flow after Skip was answered does not answer it twice", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    await u.send("/link");
    await u.send(apiKey);
    const original = h.deps.chats.link;
    h.deps.chats.link = () => Promise.reject(new Error("store unavailable"));
    try {
      await u.press("Skip");
    } finally {
      h.deps.chats.link = original;
    }
    expect(u.lastText()).toContain("Something went wrong on my side");
    expect(h.takeFailedCalls()).toEqual([]); // a second answer would be refused: "query is too old"
    expect(h.takeErrorLogs().map((l) => l.msg)).toEqual(["update failed"]);
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it("a failure after the button was answered does not answer it twice", async () => {
    const u = newUser();
    await h.linkChat(u.chatId);
    await u.send("/unlink");
    const original = h.deps.chats.unlink;
    h.deps.chats.unlink = () => Promise.reject(new Error("store unavailable"));
    try {
      const press = await u.press("Yes, disconnect");
      expect(h.tg.answerOf(press)).toBeDefined();
    } finally {
      h.deps.chats.unlink = original;
    }
    expect(u.lastText()).toContain("Something went wrong on my side");
    expect(h.takeFailedCalls()).toEqual([]); // a second answer would be refused: "query is too old"
    expect(h.takeErrorLogs().map((l) => l.msg)).toEqual(["update failed"]);
  });

  it("403 ip_not_allowed: tells the user to allow seenIp, stores nothing", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    h.sim.setIpAllowlist(apiKey, ["203.0.113.7"]);
    await u.send("/link");
    await u.send(apiKey);
    expect(u.lastText()).toContain("127.0.0.1");
    expect(u.last()?.rawText).toContain("<code>127.0.0.1</code>");
    expect(u.lastText()).toContain("allowlist");
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it("404 not_found: links with a note that the account has no wallet yet", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount({ hasWallet: false });
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("no wallet yet");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    // Nothing to order or top up without a wallet: the home card, and the dashboard where the wallet is made.
    expect(u.lastButtons()[0]).toEqual(["◀️ Home"]);
  });

  it("503 or a timeout: service unavailable, nothing stored", async () => {
    const u = newUser();
    const { apiKey } = h.sim.createAccount();
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 503, code: "service_unavailable" });
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("cannot be reached");
    expect(u.lastText()).toContain("nothing");
    h.sim.faults.clear();
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "hang" });
    await u.send(`/link ${apiKey}`);
    expect(u.lastText()).toContain("cannot be reached");
    expect(await h.deps.chats.isLinked(u.chatId)).toBe(false);
  });

  it("without PUBLIC_URL no callback URL is shown", async () => {
    const h2 = await startBotHarness({ publicUrl: null });
    try {
      const u = h2.user(3001);
      const { apiKey } = h2.sim.createAccount();
      await u.send(`/link ${apiKey}`);
      expect(u.lastText()).toContain("connected");
      expect(u.lastText()).not.toContain("/hooks/");
      expect(u.lastText()).not.toContain("Callback URL");
    } finally {
      await h2.close();
    }
  });

  it("a key the service no longer knows (401 api_key.invalid later): later calls tell the user to re-link", async () => {
    const u = newUser("ru");
    await h.deps.chats.link(u.chatId, { apiKey: "sk_forgotten_by_the_service" });
    await u.send("/balance");
    expect(u.lastText()).toContain("/link");
    expect(u.lastText()).toContain("недействителен");
  });

  it("a key revoked after linking: later calls tell the user to re-link", async () => {
    const u = newUser();
    const { apiKey } = await h.linkChat(u.chatId);
    h.sim.revokeKey(apiKey);
    await u.send("/balance");
    expect(u.lastText()).toContain("revoked");
    expect(u.lastText()).toContain("/link");
  });
});
