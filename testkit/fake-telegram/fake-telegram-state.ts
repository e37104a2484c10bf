/** In-memory state of the fake Bot API: chats, their messages, files, rate windows. */
import type { Button } from "./fake-telegram-format.js";

export interface StoredMessage {
  messageId: number;
  chatId: number;
  from: "bot" | "user";
  /** Plain text the user sees (entities stripped), or the caption for media. */
  text: string;
  /** Text as sent, with its markup, for "message is not modified". */
  rawText: string;
  parseMode: string | undefined;
  buttons: Button[][];
  markup: unknown;
  photo?: { fileId: string; bytes: Buffer | undefined };
  document?: { fileId: string; fileName: string; bytes: Buffer | undefined };
  /** The message this one replies to (reply_parameters), when it still existed. */
  replyTo?: number;
  /** The forum topic the message is in (undefined: General, or a chat without topics). */
  threadId?: number;
  deleted: boolean;
  edits: number;
  /** Global send order, for waiting on "the next bot message". */
  seq: number;
  date: number;
}

export interface ForumTopic {
  name: string;
  closed: boolean;
}

/** A forum supergroup's topics by thread id; General (no thread id) is not among them. */
export interface ForumState {
  topics: Map<number, ForumTopic>;
  generalClosed: boolean;
}

/**
 * The bot's standing in a group or channel: "member" (default; in a channel
 * a member may not post), "administrator" (may post in a channel),
 * "restricted" (may not send in a group), "left" (not in the chat).
 */
export type BotStanding = "member" | "administrator" | "restricted" | "left";

export interface FakeChatState {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  blocked: boolean;
  /** Whether the bot may delete other users' messages (group admin with the right). */
  botCanDelete: boolean;
  botStanding: BotStanding;
  /** Set for a forum supergroup (is_forum). */
  forum?: ForumState;
  nextMessageId: number;
  messages: Map<number, StoredMessage>;
}

export interface StoredFile {
  fileId: string;
  fileUniqueId: string;
  path: string;
  fileName: string;
  mimeType: string | undefined;
  bytes: Buffer;
}

export interface RateLimitOptions {
  /** Messages per second over all chats (Telegram: about 30). */
  globalPerSecond: number;
  /** Messages per second to one private chat (Telegram: 1). */
  perChatPerSecond: number;
  /** Messages per minute to one group (Telegram: 20). */
  perGroupPerMinute: number;
}

export const TELEGRAM_RATE_LIMITS: RateLimitOptions = { globalPerSecond: 30, perChatPerSecond: 1, perGroupPerMinute: 20 };

/** Sliding windows; answers the retry_after (seconds) when a send would exceed a limit. */
export function createRateLimiter(options: RateLimitOptions) {
  const global: number[] = [];
  const perChat = new Map<number, number[]>();
  const prune = (list: number[], now: number, windowMs: number) => {
    while (list.length > 0 && list[0]! <= now - windowMs) list.shift();
  };
  return {
    options,
    /** Returns 0 and counts the send when allowed; otherwise the seconds to wait. */
    take(chatId: number, isGroup: boolean, now: number): number {
      prune(global, now, 1000);
      const list = perChat.get(chatId) ?? [];
      perChat.set(chatId, list);
      const windowMs = isGroup ? 60_000 : 1000;
      const max = isGroup ? options.perGroupPerMinute : options.perChatPerSecond;
      prune(list, now, windowMs);
      if (list.length >= max) return Math.max(1, Math.ceil((list[0]! + windowMs - now) / 1000));
      if (global.length >= options.globalPerSecond) return Math.max(1, Math.ceil((global[0]! + 1000 - now) / 1000));
      list.push(now);
      global.push(now);
      return 0;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
