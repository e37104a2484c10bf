import type { Middleware } from "grammy";
import type { ChatRepository, LinkedChat } from "../../core/chats/chat-repository.js";
import type { BotContext } from "../context.js";

/**
 * Puts `ctx.linked()` on every update: the chat's record and opened key,
 * read and decrypted on first use and then shared by every guard and feature
 * of the update (the key is opened once, not once per "linked?" question).
 * An inline query has no chat: the user's private chat (same id) is meant.
 */
export function linkedChat(deps: { chats: Pick<ChatRepository, "open"> }): Middleware<BotContext> {
  return (ctx, next) => {
    const chatId = ctx.chat?.id ?? ctx.inlineQuery?.from.id;
    let opened: Promise<LinkedChat | undefined> | undefined;
    ctx.linked = () => (opened ??= chatId === undefined ? Promise.resolve(undefined) : deps.chats.open(chatId));
    ctx.forgetLinked = () => {
      opened = undefined;
    };
    return next();
  };
}
