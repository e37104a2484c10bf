import { describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("pasted service keys outside the link flow", () => {
  const h = useBotHarness();

  it("an API key pasted in a chat with no key is the user linking: deleted, checked with GET /v1/balance and linked, never 'revoke it'", async () => {
    const u = h.user(9001, { languageCode: "en" });
    const { apiKey, webhookSecret } = h.sim.createAccount({ balanceSun: 3_000_000 });
    const checks = () => h.sim.requests.filter((r) => r.method === "GET" && r.path === "/v1/balance").length;
    const before = checks();
    await u.send(apiKey);
    expect(h.tg.history(u.chatId).find((m) => m.text === apiKey)?.deleted).toBe(true);
    expect(checks()).toBe(before + 1);
    expect(u.lastText()).toContain("That looked like your API key, so I removed the message");
    expect(u.lastText()).toContain("Your account is connected to this chat");
    expect(u.lastText()).toContain("Available balance: 3 TRX");
    expect(u.botTexts().join("\n")).not.toMatch(/revoke/i);
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    // Now linked: a pasted webhook secret is only warned about, and so is another key (it never replaces the linked one).
    await u.send(`my secret is ${webhookSecret}`);
    expect(h.tg.history(u.chatId).find((m) => m.text.includes(webhookSecret))?.deleted).toBe(true);
    expect(u.lastText()).toContain("looked like an API key or webhook secret");
    const other = h.sim.createAccount();
    await u.send(other.apiKey);
    expect(u.lastText()).toContain("revoke it in the dashboard");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    expect(u.botTexts().some((t) => t.includes("did not understand"))).toBe(false);
    const logs = JSON.stringify(h.logs) + h.rawLogs.join("\n");
    for (const secret of [apiKey, webhookSecret, other.apiKey]) expect(logs).not.toContain(secret);
    expect(JSON.stringify(h.tg.callsOf("sendMessage"))).not.toContain(apiKey);
  });

  it("a pasted key the service refuses is deleted and explained, nothing stored, in Russian and Chinese too", async () => {
    const revoked = h.sim.createAccount();
    h.sim.revokeKey(revoked.apiKey);
    const u = h.user(9004, { languageCode: "en" });
    await u.send(revoked.apiKey);
    expect(h.tg.history(u.chatId).find((m) => m.text === revoked.apiKey)?.deleted).toBe(true);
    expect(u.lastText()).toContain("tried to connect it to this chat");
    expect(u.lastText()).toContain("This API key was revoked");
    expect(u.lastText()).toContain("Nothing was stored");
    expect(await h.deps.chats.get(u.chatId)).toBeUndefined();
    const ru = h.user(9005, { languageCode: "ru" });
    await ru.send("sk_live_Xsujg_Lc2VOu4wM5ii4EhZxDajc");
    expect(ru.lastText()).toContain("попробовал подключить его");
    expect(ru.lastText()).not.toContain("отзовите");
    const zh = h.user(9006, { languageCode: "zh" });
    const ok = h.sim.createAccount();
    await zh.send(ok.apiKey);
    expect(zh.lastText()).toContain("并把它绑定到了此聊天");
    expect(await h.deps.chats.getApiKey(zh.chatId)).toBe(ok.apiKey);
    const logs = JSON.stringify(h.logs) + h.rawLogs.join("\n");
    for (const secret of [revoked.apiKey, ok.apiKey, "sk_live_Xsujg_Lc2VOu4wM5ii4EhZxDajc"]) expect(logs).not.toContain(secret);
  });

  it("in a group a pasted key links nothing", async () => {
    h.tg.addChat(-100_9007, { type: "supergroup", botCanDelete: true });
    const g = h.user(-100_9007, { from: { id: 9007 } });
    const { apiKey } = h.sim.createAccount();
    const before = h.sim.requests.length;
    await g.send(apiKey);
    expect(h.sim.requests.length).toBe(before);
    expect(await h.deps.chats.get(-100_9007)).toBeUndefined();
  });

  it("does so in a linked chat and in Russian too, and leaves addresses and words alone", async () => {
    const u = h.user(9002, { languageCode: "ru" });
    await h.linkChat(u.chatId);
    await u.send("sk_live_Xsujg_Lc2VOu4wM5ii4EhZxDajc");
    expect(u.lastText()).toContain("отзовите его");
    for (const text of ["TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH", "whsec_thief_guess_123", "sk_not_really_a_key"]) {
      await u.send(text);
      expect(h.tg.history(u.chatId).find((m) => m.text === text)?.deleted).toBe(false);
    }
  });

  it("leaves the key to the link flow when it asked for one", async () => {
    const u = h.user(9003, { languageCode: "en" });
    const { apiKey } = h.sim.createAccount({ balanceSun: 3_000_000 });
    await u.send("/link");
    await u.send(apiKey);
    expect(u.lastText()).toContain("webhook secret");
    await u.press("Skip");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
    expect(u.botTexts().some((t) => t.includes("revoke"))).toBe(false);
  });
});
