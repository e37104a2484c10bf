import { I18n } from "@grammyjs/i18n";
import type { Bot } from "grammy";
import type { BotCommand, LanguageCode } from "grammy/types";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../config.js";
import type { BotContext } from "./context.js";
import { LOCALES_DIRECTORY } from "./i18n.js";

/**
 * The command menu, in display order. `public` ones also show in groups.
 * Each needs a Fluent message `<command>` with a `.description` attribute in
 * every locale. Later features append their commands here.
 */
export const BOT_COMMANDS: readonly { command: string; public: boolean }[] = [
  { command: "start", public: false },
  { command: "balance", public: false },
  { command: "order", public: false },
  { command: "batch", public: false },
  { command: "broadcast", public: false },
  { command: "orders", public: false },
  { command: "track", public: false },
  { command: "prices", public: true },
  { command: "system", public: true },
  { command: "link", public: false },
  { command: "unlink", public: false },
  { command: "webhook", public: false },
  { command: "settings", public: false },
  { command: "language", public: false },
  { command: "help", public: true },
  { command: "cancel", public: false },
];

export interface RegisterCommandsOptions {
  defaultLocale?: SupportedLocale;
  commands?: readonly { command: string; public: boolean }[];
  directory?: string;
}

/** setMyCommands per language (en, ru, zh) plus the default list, for private chats and for groups. */
export async function registerCommands(bot: Bot<BotContext>, options: RegisterCommandsOptions = {}): Promise<void> {
  const i18n = new I18n({ defaultLocale: options.defaultLocale ?? "en", directory: options.directory ?? LOCALES_DIRECTORY, fluentBundleOptions: { useIsolating: false } });
  const commands = options.commands ?? BOT_COMMANDS;
  const list = (locale: string, onlyPublic: boolean): BotCommand[] =>
    commands
      .filter((c) => !onlyPublic || c.public)
      .map((c) => ({ command: c.command, description: i18n.t(locale, `${c.command}.description`) }));
  const targets: { locale: string; language_code?: LanguageCode }[] = [
    { locale: options.defaultLocale ?? "en" },
    ...SUPPORTED_LOCALES.map((locale) => ({ locale, language_code: locale })),
  ];
  for (const t of targets) {
    const lang: { language_code?: LanguageCode } = t.language_code ? { language_code: t.language_code } : {};
    await bot.api.setMyCommands(list(t.locale, false), { scope: { type: "all_private_chats" }, ...lang });
    await bot.api.setMyCommands(list(t.locale, true), { scope: { type: "all_group_chats" }, ...lang });
  }
}
