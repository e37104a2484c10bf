import type { KeepPlans } from "./keep-plans.js";
import type { ConversationContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { askAmount, askDuration, askReceiver, type FlowConversation } from "../../bot/conversations/steps.js";
import { proposeKeepPlan } from "./keep-options.js";

/**
 * Guided /keep (the "➕ New plan" button): receiver (recent receivers and
 * labels as buttons), amount, duration (tier buttons), then its limits as
 * buttons or typed options (keep-options.ts), and the proposal with its
 * price; Start is a button outside the flow, so a proposal outlives it.
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
    await proposeKeepPlan(conversation, ctx, deps, { flow, chatId, address, amount, durationSec, pricing, locale });
  };
}
