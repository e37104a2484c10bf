import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

describe("the command menu in /help, and keys that do not open", () => {
  const h = useBotHarness();

  it("/help lists the order and broadcast commands: every bot has the flows", async () => {
    const u = h.user(9301, { languageCode: "en" });
    await u.send("/help");
    expect(u.lastText()).toContain("/balance");
    for (const command of ["/order", "/batch", "/broadcast", "/orders", "/track"]) expect(u.lastText()).toContain(`${command} —`);
  });

  it("a chat whose stored key does not open is not greeted as connected (/start and /balance agree)", async () => {
    const owner = h.user(9302, { languageCode: "en" });
    const other = h.user(9303, { languageCode: "en" });
    await h.linkChat(owner.chatId);
    const kv = h.store.namespace("chats");
    const row = (await kv.get<{ v: number; data: Record<string, unknown> }>(String(owner.chatId)))!;
    await kv.set(String(other.chatId), { v: row.v, data: { ...row.data, chatId: other.chatId, routeId: undefined } });
    await other.send("/start");
    expect(other.lastText()).toContain("Hello, User9303");
    await other.send("/balance");
    expect(other.lastText()).toContain("not connected");
  });
});
