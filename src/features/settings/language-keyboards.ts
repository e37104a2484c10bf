import { InlineKeyboard } from "grammy";
import { SUPPORTED_LOCALES } from "../../config.js";
import { languageData } from "../../bot/callback-data/language.js";
import type { ConversationContext } from "../../bot/context.js";

/** One button per supported locale, each labelled in its own language. */
export function createLanguageKeyboard(ctx: Pick<ConversationContext, "t">): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const locale of SUPPORTED_LOCALES) {
    keyboard.text(ctx.t(`language-name-${locale}`), languageData.pack({ locale }));
  }
  return keyboard;
}
