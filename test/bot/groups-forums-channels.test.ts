import { run, type RunnerHandle } from "@grammyjs/runner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALLOWED_UPDATES } from "../../src/app.js";
import { useBotHarness } from "../support/bot-harness.js";
import { loadUpdate } from "../support/real-updates.js";

describe("groups: forum topics, channels and chats where the bot may not post", () => {
  const h = useBotHarness();
  const member = { id: 9101, languageCode: "en" };
  let runner: RunnerHandle | undefined;
  afterEach(async () => {
    if (runner?.isRunning()) await runner.stop();
    runner = undefined;
  });

  it("a command in a forum topic (a real update) is answered in that same topic", async () => {
    const update = h.tg.adopt(loadUpdate("forum-topic-message", { text: "/prices" }));
    const { chat, message_thread_id: thread } = update.message!;
    await h.send(update);
    const answer = h.tg.lastBotMessage(chat.id);
    expect(answer?.text).toContain("Цены на энергию"); // the member writes in Russian
    expect(answer?.threadId).toBe(thread);
  });

  it("a refused command in a topic is left as it is (it carries no key) and the refusal goes to the same topic", async () => {
    const forum = -300_1;
    h.tg.addChat(forum, { type: "supergroup", forum: true, botCanDelete: true });
    const topic = h.tg.openTopic(forum, "Energy");
    await h.send(h.tg.text(forum, "/balance", { from: member, threadId: topic }));
    const refusal = h.tg.lastBotMessage(forum);
    expect(refusal?.text).toContain("/balance only works in a private chat");
    expect(refusal?.threadId).toBe(topic);
    expect(h.tg.history(forum).find((m) => m.from === "user")?.deleted).toBe(false);
    // A command in General is answered in General (no thread id: Telegram refuses General's id 1).
    await h.send(h.tg.text(forum, "/help", { from: member }));
    expect(h.tg.lastBotMessage(forum)?.threadId).toBeUndefined();
  });

  it("a reply in a supergroup without topics (a real update with message_thread_id) is answered without a thread id", async () => {
    const update = h.tg.adopt(loadUpdate("supergroup-reply-thread", { text: "/prices" }));
    await h.send(update);
    expect(h.tg.lastBotMessage(update.message!.chat.id)?.text).toContain("Energy prices");
  });

  it("a command in a closed topic: Telegram's TOPIC_CLOSED is an expected outcome, logged at info", async () => {
    const forum = -300_2;
    h.tg.addChat(forum, { type: "supergroup", forum: true });
    const topic = h.tg.openTopic(forum, "Archive");
    const update = h.tg.text(forum, "/prices", { from: member, threadId: topic });
    h.tg.closeTopic(forum, topic); // an admin's command, sent before or despite the closing
    await h.send(update);
    expect(h.takeFailedCalls().map((c) => c.description)).toEqual(["Bad Request: TOPIC_CLOSED"]);
    expect(h.logs.some((l) => l.level === 30 && l.msg === "Telegram does not let the bot answer here")).toBe(true);
  });

  it("a group where the bot is restricted: its refused replies are expected, nothing logged as an error", async () => {
    const group = -300_3;
    h.tg.addChat(group, { type: "supergroup", botStanding: "restricted" });
    await h.send(h.tg.text(group, "/prices", { from: member }));
    await h.send(h.tg.text(group, "/balance", { from: member }));
    expect(h.takeFailedCalls().map((c) => c.description)).toEqual([
      "Bad Request: not enough rights to send text messages to the chat",
      "Bad Request: not enough rights to send text messages to the chat",
    ]);
  });

  it("channel posts (a real update) are ignored: no answer, no error, nothing stored", async () => {
    const prices = h.tg.adopt(loadUpdate("channel-post", { text: "/prices" }));
    const channel = prices.channel_post!.chat.id;
    await h.send(prices);
    const { apiKey } = h.sim.createAccount();
    await h.send(h.tg.adopt(loadUpdate("channel-post", { text: `/link ${apiKey}`, updateId: 291365990 })));
    await h.send(h.tg.channelPost(channel, "/balance"));
    expect(h.tg.botMessages(channel)).toEqual([]);
    expect(h.tg.callsOf("deleteMessage").filter((c) => Number(c.params["chat_id"]) === channel)).toEqual([]);
    expect(await h.deps.chats.get(channel)).toBeUndefined();
  });

  it("polling with the app's allowed_updates: Telegram never creates channel posts, reactions or chat_member updates for the bot", async () => {
    runner = run(h.bot, { runner: { fetch: { timeout: 1, allowed_updates: [...ALLOWED_UPDATES] } } });
    await vi.waitFor(() => expect(h.tg.allowedUpdates()).toEqual([...ALLOWED_UPDATES]));
    expect(h.tg.enqueue(h.tg.channelPost(-300_4, "/prices"))).toBe(false);
    const reaction = {
      update_id: 99_001,
      message_reaction: { chat: { id: -300_5, type: "supergroup", title: "G" }, message_id: 1, date: 1, old_reaction: [], new_reaction: [] },
    };
    expect(h.tg.enqueue(reaction as never)).toBe(false);
    const answered = h.tg.waitForBotMessage(-300_5, 5000);
    expect(h.tg.enqueue(h.tg.text(-300_5, "/prices", { from: member }))).toBe(true);
    expect((await answered).text).toContain("Energy prices");
    expect(h.tg.droppedUpdates()).toHaveLength(2);
  });
});
