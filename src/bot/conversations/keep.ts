import { InlineKeyboard } from "grammy";
import { parseKeepOptions, type KeepOptions } from "../../core/autopilot/keep-input.js";
import type { KeepPlans } from "../../core/autopilot/keep-plans.js";
import { cancelData } from "../callback-data/cancel.js";
import { orderStepData } from "../callback-data/order.js";
import type { ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { echo } from "../helpers/echo.js";
import { beginFlowInstance } from "../helpers/flow-instance.js";
import { HTML, translate } from "../helpers/html.js";
import { closeStepPrompt, sendStepPrompt } from "../helpers/step-prompt.js";
import { askAmount, askDuration, askReceiver, waitStep, type FlowConversation } from "./order-steps.js";
import { saveKeepDraft } from "../helpers/keep-propose.js";
import { keepDraftText } from "../helpers/keep-text.js";
import { createKeepDraftKeyboard } from "../keyboards/keep.js";

export const KEEP_CONVERSATION = "keep";

function optionsKeyboard(tr: Pick<ConversationContext, "t">, flow: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("keep-options-none-button"), orderStepData.pack({ flow, action: "k", value: "0" }))
    .row()
    .text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}

/**
 * Guided /keep (the "➕ New plan" button): receiver (recent receivers and
 * labels as buttons), amount, duration (tier buttons), then the options or
 * "until stopped, no limits", and the proposal with its price; Start is a
 * button outside the flow, so a proposal outlives it.
 */
export function createKeepConversation(deps: BotDeps & { keep: KeepPlans }) {
  return async function keep(conversation: FlowConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const pricing = await conversation.external(() => deps.pricing.get());
    const locale = await ctx.i18n.getLocale();
    let address: string | undefined;
    while (address === undefined) {
      const receiver = await askReceiver(conversation, ctx, deps, flow, chatId);
      if (receiver.kind === "address") address = receiver.address;
      else await ctx.reply(translate(ctx, "keep-one-receiver"), HTML);
    }
    const amount = await askAmount(conversation, ctx, deps, flow, pricing, locale);
    const durationSec = await askDuration(conversation, ctx, deps, flow, pricing);
    // A plan without tz= counts its days and hours where the chat's times are shown.
    const chatZone = await conversation.external(() => deps.flows.limits.timeZoneOf(chatId));
    const prompt = await sendStepPrompt(conversation, ctx, translate(ctx, "keep-ask-options"), { ...HTML, reply_markup: optionsKeyboard(ctx, flow) });
    let options: KeepOptions | undefined;
    while (options === undefined) {
      const input = await waitStep(conversation, flow, "options");
      if (input.kind === "button" && input.action === "k") options = { timeZone: chatZone };
      else if (input.kind === "text") {
        const nowMs = await conversation.now();
        const read = parseKeepOptions(input.text, nowMs, locale, chatZone);
        if (read.ok && read.rest.length === 0) options = read.options;
        else
          await ctx.reply(
            translate(ctx, read.ok ? "keep-bad-unknown" : `keep-bad-${read.option}`, { value: echo(read.ok ? read.rest.join(" ") : read.value) }),
            HTML,
          );
      }
    }
    await closeStepPrompt(conversation, ctx, deps, prompt);
    const chosen = options;
    const draft = await conversation.external(() =>
      saveKeepDraft(deps.keep, deps.flows.now(), pricing, {
        chatId,
        address,
        amount,
        durationSec,
        timeZone: chosen.timeZone,
        ...(chosen.endsAtMs === undefined ? {} : { endsAtMs: chosen.endsAtMs }),
        ...(chosen.dailyCapSun === undefined ? {} : { dailyCapSun: chosen.dailyCapSun.toString() }),
        ...(chosen.activeHours === undefined ? {} : { activeHours: chosen.activeHours }),
      }),
    );
    if (draft === undefined) {
      await ctx.reply(translate(ctx, "keep-usage", { durations: "-" }), HTML);
      return;
    }
    const nowMs = await conversation.now();
    await ctx.reply(keepDraftText(ctx, draft, { nowMs, locale, timeZone: chatZone }), { ...HTML, reply_markup: createKeepDraftKeyboard(ctx, draft.draftId) });
  };
}
