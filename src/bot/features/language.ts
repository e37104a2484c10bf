import { Composer } from "grammy";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../../config.js";
import { languageData } from "../callback-data/language.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { createLanguageKeyboard } from "../keyboards/language.js";

const isLocale = (value: string | undefined): value is SupportedLocale => SUPPORTED_LOCALES.some((l) => l === value);

/** /language: a keyboard; the choice is stored per chat and applies at once. */
export function createLanguageFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command(["language", "lang"], logHandle("command-language"), async (ctx) => {
    await ctx.reply(translate(ctx, "language-choose"), { ...HTML, reply_markup: createLanguageKeyboard(ctx) });
  });

  feature.callbackQuery(languageData.filter, logHandle("callback-language"), async (ctx) => {
    const locale = languageData.unpack(ctx.callbackQuery.data)?.locale;
    if (!isLocale(locale)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await deps.chats.setLocale(ctx.chat.id, locale);
    await ctx.i18n.renegotiateLocale();
    await ctx.answerCallbackQuery();
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "language-changed", { language: ctx.t(`language-name-${locale}`) }), HTML));
  });

  return composer;
}
