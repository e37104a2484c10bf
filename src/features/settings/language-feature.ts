import { Composer } from "grammy";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../../config.js";
import { languageData } from "../../bot/callback-data/language.js";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createLanguageKeyboard } from "./language-keyboards.js";
import { withHomeRow } from "../../bot/keyboards/menu.js";
import { showScreen } from "../../bot/helpers/screen.js";
import { BOT_COMMANDS, setChatMenu } from "../../bot/register-commands.js";

const isLocale = (value: string | undefined): value is SupportedLocale => SUPPORTED_LOCALES.some((l) => l === value);

/**
 * /language: a keyboard; the choice is stored per chat and applies at once,
 * the chat's command menu included (a chat-scoped setMyCommands, since the
 * global lists follow the Telegram app's language).
 */
export function createLanguageFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  const showChoice = (ctx: BotContext) => showScreen(ctx, translate(ctx, "language-choose"), createLanguageKeyboard(ctx));
  feature.command(["language", "lang"], logHandle("command-language"), showChoice);
  feature.callbackQuery(menuAction("language"), logHandle("callback-menu-language"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showChoice(ctx);
  });

  feature.callbackQuery(languageData.filter, logHandle("callback-language"), async (ctx) => {
    const locale = languageData.unpack(ctx.callbackQuery.data)?.locale;
    if (!isLocale(locale)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await deps.chats.setLocale(ctx.chat.id, locale);
    ctx.forgetChat();
    await ctx.i18n.renegotiateLocale();
    await ctx.answerCallbackQuery();
    // Home from here draws the card in the language just chosen.
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "language-changed"), { ...HTML, reply_markup: withHomeRow(ctx, undefined) }));
    // The menu is a convenience: a refusal must not undo or hide the change itself.
    await setChatMenu(ctx.api, ctx.chat.id, BOT_COMMANDS, (key) => ctx.t(key)).catch((error: unknown) =>
      ctx.logger.warn({ err: error }, "could not set the chat's command menu"),
    );
  });

  return { composer, routes: { commands: ["language", "lang"], callbacks: [menuData, languageData] } };
}
