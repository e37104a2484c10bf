import type { ChatRepository } from "../shared/chats/chat-repository.js";
import { fileURLToPath } from "node:url";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";
import type { Context, MiddlewareFn, MiddlewareObj } from "grammy";
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
export type Translations = Pick<BotI18n<Context>, "t">;

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

/** Variables of a message, as Fluent takes them. */
export type TranslationVariables = Record<string, FluentVariable>;

/** Text of a message id (`id` or `id.attribute`) in the update's locale. */
export type Translate = (key: string, variables?: TranslationVariables) => string;

/** What the i18n middleware puts on every update's context, inside conversations too. */
export interface I18nFlavor {
  t: Translate;
  translate: Translate;
  i18n: {
    /** The locale the update's chat reads now: its stored choice, else its Telegram language, else DEFAULT_LOCALE. */
    getLocale(): Promise<SupportedLocale>;
    /** Translates the rest of the update in `locale`. */
    useLocale(locale: SupportedLocale): void;
    /** Decides the locale again (after /language stored a new choice). */
    renegotiateLocale(): Promise<void>;
  };
}

/** The app's one set of translations: the middleware that gives each update its `ctx.t`, and text by locale and id. */
export interface BotI18n<C extends Context> extends MiddlewareObj<C & I18nFlavor> {
  t(locale: string, key: string, variables?: TranslationVariables): string;
}

/** Reads locales/<locale>/*.ftl into one Fluent bundle per locale, as the files of a locale make one translation. */
function loadBundles(directory: string): Map<string, FluentBundle> {
  const bundles = new Map<string, FluentBundle>();
  for (const locale of readdirSync(directory).sort()) {
    const dir = join(directory, locale);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".ftl"))
      .sort();
    if (files.length === 0) continue;
    // Isolation marks (U+2068/U+2069) around variables would break copying addresses.
    const bundle = new FluentBundle(locale, { useIsolating: false });
    for (const file of files) {
      const errors = bundle.addResource(new FluentResource(readFileSync(join(dir, file), "utf8")), { allowOverrides: true });
      if (errors.length > 0) throw new Error(`locales/${locale}/${file} does not parse: ${errors.map((e) => e.message).join("; ")}`);
    }
    bundles.set(locale, bundle);
  }
  return bundles;
}

/**
 * Fluent translations from locales/<lang>/*.ftl, over Fluent's own bundles. The locale is decided once per update
 * (stored choice, then the Telegram language, then DEFAULT_LOCALE), inside conversations too, so a translation is a
 * lookup in that locale's bundle, then in the default one; an id missing from both is logged and shown as `{id}`.
 */
export function createI18n<C extends Context>(deps: I18nDeps<C>): BotI18n<C> {
  const bundles = loadBundles(deps.directory ?? LOCALES_DIRECTORY);
  const fallback = bundles.get(deps.defaultLocale);
  if (fallback === undefined) throw new Error(`no translations for the default locale ${deps.defaultLocale}`);
  /** The bundles to try for a locale asked for (`ru`, `ru-RU`, `uk`), worked out once per distinct locale string. */
  const chains = new Map<string, readonly FluentBundle[]>();
  const chainOf = (locale: string): readonly FluentBundle[] => {
    let chain = chains.get(locale);
    if (chain === undefined) {
      const own = bundles.get(locale) ?? bundles.get(locale.toLowerCase().split(/[-_]/)[0] ?? "");
      chain = own === undefined || own === fallback ? [fallback] : [own, fallback];
      chains.set(locale, chain);
    }
    return chain;
  };

  function translate(locale: string, key: string, variables?: TranslationVariables): string {
    const dot = key.indexOf(".");
    const id = dot === -1 ? key : key.slice(0, dot);
    const attribute = dot === -1 ? undefined : key.slice(dot + 1);
    for (const bundle of chainOf(locale)) {
      const message = bundle.getMessage(id);
      const pattern = message === undefined ? undefined : attribute === undefined ? (message.value ?? "") : message.attributes[attribute];
      if (pattern !== undefined) return bundle.formatPattern(pattern, variables);
      deps.logger.warn({ i18n: { path: key, locale: bundle.locales[0] } }, "missing translation");
    }
    return `{${key}}`;
  }

  async function negotiate(ctx: C): Promise<SupportedLocale> {
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
  }

  const middleware: MiddlewareFn<C> = async (ctx, next) => {
    let locale: SupportedLocale = deps.defaultLocale;
    const t: Translate = (key, variables) => translate(locale, key, variables);
    const flavor: I18nFlavor = {
      t,
      translate: t,
      i18n: {
        getLocale: () => negotiate(ctx),
        useLocale(chosen) {
          locale = chosen;
        },
        async renegotiateLocale() {
          locale = await negotiate(ctx);
        },
      },
    };
    Object.assign(ctx, flavor);
    locale = await negotiate(ctx);
    await next();
  };

  return {
    t: translate,
    middleware: () => middleware,
  };
}
