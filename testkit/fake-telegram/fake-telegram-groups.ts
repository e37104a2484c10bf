/**
 * Groups, forums and channels in the fake Bot API: the bot added to a group,
 * forum topics opened and closed, photos with captions and channel posts,
 * shaped as Telegram sends them (see test/fixtures/telegram-updates for real ones).
 */
import type { Message, Update, User } from "grammy/types";
import type { ChatOptions, SendOptions } from "./fake-telegram.js";
import { BOT_ADMIN_RIGHTS, type FakeCore } from "./fake-telegram-methods.js";
import type { FakeChatState } from "./fake-telegram-state.js";
import { commandEntities, makeChat, myChatMemberUpdate, type UserSpec } from "../updates.js";

export interface GroupToolsDeps {
  core: FakeCore;
  addChat(id: number, opts?: ChatOptions): FakeChatState;
  senderOf(chatId: number, opts: SendOptions): User;
  userMessage(chatId: number, opts: SendOptions, fields: { text?: string; photo?: Message["photo"]; caption?: string }): Update;
  nextUpdateId(): number;
  nextSeq(): number;
}

export function createGroupTools(deps: GroupToolsDeps) {
  const { core } = deps;
  const botUser = (): User => ({ id: core.botInfo.id, is_bot: true, first_name: core.botInfo.first_name, username: core.botInfo.username });

  function forumOf(chatId: number) {
    const forum = core.chats.get(chatId)?.forum;
    if (!forum) throw new Error(`chat ${chatId} is not a forum (addChat(id, { forum: true }))`);
    return forum;
  }

  return {
    /**
     * A member adds the bot to a group (my_chat_member left -> member, or
     * administrator with the delete right when `admin`); `botCanDelete` follows.
     */
    addedToGroup: (chatId: number, opts: { from?: UserSpec; admin?: boolean; type?: "group" | "supergroup"; title?: string } = {}): Update => {
      const chat = deps.addChat(chatId, { type: opts.type ?? "supergroup", botCanDelete: opts.admin === true, ...(opts.title ? { title: opts.title } : {}) });
      const from = deps.senderOf(chatId, opts.from ? { from: opts.from } : {});
      return myChatMemberUpdate(deps.nextUpdateId(), {
        chat: makeChat(chat, from),
        from,
        bot: botUser(),
        oldStatus: "left",
        newStatus: opts.admin ? "administrator" : "member",
        ...(opts.admin ? { rights: { ...BOT_ADMIN_RIGHTS } } : {}),
      });
    },
    /** Opens a topic in a forum supergroup; its thread id is the id of its (service) first message. */
    openTopic: (chatId: number, name: string): number => {
      const chat = deps.addChat(chatId);
      const forum = forumOf(chatId);
      const threadId = chat.nextMessageId++;
      forum.topics.set(threadId, { name, closed: false });
      return threadId;
    },
    /**
     * Takes a real update (a fixture) into the fake: its chat (type, forum),
     * its topic and its message exist from now on, so the bot may reply to,
     * delete or answer it as Telegram would let it; a callback query's id may
     * be answered. Returns the update.
     */
    adopt: (update: Update): Update => {
      // A real callback query: its id is one the bot may answer (once), as for a button pressed here.
      const query = update.callback_query;
      if (query) {
        core.queries.set(query.id, { kind: "callback", answered: false });
        deps.addChat(query.message?.chat.id ?? query.from.id);
        return update;
      }
      const msg = update.message ?? update.edited_message ?? update.channel_post;
      if (!msg) return update;
      const chat = deps.addChat(msg.chat.id, {
        type: msg.chat.type,
        ...("title" in msg.chat && msg.chat.title ? { title: msg.chat.title } : {}),
        ...(msg.chat.type === "supergroup" && msg.chat.is_forum ? { forum: true } : {}),
      });
      const threadId = msg.is_topic_message ? msg.message_thread_id : undefined;
      if (threadId !== undefined && chat.forum && !chat.forum.topics.has(threadId))
        chat.forum.topics.set(threadId, { name: `Topic ${threadId}`, closed: false });
      const text = msg.text ?? msg.caption ?? "";
      chat.messages.set(msg.message_id, {
        messageId: msg.message_id,
        chatId: chat.id,
        from: "user",
        text,
        rawText: msg.text ?? "",
        parseMode: undefined,
        buttons: [],
        markup: undefined,
        deleted: false,
        edits: 0,
        seq: deps.nextSeq(),
        date: msg.date,
        ...(threadId === undefined ? {} : { threadId }),
      });
      chat.nextMessageId = Math.max(chat.nextMessageId, msg.message_id + 1);
      return update;
    },
    /** Closes (or reopens) a topic: members without the right, the bot included, may not post there. */
    closeTopic: (chatId: number, threadId: number, closed = true): void => {
      const topic = forumOf(chatId).topics.get(threadId);
      if (!topic) throw new Error(`chat ${chatId} has no topic ${threadId}`);
      topic.closed = closed;
    },
    /** Closes (or reopens) the General topic. */
    closeGeneral: (chatId: number, closed = true): void => {
      forumOf(chatId).generalClosed = closed;
    },
    /** A user posts a photo, with a caption (commands in it get caption_entities). */
    photo: (chatId: number, caption: string | undefined, opts: SendOptions = {}): Update => {
      const n = deps.nextSeq();
      const photo = [{ file_id: `photo${n}`, file_unique_id: `uphoto${n}`, width: 1280, height: 960, file_size: 100_000 }];
      return deps.userMessage(chatId, opts, { photo, ...(caption === undefined ? {} : { caption }) });
    },
    /** A post in a channel the bot belongs to (no `from`; signed by the channel). */
    channelPost: (chatId: number, text: string): Update => {
      const chat = deps.addChat(chatId, { type: "channel" });
      const entities = commandEntities(text);
      const channel = makeChat(chat);
      const post = {
        message_id: chat.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: channel,
        sender_chat: channel,
        text,
        ...(entities.length > 0 ? { entities } : {}),
      } as Message;
      return { update_id: deps.nextUpdateId(), channel_post: post } as Update;
    },
  };
}
