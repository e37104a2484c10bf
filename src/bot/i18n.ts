import type { ChatRepository } from "../shared/chats/chat-repository.js";
import { fileURLToPath } from "node:url";
import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Logger } from "pino";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../config.js";

export interface I18nDeps<C extends Context = Context> {
  defaultLocale: SupportedLocale;
  /** The chat's stored choice (/language), if any; `ctx` may carry the record this update already read. */
  storedLocale: (chatId: number, ctx: C) => Promise<SupportedLocale | undefined>;
  logger: Logger;
  /** Defaults to the repository's `locales/` (works from src and dist). */
  directory?: string;
}

/**
 * The chat's stored locale for `createI18n`: the outer tree's update already
 * read the chat record (the linked-chat middleware), a conversation's context
 * reads it itself.
 */
export function chatStoredLocale(chats: Pick<ChatRepository, "getLocale">) {
  return async (chatId: number, ctx: object): Promise<SupportedLocale | undefined> =>
    "chatRecord" in ctx
      ? (await (ctx as { chatRecord: () => Promise<{ locale?: SupportedLocale | undefined } | undefined> }).chatRecord())?.locale
      : chats.getLocale(chatId);
}

export const LOCALES_DIRECTORY = fileURLToPath(new URL("../../locales", import.meta.url));

/**
 * What code outside an update (notifiers, the command menu) needs of the one
 * I18n instance the composition root builds: text by locale and id.
 */
export type Translations = Pick<I18n, "t">;

/**
 * Telegram languages we have no translation for whose speakers are far more
 * likely to read Russian than English: Ukrainian, Belarusian, Kazakh. They get
 * Russian until they pick a language with /language (a stored choice wins).
 */
export const LOCALE_FALLBACKS: Readonly<Record<string, SupportedLocale>> = { uk: "ru", be: "ru", kk: "ru" };

/** Maps a Telegram `language_code` ("ru", "ru-RU", "zh-hans", "uk" -> ru) to a supported locale. */
export function matchLocale(code: string | undefined): SupportedLocale | undefined {
  const base = code?.toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LOCALES.find((l) => l === base) ?? (base === undefined ? undefined : LOCALE_FALLBACKS[base]);
}

/**
 * The language of a message to a chat that no update of the chat started
 * (alerts, deposits, relayed service events, reminders): the chat's /language
 * choice, else the Telegram language last seen from its user, else the
 * language the chat used when it started what the message is about (an
 * order's or a watch's locale), else DEFAULT_LOCALE. The one place every
 * notifier decides it.
 */
export function backgroundLocale(
  chat: { locale?: SupportedLocale | undefined; languageCode?: string | undefined } | undefined,
  defaultLocale: SupportedLocale,
  startedIn?: string,
): SupportedLocale {
  return chat?.locale ?? matchLocale(chat?.languageCode) ?? matchLocale(startedIn) ?? defaultLocale;
}

/**
 * Fluent translations from locales/<lang>/*.ftl. The negotiator decides the
 * locale itself (stored choice, then the Telegram language, then
 * DEFAULT_LOCALE) so that plugin fallbacks never apply, inside conversations too.
 */
export function createI18n<C extends Context>(deps: I18nDeps<C>): I18n<C> {
  const i18n = new I18n<C>({
    defaultLocale: deps.defaultLocale,
    directory: deps.directory ?? LOCALES_DIRECTORY,
    // Isolation marks (U+2068/U+2069) around variables would break copying addresses.
    fluentBundleOptions: { useIsolating: false },
    fluentOptions: {
      warningHandler: (warning) =>
        deps.logger.warn({ i18n: { type: warning.type, path: "path" in warning ? warning.path : undefined, locales: warning.locales } }, "missing translation"),
    },
    localeNegotiator: async (ctx) => {
      // Inline queries have no chat: the user's private chat id equals their user id.
      const chatId = ctx.chat?.id ?? ctx.from?.id;
      if (chatId !== undefined) {
        try {
          const stored = await deps.storedLocale(chatId, ctx);
          if (stored) return stored;
        } catch (error) {
          deps.logger.warn({ err: error, chatId }, "could not read the stored locale");
        }
      }
      return matchLocale(ctx.from?.language_code) ?? deps.defaultLocale;
    },
  });
  return i18n;
}
