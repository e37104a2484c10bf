import { InlineKeyboard } from "grammy";
import type { InlineKeyboardMarkup as Markup } from "grammy/types";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { createCancelOnlyKeyboard, createReceiverKeyboard } from "../../bot/keyboards/step-keyboards.js";
import { closeShown, waitStep, type FlowConversation, type ShownMessage } from "../../bot/conversations/steps.js";
import { orderStepData } from "../../bot/callback-data/order.js";
import type { ConversationContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../../shared/burn-saving.js";
import { formatDecimal } from "../../shared/money.js";
import type { SendFeatureDeps } from "./send-feature.js";
import { prepareSendQuote } from "./send-quote.js";
import type { SendConversationArgs } from "../../bot/conversations/flow-ids.js";

/** Amounts people send most, one tap each. */
const AMOUNT_PRESETS = ["10", "50", "100", "500", "1000"] as const;

function amountKeyboard(tr: Pick<ConversationContext, "t">, flow: string, locale: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const preset of AMOUNT_PRESETS) kb.text(`${formatDecimal(preset, locale)} USDT`, orderStepData.pack({ flow, action: "u", value: preset }));
  return kb.row().text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}

/**
 * Guided /send (the ✉️ Send USDT button, or `/send` without an amount): the recipient (recent and saved
 * addresses as buttons, or pasted), then the amount (presets or typed), then the same quote as the one-line
 * command. Every wrong answer says what is wrong and asks again.
 */
export function createSendConversation(deps: BotDeps & { send: SendFeatureDeps }) {
  const burnPriceSun = deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN;
  const quoteDeps = {
    intents: deps.send.intents,
    addressBook: deps.flows.addressBook,
    pricing: deps.pricing,
    usdtContract: deps.send.network.usdtContract,
    burnPriceSun,
    now: deps.flows.now,
  };
  return async function send(conversation: FlowConversation, ctx: ConversationContext, args: SendConversationArgs = {}): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const locale = await ctx.i18n.getLocale();
    const linkId = await conversation.external(async () => (await deps.chats.get(chatId))?.linkId);
    const shown: ShownMessage[] = [];

    let to = args.who === undefined ? undefined : await conversation.external(() => deps.flows.addressBook.resolve(chatId, args.who!));
    if (to === undefined) {
      const recent = await conversation.external(() => deps.flows.addressBook.list(chatId));
      if (args.who !== undefined) await ctx.reply(translate(ctx, "send-bad-recipient", { text: args.who }), HTML);
      const question = translate(ctx, "send-ask-recipient");
      shown.push(await sendStepPrompt(conversation, ctx, question, { ...HTML, reply_markup: createReceiverKeyboard(ctx, flow, recent) }));
      while (to === undefined) {
        const input = await waitStep(conversation, flow, "receiver");
        if (input.kind === "button") {
          to = input.action === "a" ? recent[Number(input.value)]?.address : undefined;
          continue;
        }
        if (input.kind !== "text") continue;
        const typed = input.text.trim();
        to = await conversation.external(() => deps.flows.addressBook.resolve(chatId, typed));
        if (to === undefined) {
          shown.push(
            (await ctx.reply(translate(ctx, "send-bad-recipient", { text: typed }), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) })).message_id,
          );
        }
      }
      await closeShown(conversation, ctx, deps, shown.splice(0), { prompt: question, answer: to });
    }
    const recipient = to;

    const amountQuestion = translate(ctx, "send-ask-amount", { address: code(recipient) });
    shown.push(
      await sendStepPrompt(conversation, ctx, amountQuestion, {
        ...HTML,
        reply_markup: amountKeyboard(ctx, flow, locale),
      }),
    );
    for (;;) {
      const input = await waitStep(conversation, flow, "amount");
      let amountText: string;
      if (input.kind === "button" && input.action === "u") amountText = input.value;
      else if (input.kind === "text") amountText = input.text;
      else continue;
      const prepared = await conversation.external(() => prepareSendQuote(quoteDeps, ctx, { chatId, linkId, who: recipient, amountText, locale }));
      if (!prepared.ok) {
        shown.push((await ctx.reply(prepared.text, { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) })).message_id);
        continue;
      }
      await closeShown(conversation, ctx, deps, shown, { prompt: amountQuestion, answer: `${amountText.trim()} USDT` });
      const sent = await ctx.reply(prepared.text, { ...HTML, reply_markup: prepared.reply_markup as Markup });
      await conversation.external(() => deps.send.intents.update(prepared.intentId, (i) => ({ ...i, messageId: sent.message_id })));
      return;
    }
  };
}
