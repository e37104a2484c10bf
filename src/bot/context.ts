import type { ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "./i18n.js";
import type { Context } from "grammy";
import type { Logger } from "pino";
import type { ChatRecord } from "../shared/chats/chat-record.js";
import type { LinkedChat } from "../shared/chats/chat-repository.js";
import type { Links } from "./helpers/links.js";

/** What every update carries besides grammY's own context. */
export interface ContextExtras {
  /** Child of the bot logger with update_id and chat_id; never carries a key. */
  logger: Logger;
  /** Explorer, dashboard and support URLs (EXPLORER_URL, DASHBOARD_URL, SUPPORT_URL). */
  links: Links;
}

/** Context inside a conversation: only what the conversation's `plugins` install. */
export type ConversationContext = Context & I18nFlavor & ContextExtras;

/** The chat's record and linked key, read and opened at most once per update (`middlewares/linked-chat.ts`). */
export interface LinkedFlavor {
  /** The chat's record (for an inline query, the user's private chat), or undefined when it has none. */
  chatRecord(): Promise<ChatRecord | undefined>;
  /** The chat with its opened key, or undefined when not linked. */
  linked(): Promise<LinkedChat | undefined>;
  /** Drops what was read: this update linked, unlinked or changed the chat. */
  forgetChat(): void;
}

/** Entering a flow (`middlewares/flow-guard.ts`). */
export interface FlowFlavor {
  /**
   * Enters the conversation `id` with `args`, leaving the chat's open flow first (and saying which), as a command
   * would: the plugin refuses to enter while another flow is open, and an old button can open a flow from inside one.
   */
  enterFlow(id: string, ...args: unknown[]): Promise<void>;
}

/** Context of the outer middleware tree. */
export type BotContext = ConversationFlavor<Context & I18nFlavor & ContextExtras & LinkedFlavor & FlowFlavor>;
