import { Composer } from "grammy";
import { cancelData } from "../callback-data/cancel.js";
import { linkData } from "../callback-data/link.js";
import { orderStepData } from "../callback-data/order.js";
import type { BotContext } from "../context.js";
import type { BotFeature } from "../feature-routes.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged, isNotModified, isUneditable } from "../helpers/edit.js";
import { currentFlowInstance, inFlow } from "../helpers/flow-instance.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { voidOpenOffers } from "../helpers/void-offers.js";
import { closeOpenPrompt, forgetOpenPrompt } from "../helpers/step-prompt.js";
import { withHomeRow } from "../keyboards/menu.js";

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

/** The run a step or Cancel button belongs to (helpers/flow-instance.ts), or undefined for data of an older shape. */
function instanceOf(data: string): string | undefined {
  return cancelData.unpack(data)?.instance ?? orderStepData.unpack(data)?.flow ?? linkData.unpack(data)?.instance;
}

/**
 * /cancel and every flow's Cancel button. Registered BEFORE the conversations:
 * a waiting conversation swallows updates, so this must see them first.
 * Buttons of a flow act only on their own run: one left on an earlier run's
 * prompt answers "expired" and loses its buttons, whatever runs now.
 */
export function createCancelFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  /** Whether the pressed button belongs to the flow that runs now. */
  async function isCurrent(ctx: BotContext, chatId: number, data: string): Promise<boolean> {
    if (!inFlow(ctx)) return false;
    const instance = instanceOf(data);
    return instance !== undefined && instance === (await currentFlowInstance(deps.store, chatId));
  }

  // In a flow, /cancel ends that flow only: a quote or a draft made before it is another thing, with its own Cancel.
  // Outside any flow it cancels what is still open to confirm.
  feature.command("cancel", logHandle("command-cancel"), async (ctx) => {
    if (inFlow(ctx)) {
      await ctx.conversation.exitAll();
      await closeOpenPrompt(ctx, deps.store, ctx.chat.id);
      await ctx.reply(translate(ctx, "cancel-done"), HTML);
      return;
    }
    const voided = await voidOpenOffers(ctx, deps.flows, ctx.chat.id);
    await ctx.reply(translate(ctx, voided > 0 ? "flow-cancelled-offers" : "cancel-nothing", { count: voided }), HTML);
  });

  feature.callbackQuery(cancelData.filter, logHandle("callback-cancel"), async (ctx) => {
    if (!(await isCurrent(ctx, ctx.chat.id, ctx.callbackQuery.data))) {
      // A Cancel left on an old prompt: the flow is over (finished, left, or another run has begun), so say so, keep the text and drop the button.
      // A message that cannot be edited (gone, not ours: an old or forged button) means the button has expired.
      const active = inFlow(ctx);
      // Telegram sends the pressed message as it is now: one without buttons (taken off when its flow was left) was pressed on a stale keyboard.
      if (ctx.callbackQuery.message?.reply_markup === undefined) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      const edited = await tryEdit(() => ctx.editMessageReplyMarkup());
      await ctx.answerCallbackQuery({ text: ctx.t(edited && !active ? "cancel-nothing" : "button-expired") });
      return;
    }
    await ctx.conversation.exitAll();
    // The prompt becomes "Cancelled" with ◀️ Home: a later command must not take that button off.
    await forgetOpenPrompt(deps.store, ctx.chat.id);
    await ctx.answerCallbackQuery();
    // The prompt says so in place, and leads back home (it may have been the home card the flow was opened on).
    const done = { ...HTML, reply_markup: withHomeRow(ctx, undefined) };
    if (!(await tryEdit(() => ctx.editMessageText(translate(ctx, "cancel-done"), done)))) await ctx.reply(translate(ctx, "cancel-done"), done);
  });

  // A step button (a receiver, a tier, Skip) of a run that is not the current one: it must not reach the running flow.
  feature.callbackQuery([orderStepData.filter, linkData.filter], async (ctx, next) => {
    if (await isCurrent(ctx, ctx.chat.id, ctx.callbackQuery.data)) return next();
    ctx.logger.info("a step button of an earlier flow was pressed");
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    // Telegram sends the pressed message as it is now: without buttons there is nothing to take off.
    if (!ctx.callbackQuery.message?.reply_markup) return;
    await ctx.editMessageReplyMarkup().catch((error: unknown) => {
      if (!isNotModified(error) && !isUneditable(error)) throw error;
    });
  });

  return { composer, routes: { commands: ["cancel"], callbacks: [cancelData, orderStepData, linkData] } };
}
