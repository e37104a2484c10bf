import type { Api, Bot } from "grammy";
import type { BotCommand, LanguageCode } from "grammy/types";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../config.js";
import type { BotContext } from "./context.js";
import { LOCALE_FALLBACKS, type Translations } from "./i18n.js";

/** What a command is for: /help lists them by task, everyday ones first. */
export type CommandTask = "everyday" | "orders" | "account";

export interface MenuCommand {
  command: string;
  /** Also shown (and answered) in groups. */
  public: boolean;
  /** /help's section. The everyday commands are the private chats' menu; the others stay commands, listed in /help. */
  task: CommandTask;
}

/**
 * Every command, in display order: the everyday ones are the private chats' menu, `public` ones the groups'.
 * Each needs a Fluent message `<command>` with a `.description` attribute in
 * every locale. Later features append their commands here.
 */
export const BOT_COMMANDS: readonly MenuCommand[] = [
  { command: "start", public: false, task: "everyday" },
  { command: "balance", public: false, task: "everyday" },
  { command: "order", public: false, task: "everyday" },
  { command: "send", public: false, task: "everyday" },
  { command: "orders", public: false, task: "everyday" },
  { command: "keep", public: false, task: "everyday" },
  { command: "prices", public: true, task: "everyday" },
  { command: "help", public: true, task: "everyday" },
  { command: "batch", public: false, task: "orders" },
  { command: "broadcast", public: false, task: "orders" },
  { command: "track", public: false, task: "orders" },
  { command: "statement", public: false, task: "orders" },
  { command: "addresses", public: false, task: "orders" },
  { command: "system", public: true, task: "orders" },
  { command: "settings", public: false, task: "account" },
  { command: "limits", public: false, task: "account" },
  { command: "freeze", public: false, task: "account" },
  { command: "alerts", public: false, task: "account" },
  { command: "language", public: false, task: "account" },
  { command: "link", public: false, task: "account" },
  { command: "unlink", public: false, task: "account" },
  { command: "webhook", public: false, task: "account" },
  { command: "cancel", public: false, task: "account" },
];

// The list createBot installed and the bot's I18n, kept on the bot itself so registerCommands(bot) needs no deps.
const MENU = Symbol("bot-menu");
type BotWithMenu = Bot<BotContext> & { [MENU]?: { commands: readonly MenuCommand[]; i18n: Translations } };

/** Called by createBot: the menu of the features it registered, in the bot's own translations. */
export function rememberMenu(bot: Bot<BotContext>, commands: readonly MenuCommand[], i18n: Translations): void {
  (bot as BotWithMenu)[MENU] = { commands, i18n };
}

export interface RegisterCommandsOptions {
  defaultLocale?: SupportedLocale;
  /** Defaults to BOT_COMMANDS. */
  commands?: readonly MenuCommand[];
}

type Translate = (locale: string, key: string) => string;

/** One menu in one language: private chats get the everyday commands, groups the public ones. */
export function menuList(commands: readonly MenuCommand[], t: Translate, locale: string, onlyPublic: boolean): BotCommand[] {
  return commands
    .filter((c) => (onlyPublic ? c.public : c.task === "everyday"))
    .map((c) => ({ command: c.command, description: t(locale, `${c.command}.description`) }));
}

/** setMyCommands per language (en, ru, zh; uk, be and kk in Russian) plus the default list, for private chats and for groups. */
export async function registerCommands(bot: Bot<BotContext>, options: RegisterCommandsOptions = {}): Promise<void> {
  const menu = (bot as BotWithMenu)[MENU];
  if (!menu) throw new Error("registerCommands: the bot was not built by createBot");
  const commands = options.commands ?? menu.commands;
  const t: Translate = (locale, key) => menu.i18n.t(locale, key);
  const targets: { locale: string; language_code?: LanguageCode }[] = [
    { locale: options.defaultLocale ?? "en" },
    ...SUPPORTED_LOCALES.map((locale) => ({ locale, language_code: locale })),
    // Ukrainian, Belarusian and Kazakh apps get the Russian menu, as their users get Russian replies.
    ...Object.entries(LOCALE_FALLBACKS).map(([code, locale]) => ({ locale, language_code: code as LanguageCode })),
  ];
  for (const target of targets) {
    const lang: { language_code?: LanguageCode } = target.language_code ? { language_code: target.language_code } : {};
    await bot.api.setMyCommands(menuList(commands, t, target.locale, false), { scope: { type: "all_private_chats" }, ...lang });
    await bot.api.setMyCommands(menuList(commands, t, target.locale, true), { scope: { type: "all_group_chats" }, ...lang });
  }
}

/**
 * The menu of one private chat in the language chosen there (/language): a
 * chat scope beats the per-language lists, which follow the Telegram app's language.
 */
export async function setChatMenu(api: Api, chatId: number, commands: readonly MenuCommand[], translate: (key: string) => string): Promise<void> {
  await api.setMyCommands(
    menuList(commands, (_locale, key) => translate(key), "", false),
    { scope: { type: "chat", chat_id: chatId } },
  );
}
