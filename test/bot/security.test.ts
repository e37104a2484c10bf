import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness, type BotHarness } from "../support/bot-harness.js";

describe("keys and secrets at rest", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(async () => {
    await h.close();
  });

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
