import { Composer } from "grammy";
import { cancelData } from "../callback-data/cancel.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";

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
      await ctx.answerCallbackQuery({ text: ctx.t("cancel-nothing") });
      await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
      return;
    }
    await ctx.conversation.exitAll();
    await ctx.answerCallbackQuery();
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "cancel-done"), HTML));
  });

  return composer;
}
