import type { Middleware } from "grammy";
import type { ChatRecord } from "../../shared/chats/chat-record.js";
import type { ChatRepository, LinkedChat } from "../../shared/chats/chat-repository.js";
import type { BotContext } from "../context.js";

/**
 * Puts `ctx.chatRecord()` and `ctx.linked()` on every update: the chat's
 * record and its opened key, read and decrypted on first use and then shared
 * by the locale negotiator and every guard and feature of the update (one
 * read and one opening, not one per "linked?" question). An inline query has
 * no chat: the user's private chat (same id) is meant.
 */
export function linkedChat(deps: { chats: Pick<ChatRepository, "get" | "openRecord"> }): Middleware<BotContext> {
  return (ctx, next) => {
    // As the locale negotiator: without a chat (an inline query), the user's private chat has the user's id.
    const chatId = ctx.chat?.id ?? ctx.from?.id;
    let record: Promise<ChatRecord | undefined> | undefined;
    let linked: Promise<LinkedChat | undefined> | undefined;
    ctx.chatRecord = () => (record ??= chatId === undefined ? Promise.resolve(undefined) : deps.chats.get(chatId));
    ctx.linked = () => (linked ??= ctx.chatRecord().then((r) => (r ? deps.chats.openRecord(r) : undefined)));
    ctx.forgetChat = () => {
      record = undefined;
      linked = undefined;
    };
    return next();
  };
}
