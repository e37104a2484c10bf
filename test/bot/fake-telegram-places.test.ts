import { Api, GrammyError } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../../testkit/fake-telegram/fake-telegram.js";

/** Forums, channels, restricted bots and allowed_updates: the fake refuses and filters as Telegram does. */
describe("fake Telegram Bot API: where the bot may post, and which updates it gets", () => {
  let tg: FakeTelegram;
  let api: Api;
  const FORUM = -400_1;
  let topic: number;
  beforeAll(async () => {
    tg = await startFakeTelegram();
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    tg.addChat(FORUM, { type: "supergroup", forum: true });
    topic = tg.openTopic(FORUM, "Energy");
  });
  afterAll(async () => {
    await tg.close();
  });

  const refusal = async (call: Promise<unknown>): Promise<string> => {
    try {
      await call;
    } catch (e) {
      if (e instanceof GrammyError) return `${e.error_code} ${e.description}`;
      throw e;
    }
    throw new Error("expected a refusal");
  };

  it("in a forum: a topic's id places the message there; an unknown id or General's id 1 is 'message thread not found'", async () => {
    const sent = await api.sendMessage(FORUM, "in the topic", { message_thread_id: topic });
    expect(sent).toMatchObject({ message_thread_id: topic, is_topic_message: true, chat: { is_forum: true } });
    expect(tg.lastBotMessage(FORUM)?.threadId).toBe(topic);
    for (const wrong of [topic + 1000, 1]) {
      expect(await refusal(api.sendMessage(FORUM, "x", { message_thread_id: wrong }))).toBe("400 Bad Request: message thread not found");
    }
    expect(await refusal(api.sendPhoto(FORUM, "https://example.test/a.png", { message_thread_id: 999_999 }))).toBe("400 Bad Request: message thread not found");
  });

  it("in a forum: without a thread id the message goes to the replied-to message's topic, else to General", async () => {
    const inTopic = tg.text(FORUM, "question", { threadId: topic });
    await api.sendMessage(FORUM, "answer", { reply_parameters: { message_id: inTopic.message!.message_id } });
    expect(tg.lastBotMessage(FORUM)?.threadId).toBe(topic);
    const general = await api.sendMessage(FORUM, "to everyone");
    expect(general.message_thread_id).toBeUndefined();
  });

  it("a closed topic refuses with TOPIC_CLOSED; a closed General refuses a message without thread id (the missing-thread case)", async () => {
    const closed = tg.openTopic(FORUM, "Archive");
    tg.closeTopic(FORUM, closed);
    expect(await refusal(api.sendMessage(FORUM, "x", { message_thread_id: closed }))).toBe("400 Bad Request: TOPIC_CLOSED");
    tg.closeGeneral(FORUM);
    expect(await refusal(api.sendMessage(FORUM, "x"))).toBe("400 Bad Request: TOPIC_CLOSED");
    await api.sendMessage(FORUM, "still fine in an open topic", { message_thread_id: topic });
    tg.closeGeneral(FORUM, false);
  });

  it("outside a forum any message_thread_id is 'message thread not found' (a reply thread id is not a topic)", async () => {
    tg.addChat(-400_2, { type: "supergroup" });
    const reply = tg.text(-400_2, "hi");
    expect(await refusal(api.sendMessage(-400_2, "x", { message_thread_id: reply.message!.message_id }))).toBe("400 Bad Request: message thread not found");
  });

  it("channels: a member that is not an administrator may not post; a bot that is not in the chat is forbidden", async () => {
    tg.addChat(-400_3, { type: "channel" });
    const post = await api.sendMessage(-400_3, "news");
    expect(post).toMatchObject({ chat: { type: "channel" }, sender_chat: { id: -400_3 } });
    tg.addChat(-400_3, { botStanding: "member" });
    expect(await refusal(api.sendMessage(-400_3, "news"))).toBe("400 Bad Request: need administrator rights in the channel chat");
    tg.addChat(-400_3, { botStanding: "left" });
    expect(await refusal(api.sendMessage(-400_3, "news"))).toBe("403 Forbidden: bot is not a member of the channel chat");
  });

  it("a group where the bot is restricted refuses its texts, photos and documents; getChatMember says restricted", async () => {
    tg.addChat(-400_4, { type: "supergroup", botStanding: "restricted" });
    expect(await refusal(api.sendMessage(-400_4, "x"))).toBe("400 Bad Request: not enough rights to send text messages to the chat");
    expect(await refusal(api.sendPhoto(-400_4, "https://example.test/a.png"))).toBe("400 Bad Request: not enough rights to send photos to the chat");
    expect((await api.getChatMember(-400_4, tg.botInfo.id)).status).toBe("restricted");
  });

  it("allowed_updates: Telegram's default leaves out chat_member and reactions; a given list is remembered until replaced", async () => {
    const member = { update_id: 1, chat_member: {} };
    const reaction = { update_id: 2, message_reaction: {} };
    expect(tg.enqueue(member as never)).toBe(false);
    expect(tg.enqueue(reaction as never)).toBe(false);
    expect(tg.enqueue(tg.text(-400_5, "hello"))).toBe(true);
    await api.getUpdates({ allowed_updates: ["callback_query"], timeout: 0 });
    expect(tg.allowedUpdates()).toEqual(["callback_query"]);
    // Without the parameter the previous list stays.
    const queued = await api.getUpdates({ offset: 0, timeout: 0 });
    expect(queued.map((u) => Object.keys(u)[1])).toEqual(["message"]); // created before the list changed
    expect(tg.allowedUpdates()).toEqual(["callback_query"]);
    expect(tg.enqueue(tg.text(-400_5, "later"))).toBe(false);
    await api.setWebhook("https://bot.example.test/telegram", { allowed_updates: [] });
    expect(tg.allowedUpdates()).toEqual([]);
    expect(tg.enqueue(tg.text(-400_5, "default again"))).toBe(true);
    expect(tg.enqueue(member as never)).toBe(false);
    expect(await refusal(api.raw.setWebhook({ url: "https://bot.example.test/t", allowed_updates: "nonsense" as never }))).toBe(
      "400 Bad Request: can't parse allowed_updates JSON array",
    );
    await api.deleteWebhook();
  });
});
