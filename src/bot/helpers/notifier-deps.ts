import type { Logger } from "pino";
import type { SupportedLocale } from "../../config.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import { UNCHOSEN_UTC, type ChatZone, type ChatZones } from "../../shared/limits/chat-zone.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { Translations } from "../i18n.js";
import type { Links } from "./links.js";

/** What every notifier needs: it renders in the chat's language and zone and sends through the push queue. */
export interface NotifierDeps {
  push: Pick<PushQueue, "enqueue">;
  chats: Pick<ChatRepository, "get">;
  /** The app's one I18n instance (the bot's own). */
  i18n: Translations;
  defaultLocale: SupportedLocale;
  logger: Logger;
  /** Dashboard and support buttons under texts that send the user there, and the explorer (Tronscan when absent); no dashboard or support button when absent. */
  links?: Links;
  /** The chats' stored time zones (the one /settings and /limits set); UTC, not chosen, when absent. */
  zones?: Pick<ChatZones, "zoneOf">;
  /**
   * The other chats linked to the same account as this one (none when unlinked): notices about the account
   * reach each of them, in its own language (docs/accounts.md, "Who is told"). Absent: this chat only.
   */
  accountChatsOf?: (chatId: number) => Promise<number[]>;
}

/** The zone the chat's times are shown in, as the chat's own replies show them. */
export async function notifierZone(deps: Pick<NotifierDeps, "zones">, chatId: number): Promise<ChatZone> {
  return deps.zones === undefined ? UNCHOSEN_UTC : deps.zones.zoneOf(chatId);
}

/** The other chats linked to the same account as `chatId`, ascending; none when it is not linked. */
export function otherChatsOfAccount(chats: Pick<ChatRepository, "get" | "accountChats">): (chatId: number) => Promise<number[]> {
  return async (chatId) => {
    const accountId = (await chats.get(chatId))?.accountId;
    if (accountId === undefined) return [];
    return (await chats.accountChats(accountId)).filter((other) => other !== chatId);
  };
}
