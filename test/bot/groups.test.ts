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
    expect(refusal.text).toContain("I deleted your message: it carried an API key or secret");
    expect(refusal.text).toContain("/link works only in a private chat");
    expect(refusal.buttons[0]![0]!.url).toBe("https://t.me/energy_test_bot?start=link");
    expect(h.tg.history(-100_1).find((m) => m.from === "user" && m.text.includes(apiKey))?.deleted).toBe(true);
    for (const command of ["/balance", "/unlink", "/cancel"]) {
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
    expect(h.tg.answerOf(forged)?.["text"]).toBe("This only works in a private chat with the bot.");
    expect(h.sim.requests.length).toBe(before);
    expect(await h.deps.chats.get(-100_1)).toBeUndefined();
  });

  it("still refuses when the bot may not delete the message, without trying (its rights are asked once and cached)", async () => {
    const g = h.user(-100_2, { from: member });
    const rightsAsked = () => h.tg.callsOf("getChatMember").filter((c) => Number(c.params["chat_id"]) === -100_2).length;
    const { apiKey } = h.sim.createAccount();
    await g.send(`/link ${apiKey}`);
    expect(g.lastText()).toContain("shows an API key to everyone in the group");
    await g.send(`/balance ${apiKey}`);
    expect(
      h.tg
        .history(-100_2)
        .filter((m) => m.from === "user")
        .every((m) => !m.deleted),
    ).toBe(true);
    expect(h.tg.callsOf("deleteMessage").filter((c) => Number(c.params["chat_id"]) === -100_2)).toEqual([]);
    expect(rightsAsked()).toBe(1);
  });

  it("a refused delete (the right was taken away meanwhile) is expected: no error log, the rights are asked again", async () => {
    h.tg.addChat(-100_3, { type: "supergroup", botCanDelete: true });
    const g = h.user(-100_3, { from: member });
    const { apiKey } = h.sim.createAccount();
    await g.send(`/link ${apiKey}`);
    expect(h.tg.history(-100_3).find((m) => m.from === "user")?.deleted).toBe(true);
    h.tg.addChat(-100_3, { botCanDelete: false }); // cached: the bot still thinks it may
    await g.send(`/balance ${apiKey}`);
    expect(g.lastText()).toContain("Revoke that key");
    expect(h.takeFailedCalls().map((c) => [c.method, c.description])).toEqual([["deleteMessage", "Bad Request: message can't be deleted"]]);
    await g.send(`/link ${apiKey}`);
    expect(h.tg.callsOf("getChatMember").filter((c) => Number(c.params["chat_id"]) === -100_3)).toHaveLength(2);
  });

  it("/link KEY where the bot cannot delete: says the key is exposed and must be revoked and replaced", async () => {
    const g = h.user(-100_2, { from: member });
    const { apiKey, webhookSecret } = h.sim.createAccount();
    const before = h.sim.requests.length;
    await g.send(`/link ${apiKey} ${webhookSecret}`);
    expect(h.tg.history(-100_2).find((m) => m.text.includes(apiKey))?.deleted).toBe(false);
    expect(g.lastText()).toContain("shows an API key to everyone in the group");
    expect(g.lastText()).toContain("Revoke that key in the dashboard now and create a new one");
    expect(g.lastText()).toContain("/link");
    expect(g.last()!.buttons[0]![0]!.url).toBe("https://t.me/energy_test_bot?start=link");
    expect(h.sim.requests.length).toBe(before);
    expect(await h.deps.chats.get(-100_2)).toBeUndefined();
    // A key pasted into another refused command is caught too; a deleted one is only explained (why the message vanished).
    await g.send(`/balance ${apiKey}`);
    expect(g.lastText()).toContain("Revoke that key");
    const deletable = h.user(-100_1, { from: member });
    await deletable.send(`/link ${apiKey}`);
    expect(deletable.lastText()).toContain("I deleted your message");
    expect(deletable.lastText()).not.toContain("Revoke that key");
  });

  it("a refused command's link opens the private chat on that command, not on a greeting", async () => {
    const reader = { ...member, id: 8101 };
    const g = h.user(-100_3, { from: reader });
    await g.send("/balance");
    const url = new URL(g.last()!.buttons[0]![0]!.url!);
    expect(url.searchParams.get("start")).toBe("balance");
    // Followed: Telegram sends `/start balance` in the private chat, which answers as /balance does.
    await h.linkChat(reader.id, { balanceSun: 12_000_000 });
    const own = h.user(reader.id, { from: reader });
    await own.send("/start balance");
    expect(own.lastText()).not.toContain("Welcome back");
    expect(h.tg.botMessages(reader.id).some((m) => m.text.includes("Available balance: 12 TRX"))).toBe(true);
  });

  it("/start in a group greets briefly and points to the private chat and the public commands; nothing stored", async () => {
    const g = h.user(-100_2, { from: member });
    await g.send("/start");
    expect(g.lastText()).toContain("In this group I answer /prices, /system and /help");
    expect(g.last()!.buttons[0]![0]!.url).toBe("https://t.me/energy_test_bot");
    expect(await h.deps.chats.get(-100_2)).toBeUndefined();
    expect(await h.deps.chats.get(member.id)).toBeUndefined();
  });

  it("/language in a group explains that group replies follow each member's Telegram language", async () => {
    const g = h.user(-100_1, { from: member });
    await g.send("/language");
    expect(g.lastText()).toContain("In groups I answer everyone in their own Telegram language");
    expect(await h.deps.chats.get(-100_1)).toBeUndefined();
  });

  it("greets a group once when added (as member or admin); an admin's delete right needs no getChatMember", async () => {
    const asked = h.tg.callsOf("getChatMember").length;
    await h.send(h.tg.addedToGroup(-100_4, { from: member }));
    expect(h.tg.botMessages(-100_4).map((m) => m.text)).toEqual([expect.stringContaining("Hello! I rent TRON energy")]);
    await h.send(h.tg.addedToGroup(-100_5, { from: { id: 8003, languageCode: "ru" }, admin: true }));
    expect(h.tg.botMessages(-100_5).at(-1)?.text).toContain("Здравствуйте");
    const g = h.user(-100_5, { from: member });
    await g.send(`/link ${h.sim.createAccount().apiKey}`);
    expect(h.tg.history(-100_5).find((m) => m.from === "user")?.deleted).toBe(true);
    expect(h.tg.callsOf("getChatMember").length).toBe(asked);
    expect(await h.deps.chats.get(-100_4)).toBeUndefined();
    expect(await h.deps.chats.get(-100_5)).toBeUndefined();
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
