import { describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("keys and secrets at rest", () => {
  const h = useBotHarness();

  it("the raw SQLite file holds no plaintext key or secret, during and after the link flow", async () => {
    const u = h.user(4001);
    const { apiKey, webhookSecret } = h.sim.createAccount();
    await u.send("/link");
    await u.send(apiKey);
    // Mid-conversation: the replay log (which holds the key message) is stored sealed.
    expect(u.lastText()).toContain("webhook secret");
    const stored = await h.store.namespace("conversations").get<string>(String(u.chatId));
    expect(typeof stored).toBe("string");
    expect(stored).not.toContain(apiKey);
    const midFlow = h.rawStoreBytes();
    expect(midFlow.includes(Buffer.from(apiKey))).toBe(false);
    await u.send(webhookSecret);
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    const one = h.user(4002);
    const second = h.sim.createAccount();
    await one.send(`/link ${second.apiKey} ${second.webhookSecret}`);
    expect(await h.deps.chats.getApiKey(one.chatId)).toBe(second.apiKey);
    const bytes = h.rawStoreBytes();
    expect(bytes.length).toBeGreaterThan(0);
    for (const secret of [apiKey, webhookSecret, second.apiKey, second.webhookSecret]) {
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
    // Nor do the logs.
    const logText = JSON.stringify(h.logs);
    for (const secret of [apiKey, webhookSecret, second.apiKey, second.webhookSecret]) expect(logText).not.toContain(secret);
  });

  it("keys the service refused or could not check never reach the logs either", async () => {
    const u = h.user(4003);
    const refused = "sk_refused_key_for_logs_1";
    const unchecked = h.sim.createAccount().apiKey;
    await u.send(`/link ${refused} whsec_refused_secret_1`);
    await u.send("/link");
    await u.send("sk_refused_key_for_logs_2");
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 503, code: "service_unavailable" });
    try {
      await u.send(`/link ${unchecked}`);
    } finally {
      h.sim.faults.clear();
    }
    expect(u.lastText()).toContain("nothing");
    const logText = JSON.stringify(h.logs);
    for (const secret of [refused, "whsec_refused_secret_1", "sk_refused_key_for_logs_2", unchecked]) expect(logText).not.toContain(secret);
    expect(h.rawStoreBytes().includes(Buffer.from(unchecked))).toBe(false);
  });

  it("a sealed key copied into another chat's record is refused", async () => {
    const owner = h.user(4010);
    const thief = h.user(4011);
    const { apiKey } = await h.linkChat(owner.chatId);
    const kv = h.store.namespace("chats");
    const stolen = (await kv.get<{ v: number; data: Record<string, unknown> }>(String(owner.chatId)))!;
    await kv.set(String(thief.chatId), { v: stolen.v, data: { ...stolen.data, chatId: thief.chatId } });
    expect(await h.deps.chats.getApiKey(thief.chatId)).toBeUndefined();
    await thief.send("/balance");
    expect(thief.lastText()).toContain("not connected");
    expect(await h.deps.chats.getApiKey(owner.chatId)).toBe(apiKey);
  });

  it("a sealed conversation state (which holds the key message) moved to another chat is refused", async () => {
    const owner = h.user(4030);
    const thief = h.user(4031);
    const { apiKey } = h.sim.createAccount();
    await owner.send("/link");
    await owner.send(apiKey);
    const conversations = h.store.namespace("conversations");
    const sealed = await conversations.get<string>(String(owner.chatId));
    expect(typeof sealed).toBe("string");
    await conversations.set(String(thief.chatId), sealed);
    const before = h.sim.requests.length;
    await thief.send("whsec_thief_guess_123");
    // The state did not open for this chat: dropped, and the text is just unknown text.
    expect(thief.lastText()).toContain("I did not understand");
    expect(await conversations.get(String(thief.chatId))).toBeUndefined();
    expect(await h.deps.chats.get(thief.chatId)).toBeUndefined();
    expect(h.sim.requests.length).toBe(before);
    expect(h.logs.some((l) => l.msg === "unreadable conversation state dropped")).toBe(true);
    // The owner's flow is untouched.
    await owner.press("Skip");
    expect(await h.deps.chats.getApiKey(owner.chatId)).toBe(apiKey);
  });

  it("a corrupt chat record is reported and read as absent, never crashes an update, and a re-link repairs it", async () => {
    const u = h.user(4040);
    const kv = h.store.namespace("chats");
    await kv.set(String(u.chatId), { v: 1, data: { chatId: "not a number", apiKeySealed: 42 } });
    await u.send("/balance");
    expect(u.lastText()).toContain("not connected");
    expect(h.logs.some((l) => l.msg === "unreadable record treated as absent" && l["id"] === String(u.chatId))).toBe(true);
    const { apiKey } = h.sim.createAccount();
    await u.send(`/link ${apiKey}`);
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
  });

  it("a link conversation survives a restart (new bot, new store objects, same file)", async () => {
    const u = h.user(4020);
    const { apiKey } = h.sim.createAccount();
    await u.send("/link");
    await u.send(apiKey);
    await h.restart();
    await u.press("Skip");
    expect(u.lastText()).toContain("connected");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
  });
});
