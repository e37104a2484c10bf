import type { Context, Middleware } from "grammy";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { BotContext } from "../context.js";

/** What the chat is called, as the account's other chats name it: a group's title, a private chat's first name. */
export function chatTitle(ctx: Pick<Context, "chat">): string | undefined {
  const chat = ctx.chat;
  if (chat === undefined) return undefined;
  return (chat.type === "private" ? chat.first_name : chat.title) || undefined;
}

/**
 * The Telegram `language_code` that speaks for the chat: only in a private
 * chat (or an inline query, whose chat is the user's private chat) is the
 * sender the chat's one user; a group member's language is theirs alone.
 */
export function chatLanguageCode(ctx: Pick<Context, "chat" | "from">): string | undefined {
  const code = ctx.from?.language_code;
  if (!code) return undefined;
  const chatId = ctx.chat?.id ?? ctx.from?.id;
  return (ctx.chat === undefined || ctx.chat.type === "private") && chatId === ctx.from?.id ? code : undefined;
}

/**
 * Keeps the chat record's Telegram language current, so messages no tap
 * started (alerts, relayed service events) are written in the language the
 * bot speaks to the user. Compared with the record this update reads anyway
 * (`ctx.chatRecord()`, shared with the locale negotiator): a write only when
 * the language changed, and never a record for a chat that has none (linking
 * stores the language itself). A failed write is logged and the update goes on.
 */
export function rememberTelegramLanguage(deps: { chats: Pick<ChatRepository, "setLanguageCode"> }): Middleware<BotContext> {
  return async (ctx, next) => {
    const code = chatLanguageCode(ctx);
    if (code !== undefined) {
      try {
        const record = await ctx.chatRecord();
        // The cached record keeps the old code: nothing in this update reads it.
        if (record && record.languageCode !== code) await deps.chats.setLanguageCode(record.chatId, code);
      } catch (error) {
        ctx.logger.warn({ err: error }, "could not remember the chat's Telegram language");
      }
    }
    return next();
  };
}
