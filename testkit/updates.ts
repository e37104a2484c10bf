/**
 * Update factories: plain Telegram `Update` objects, built the way Telegram
 * builds them (command entities, chat/from shapes). The fake Bot API server
 * uses these and allocates ids; tests may also use them directly.
 */
import type { Chat, ChatMember, InlineQuery, Message, MessageEntity, Update, User } from "grammy/types";

export interface UserSpec {
  id: number;
  firstName?: string;
  username?: string;
  languageCode?: string;
}

export interface ChatSpec {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  /** A forum supergroup (topics). */
  forum?: unknown;
}

export function makeUser(spec: UserSpec): User {
  return {
    id: spec.id,
    is_bot: false,
    first_name: spec.firstName ?? `User${spec.id}`,
    ...(spec.username ? { username: spec.username } : {}),
    ...(spec.languageCode ? { language_code: spec.languageCode } : {}),
  };
}

export function makeChat(spec: ChatSpec, user?: User): Chat {
  if (spec.type === "private") {
    return { id: spec.id, type: "private", first_name: user?.first_name ?? `User${spec.id}` };
  }
  if (spec.type === "channel") return { id: spec.id, type: "channel", title: spec.title ?? `Channel ${spec.id}` };
  if (spec.type === "supergroup" && spec.forum) return { id: spec.id, type: "supergroup", title: spec.title ?? `Group ${spec.id}`, is_forum: true };
  return { id: spec.id, type: spec.type, title: spec.title ?? `Group ${spec.id}` };
}

/** Telegram marks every `/command` (optionally `@bot`) with a bot_command entity. */
export function commandEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const re = /(^|\s)(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const offset = m.index + m[1]!.length;
    entities.push({ type: "bot_command", offset, length: m[2]!.length });
  }
  return entities;
}

export interface MessageSpec {
  messageId: number;
  chat: Chat;
  from: User;
  date?: number;
  text?: string;
  document?: Message["document"];
  photo?: Message["photo"];
  caption?: string;
  replyTo?: Message;
  /** A message in a forum topic (message_thread_id + is_topic_message). */
  threadId?: number;
}

export function makeMessage(spec: MessageSpec): Message {
  const base = {
    message_id: spec.messageId,
    date: spec.date ?? Math.floor(Date.now() / 1000),
    chat: spec.chat,
    from: spec.from,
    ...(spec.threadId === undefined ? {} : { message_thread_id: spec.threadId, is_topic_message: true }),
    ...(spec.replyTo ? { reply_to_message: spec.replyTo } : {}),
  };
  if (spec.document || spec.photo) {
    // Telegram marks commands in captions too (caption_entities).
    const captionEntities = spec.caption ? commandEntities(spec.caption) : [];
    return {
      ...base,
      ...(spec.document ? { document: spec.document } : { photo: spec.photo }),
      ...(spec.caption ? { caption: spec.caption } : {}),
      ...(captionEntities.length > 0 ? { caption_entities: captionEntities } : {}),
    } as Message;
  }
  const text = spec.text ?? "";
  const entities = commandEntities(text);
  return { ...base, text, ...(entities.length > 0 ? { entities } : {}) } as Message;
}

export function messageUpdate(updateId: number, message: Message): Update {
  return { update_id: updateId, message } as Update;
}

export function callbackQueryUpdate(updateId: number, spec: { id: string; from: User; message: Message; data: string }): Update {
  return {
    update_id: updateId,
    callback_query: {
      id: spec.id,
      from: spec.from,
      message: spec.message,
      chat_instance: String(spec.message.chat.id),
      data: spec.data,
    },
  };
}

export function inlineQueryUpdate(updateId: number, spec: { id: string; from: User; query: string; chatType?: InlineQuery["chat_type"] }): Update {
  return {
    update_id: updateId,
    inline_query: {
      id: spec.id,
      from: spec.from,
      query: spec.query,
      offset: "",
      ...(spec.chatType ? { chat_type: spec.chatType } : {}),
    },
  };
}

export type BotMemberStatus = "member" | "kicked" | "left" | "administrator";

/**
 * The bot's own membership changed: in a private chat "kicked" when the user
 * blocks it and "member" when unblocked; in a group "left"/"kicked" ->
 * "member"/"administrator" when it is added (an administrator may delete messages).
 */
export function myChatMemberUpdate(
  updateId: number,
  spec: { chat: Chat; from: User; bot: User; oldStatus: BotMemberStatus; newStatus: BotMemberStatus; rights?: Record<string, boolean> },
): Update {
  const member = (status: BotMemberStatus): ChatMember => {
    if (status === "kicked") return { status, user: spec.bot, until_date: 0 };
    if (status === "administrator") return { status, user: spec.bot, ...(spec.rights ?? {}) } as ChatMember;
    return { status, user: spec.bot };
  };
  return {
    update_id: updateId,
    my_chat_member: {
      chat: spec.chat,
      from: spec.from,
      date: Math.floor(Date.now() / 1000),
      old_chat_member: member(spec.oldStatus),
      new_chat_member: member(spec.newStatus),
    },
  };
}
