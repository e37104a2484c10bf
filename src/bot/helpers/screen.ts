import type { InlineKeyboard } from "grammy";
import type { BotContext } from "../context.js";
import { withHomeRow } from "../keyboards/menu.js";
import { editIgnoringUnchanged } from "./edit.js";
import { HTML } from "./html.js";
import { placeFirstPromptOn } from "./step-prompt.js";

/**
 * A screen the home card leads to (the ledger, settings, prices, help, plans): from a button on a text
 * card it replaces that card in place, as @wallet navigates; typed as a command it is a new message.
 * Either way it ends with ◀️ Home.
 */
export async function showScreen(ctx: BotContext, text: string, keyboard: InlineKeyboard | undefined): Promise<void> {
  await showCard(ctx, text, withHomeRow(ctx, keyboard));
}

/** A card in place of the text card its button was on; a new message for a command or a button under a photo. */
export async function showCard(ctx: BotContext, text: string, keyboard: InlineKeyboard): Promise<void> {
  if (isOnTextCard(ctx)) {
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: keyboard }));
    return;
  }
  await ctx.reply(text, { ...HTML, reply_markup: keyboard });
}

/** A button pressed on a text card that opens a flow: the flow's first question takes that card's place. */
export function placeFirstPromptOnPressedCard(ctx: BotContext): void {
  const message = ctx.callbackQuery?.message;
  if (message !== undefined && isOnTextCard(ctx)) placeFirstPromptOn(ctx, message.message_id);
}

/** Whether the update is a button pressed on a text message of the bot (a card that can become another). */
export function isOnTextCard(ctx: BotContext): boolean {
  return ctx.callbackQuery?.message?.text !== undefined;
}
