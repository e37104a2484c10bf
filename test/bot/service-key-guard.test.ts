import { describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("pasted service keys outside the link flow", () => {
  const h = useBotHarness();

  it("deletes an API key pasted as plain text and says to revoke it if it was real", async () => {
    const u = h.user(9001, { languageCode: "en" });
    const { apiKey, webhookSecret } = h.sim.createAccount();
    await u.send(apiKey);
    expect(h.tg.history(u.chatId).find((m) => m.text === apiKey)?.deleted).toBe(true);
    expect(u.lastText()).toContain("looked like an API key or webhook secret");
    expect(u.lastText()).toContain("revoke it in the dashboard");
    await u.send(`my secret is ${webhookSecret}`);
    expect(h.tg.history(u.chatId).find((m) => m.text.includes(webhookSecret))?.deleted).toBe(true);
    expect(u.botTexts().some((t) => t.includes("did not understand"))).toBe(false);
    expect(await h.deps.chats.get(u.chatId)).toBeUndefined();
    expect(JSON.stringify(h.logs)).not.toContain(apiKey);
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
