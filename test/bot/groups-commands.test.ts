import { beforeAll, describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";
import { loadUpdate } from "../support/real-updates.js";

const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident";
const HEX_64 = "4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d";

describe("groups: only the bot's own commands, in text or caption; keys removed wherever they are posted", () => {
  const h = useBotHarness();
  const ADMIN = -200_1; // the bot may delete
  const MEMBER = -200_2; // the bot may not delete
  beforeAll(() => {
    h.tg.addChat(ADMIN, { type: "supergroup", botCanDelete: true });
    h.tg.addChat(MEMBER, { type: "supergroup", botCanDelete: false });
  });
  const member = { id: 9001, languageCode: "en" };
  const userMessages = (chatId: number) => h.tg.history(chatId).filter((m) => m.from === "user");
  const deletesIn = (chatId: number) => h.tg.callsOf("deleteMessage").filter((c) => Number(c.params["chat_id"]) === chatId).length;

  it("ignores another bot's commands and commands it does not have: no answer, no refusal, no delete", async () => {
    const g = h.user(ADMIN, { from: member });
    const before = { sent: h.tg.botMessages(ADMIN).length, deletes: deletesIn(ADMIN) };
    // Even one carrying our key: another bot's command is that bot's business.
    const { apiKey } = h.sim.createAccount();
    for (const text of ["/start@otherbot", "/foo", "/foo@energy_test_bot", "/balance@some_other_bot", `/link@other_bot ${apiKey}`, "/help@OtherBot"])
      await g.send(text);
    expect(h.tg.botMessages(ADMIN)).toHaveLength(before.sent);
    expect(deletesIn(ADMIN)).toBe(before.deletes);
    expect(userMessages(ADMIN).every((m) => !m.deleted)).toBe(true);
  });

  it("answers its public commands in any case, bare or addressed to it in any case", async () => {
    const g = h.user(ADMIN, { from: member });
    await g.send("/PRICES@energy_test_bot");
    expect(g.lastText()).toContain("Energy prices");
    await g.send("/System@Energy_Test_Bot");
    expect(g.lastText()).toContain("Service status");
    await g.send("/HELP");
    expect(g.lastText()).toContain("Commands that work in groups");
  });

  it("refuses its private commands in any case, with the same refusal, and never deletes one that carries no key or secret", async () => {
    const g = h.user(ADMIN, { from: member });
    const deletes = deletesIn(ADMIN);
    for (const text of ["/BALANCE@ENERGY_TEST_BOT", "/orders", "/order 100k 1h", "/track 9c8d4b84e2c7b5b36c1ef4a1c14e0f4a5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a"]) {
      await g.send(text);
      expect(g.lastText(), text).toContain(`${text.slice(0, text.search(/[@ ]|$/)).toLowerCase()} only works in a private chat`);
      expect(userMessages(ADMIN).at(-1)?.deleted, text).toBe(false);
    }
    expect(deletesIn(ADMIN)).toBe(deletes);
    // One that carries a wallet secret is deleted, with the secret's own warning.
    await g.send(`/broadcast ${MNEMONIC}`);
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
    expect(g.lastText()).toContain("recovery phrase");
  });

  it("a command in a photo caption is treated as in a text: /balance refused and left as it is, /prices answered, others ignored", async () => {
    await h.send(h.tg.photo(ADMIN, "/balance", { from: member }));
    expect(h.tg.lastBotMessage(ADMIN)?.text).toContain("/balance only works in a private chat");
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(false);
    await h.send(h.tg.photo(ADMIN, "/prices@energy_test_bot look", { from: member }));
    expect(h.tg.lastBotMessage(ADMIN)?.text).toContain("Energy prices");
    const sent = h.tg.botMessages(ADMIN).length;
    await h.send(h.tg.photo(ADMIN, "/start@otherbot", { from: member }));
    await h.send(h.tg.photo(ADMIN, "holiday photo", { from: member }));
    expect(h.tg.botMessages(ADMIN)).toHaveLength(sent);
    expect(
      userMessages(ADMIN)
        .slice(-2)
        .every((m) => !m.deleted),
    ).toBe(true);
  });

  it("a document captioned with a key-bearing command is deleted like the text command", async () => {
    const { apiKey } = h.sim.createAccount();
    const g = h.user(ADMIN, { from: member });
    await g.document({ bytes: "a,b\n", fileName: "x.csv", caption: `/link ${apiKey}` });
    expect(g.lastText()).toContain("I deleted your message");
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
  });

  it("an API key posted as plain text is deleted when the bot may delete, and explained", async () => {
    const { apiKey, webhookSecret } = h.sim.createAccount();
    const g = h.user(ADMIN, { from: member });
    const requests = h.sim.requests.length;
    await g.send(`here is our key ${apiKey}`);
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
    expect(g.lastText()).toContain("it carried an API key or webhook secret");
    expect(g.last()!.buttons[0]![0]!.url).toBe("https://t.me/energy_test_bot");
    await h.send(h.tg.photo(ADMIN, webhookSecret, { from: member }));
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
    expect(h.sim.requests.length).toBe(requests);
    expect(await h.deps.chats.get(ADMIN)).toBeUndefined();
  });

  it("a plain key the bot may not delete is called exposed, to be revoked (the wording of a command carrying one)", async () => {
    const { apiKey } = h.sim.createAccount();
    const g = h.user(MEMBER, { from: member });
    await g.send(apiKey);
    expect(userMessages(MEMBER).at(-1)?.deleted).toBe(false);
    expect(g.lastText()).toContain("shows an API key to everyone in the group");
    expect(g.lastText()).toContain("Revoke that key in the dashboard now");
  });

  it("wallet secrets posted as plain text are deleted too: a recovery phrase with a warning, a 64-hex value calmly", async () => {
    const g = h.user(ADMIN, { from: member });
    await g.send(MNEMONIC);
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
    expect(g.lastText()).toContain("recovery phrase");
    await g.send(HEX_64);
    expect(userMessages(ADMIN).at(-1)?.deleted).toBe(true);
    expect(g.lastText()).toContain("If it was a transaction id, nothing is lost");
    const m = h.user(MEMBER, { from: member });
    await m.send(MNEMONIC);
    expect(m.lastText()).toContain("move the funds to a new wallet now");
  });

  it("an edit that puts a key into a group message deletes it; an edited command is not answered again", async () => {
    const { apiKey } = h.sim.createAccount();
    const command = h.tg.text(ADMIN, "/prices", { from: member });
    await h.send(command);
    const pricesAnswers = () => h.tg.botMessages(ADMIN).filter((m) => m.text.includes("Energy prices")).length;
    const answers = pricesAnswers();
    await h.send({
      update_id: command.update_id + 10_000,
      edited_message: { ...command.message!, text: "/prices@energy_test_bot", edit_date: command.message!.date + 5 },
    });
    expect(pricesAnswers()).toBe(answers);
    const original = h.tg.text(ADMIN, "hello", { from: member });
    await h.send(original);
    await h.send({ update_id: original.update_id + 10_000, edited_message: { ...original.message!, text: apiKey, edit_date: original.message!.date + 5 } });
    expect(h.tg.history(ADMIN).find((m) => m.messageId === original.message!.message_id)?.deleted).toBe(true);
    expect(h.tg.lastBotMessage(ADMIN)?.text).toContain("it carried an API key");
  });

  it("an anonymous admin (GroupAnonymousBot with sender_chat, a real update) is answered like a member", async () => {
    const prices = h.tg.adopt(loadUpdate("anonymous-admin", { text: "/prices" }));
    const chatId = prices.message!.chat.id;
    await h.send(prices);
    expect(h.tg.lastBotMessage(chatId)?.text).toContain("Energy prices");
    const chatter = h.tg.adopt(loadUpdate("anonymous-admin", { updateId: 767558060 }));
    await h.send(chatter);
    expect(h.tg.botMessages(chatId)).toHaveLength(1);
    // Their private command is refused and left in place, like anyone's: it carries no key.
    h.tg.addChat(chatId, { botCanDelete: true });
    const orders = h.tg.adopt(loadUpdate("anonymous-admin", { text: "/orders", updateId: 767558061 }));
    await h.send(orders);
    expect(h.tg.lastBotMessage(chatId)?.text).toContain("/orders only works in a private chat");
    expect(h.tg.history(chatId).find((m) => m.messageId === orders.message!.message_id)?.deleted).toBe(false);
  });
});
