import type { InlineKeyboard } from "grammy";
import type { BotContext } from "../context.js";
import { withHomeRow } from "../keyboards/menu.js";
import { editIgnoringUnchanged } from "./edit.js";
import { HTML } from "./html.js";

/**
 * A screen the home card leads to (the ledger, settings, prices, help, plans): from a button on a text
 * card it replaces that card in place, as @wallet navigates; typed as a command it is a new message.
 * Either way it ends with ◀️ Home.
 */
export async function showScreen(ctx: BotContext, text: string, keyboard: InlineKeyboard | undefined): Promise<void> {
  const markup = withHomeRow(ctx, keyboard);
  if (isOnTextCard(ctx)) {
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: markup }));
    return;
  }
  await ctx.reply(text, { ...HTML, reply_markup: markup });
}

/** Whether the update is a button pressed on a text message of the bot (a card that can become another). */
export function isOnTextCard(ctx: BotContext): boolean {
  return ctx.callbackQuery?.message?.text !== undefined;
}
