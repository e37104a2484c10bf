import type { ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Logger } from "pino";

/** What every update carries besides grammY's own context. */
export interface ContextExtras {
  /** Child of the bot logger with update_id and chat_id; never carries a key. */
  logger: Logger;
}

/** Context inside a conversation: only what the conversation's `plugins` install. */
export type ConversationContext = Context & I18nFlavor & ContextExtras;

/** Context of the outer middleware tree. */
export type BotContext = ConversationFlavor<Context & I18nFlavor & ContextExtras>;
