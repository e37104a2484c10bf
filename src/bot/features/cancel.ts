import { Composer } from "grammy";
import { cancelData } from "../callback-data/cancel.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged, isUneditable } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";

/** Runs an edit; false when Telegram says the message cannot be edited (it is gone or not the bot's). */
async function tryEdit(edit: () => Promise<unknown>): Promise<boolean> {
  try {
    await editIgnoringUnchanged(edit);
    return true;
  } catch (error) {
    if (isUneditable(error)) return false;
    throw error;
  }
}

/**
 * /cancel and every flow's Cancel button. Registered BEFORE the conversations:
 * a waiting conversation swallows updates, so this must see them first.
 */
export function createCancelFeature(_deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command("cancel", logHandle("command-cancel"), async (ctx) => {
    const active = Object.keys(ctx.conversation.active()).length > 0;
    await ctx.conversation.exitAll();
    await ctx.reply(translate(ctx, active ? "cancel-done" : "cancel-nothing"), HTML);
  });

  feature.callbackQuery(cancelData.filter, logHandle("callback-cancel"), async (ctx) => {
    const active = Object.keys(ctx.conversation.active()).length > 0;
    if (!active) {
      // A Cancel left on an old prompt: the flow is over (finished or left), so say so, keep the text and drop the button.
      // A message that cannot be edited (gone, not ours: an old or forged button) means the button has expired.
      const edited = await tryEdit(() => ctx.editMessageReplyMarkup());
      await ctx.answerCallbackQuery({ text: ctx.t(edited ? "cancel-nothing" : "button-expired") });
      return;
    }
    await ctx.conversation.exitAll();
    await ctx.answerCallbackQuery();
    if (!(await tryEdit(() => ctx.editMessageText(translate(ctx, "cancel-done"), HTML)))) await ctx.reply(translate(ctx, "cancel-done"), HTML);
  });

  return composer;
}
