import type { Logger } from "pino";
import type { SupportedLocale } from "../../config.js";
import type { ChatRepository } from "../../core/chats/chat-repository.js";

/** The other chats linked to the same account as `chatId`, ascending; none when it is not linked. */
export function otherChatsOfAccount(chats: Pick<ChatRepository, "get" | "accountChats">): (chatId: number) => Promise<number[]> {
  return async (chatId) => {
    const accountId = (await chats.get(chatId))?.accountId;
    if (accountId === undefined) return [];
    return (await chats.accountChats(accountId)).filter((other) => other !== chatId);
  };
}
import type { PushQueue } from "../../core/push/index.js";
import type { Translations } from "../i18n.js";
import type { Links } from "../helpers/links.js";

/** What every notifier needs: it renders in the chat's language and sends through the push queue. */
export interface NotifierDeps {
  push: Pick<PushQueue, "enqueue">;
  chats: Pick<ChatRepository, "get">;
  /** The app's one I18n instance (the bot's own). */
  i18n: Translations;
  defaultLocale: SupportedLocale;
  logger: Logger;
  /** Dashboard and support buttons under texts that send the user there, and the explorer (Tronscan when absent); no dashboard or support button when absent. */
  links?: Links;
  /**
   * The other chats linked to the same account as this one (none when unlinked): notices about the account
   * reach each of them, in its own language (docs/accounts.md, "Who is told"). Absent: this chat only.
   */
  accountChatsOf?: (chatId: number) => Promise<number[]>;
}
