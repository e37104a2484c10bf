import type { ConversationContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { labelledAddressText, listScreen } from "./addresses-texts.js";
import { addressBookRefusalText } from "../../bot/helpers/refusal-texts.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { code, html, HTML, translate, type TextVars } from "../../bot/helpers/html.js";
import { createCancelOnlyKeyboard } from "../../bot/keyboards/step-keyboards.js";
import { closeShown, waitStep, type FlowConversation, type ShownMessage } from "../../bot/conversations/steps.js";
import { isValidTronAddress } from "../../shared/tron/index.js";
import { sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import type { AddressesConversationArgs } from "../../bot/conversations/flow-ids.js";

/** ➕ Add asks for the address, then the label; Rename asks for the label only. Every refusal says why and asks again. */
export function createAddressesConversation(deps: BotDeps) {
  return async function addresses(conversation: FlowConversation, ctx: ConversationContext, args: AddressesConversationArgs = {}): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    /** The steps' prompts (sent once their step is stored) and the refusals within a step; all carry Cancel. */
    const prompts: ShownMessage[] = [];
    const ask = async (key: string, vars: TextVars = {}) => {
      prompts.push(await sendStepPrompt(conversation, ctx, translate(ctx, key, vars), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) }));
    };
    const askAgain = async (reason: string) => {
      prompts.push(
        (await ctx.reply(translate(ctx, "addresses-ask-again", { reason: html(reason) }), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) }))
          .message_id,
      );
    };
    let address = args.rename ?? (args.add !== undefined && isValidTronAddress(args.add) ? args.add : undefined);
    if (address === undefined) {
      await ask("addresses-ask-address");
      for (;;) {
        const input = await waitStep(conversation, flow, "receiver");
        if (input.kind !== "text") continue;
        const typed = input.text.trim();
        if (isValidTronAddress(typed)) {
          address = typed;
          break;
        }
        await askAgain(addressBookRefusalText(ctx, "bad_address", typed));
      }
    }
    const target = address;
    await ask(args.rename === undefined ? "addresses-ask-label" : "addresses-ask-new-label", { address: code(target) });
    for (;;) {
      const input = await waitStep(conversation, flow, "options");
      if (input.kind !== "text") continue;
      const typed = input.text;
      const result = await conversation.external(() =>
        args.rename === undefined ? deps.flows.addressBook.add(chatId, target, typed, deps.flows.now()) : deps.flows.addressBook.rename(chatId, target, typed),
      );
      if (result.ok) {
        await closeShown(conversation, ctx, deps, prompts);
        await ctx.reply(translate(ctx, "addresses-saved", { entry: html(labelledAddressText(ctx, result.entry)) }), HTML);
        if (args.card !== undefined) {
          const card = args.card;
          const screen = listScreen(ctx, await conversation.external(() => deps.flows.addressBook.labelled(chatId)), 0);
          await ctx.api.editMessageText(chatId, card, screen.text, { ...HTML, reply_markup: screen.keyboard }).catch((error: unknown) => {
            // Deleted meanwhile, or already showing it: the saved reply above says it all.
            ctx.logger.debug({ err: error }, "the address book card could not be redrawn");
          });
        }
        return;
      }
      if (result.reason === "not_found") {
        await closeShown(conversation, ctx, deps, prompts);
        await ctx.reply(translate(ctx, "addresses-gone"), HTML);
        return;
      }
      await askAgain(addressBookRefusalText(ctx, result.reason, typed));
    }
  };
}
