import { beforeAll, describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("groups", () => {
  const h = useBotHarness();
  beforeAll(() => {
    h.tg.addChat(-100_1, { type: "supergroup", botCanDelete: true });
    h.tg.addChat(-100_2, { type: "group", botCanDelete: false });
  });

  const member = { id: 8001, languageCode: "en" };

  it("/prices, /system and /help work in a group", async () => {
    const g = h.user(-100_1, { from: member });
    await g.send("/prices");
    expect(g.lastText()).toContain("Energy prices");
    await g.send("/system@energy_test_bot");
    expect(g.lastText()).toContain("Service status");
    await g.send("/help");
    expect(g.lastText()).toContain("Commands that work in groups");
    expect(g.lastText()).not.toContain("/balance");
  });

  it("a key-bearing command is refused, pointed to the private chat and deleted; nothing stored or sent", async () => {
    const g = h.user(-100_1, { from: member });
    const { apiKey } = h.sim.createAccount();
    const before = h.sim.requests.length;
    await g.send(`/link ${apiKey}`);
    const refusal = g.last()!;
    expect(refusal.text).toContain("/link only works in a private chat");
    expect(refusal.buttons[0]![0]!.url).toBe("https://t.me/energy_test_bot");
    expect(h.tg.history(-100_1).find((m) => m.from === "user" && m.text.includes(apiKey))?.deleted).toBe(true);
    for (const command of ["/balance", "/start", "/language", "/unlink", "/cancel"]) {
      await g.send(command);
      expect(g.lastText()).toContain(`${command} only works in a private chat`);
    }
    expect(h.sim.requests.length).toBe(before);
    expect(await h.deps.chats.get(-100_1)).toBeUndefined();
    expect(await h.deps.chats.get(member.id)).toBeUndefined();
    expect(await h.store.namespace("conversations").get(String(-100_1))).toBeUndefined();
  });

  it("a button pressed in a group is answered with the private-chat hint; nothing stored or sent", async () => {
    const g = h.user(-100_1, { from: member });
    await g.send("/prices");
    const before = h.sim.requests.length;
    const forged = h.tg.rawCallback(-100_1, g.last()!.messageId, "unlink:yes", { from: member });
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.text).toBe("This only works in a private chat with the bot.");
    expect(h.sim.requests.length).toBe(before);
    expect(await h.deps.chats.get(-100_1)).toBeUndefined();
  });

  it("still refuses when the bot may not delete the message", async () => {
    const g = h.user(-100_2, { from: member });
    await g.send("/balance");
    expect(g.lastText()).toContain("only works in a private chat");
    expect(h.tg.history(-100_2).find((m) => m.from === "user")?.deleted).toBe(false);
    expect(h.takeFailedCalls().map((c) => [c.method, c.description])).toEqual([["deleteMessage", "Bad Request: message can't be deleted"]]);
  });

  it("ignores commands for other bots and plain chatter", async () => {
    const g = h.user(-100_1, { from: member });
    const count = h.tg.botMessages(-100_1).length;
    await g.send("/balance@some_other_bot");
    await g.send("hello everyone");
    expect(h.tg.botMessages(-100_1).length).toBe(count);
  });

  it("group replies follow the sender's language", async () => {
    const g = h.user(-100_1, { from: { id: 8002, languageCode: "ru" } });
    await g.send("/prices");
    expect(g.lastText()).toContain("Цены на энергию");
  });
});
