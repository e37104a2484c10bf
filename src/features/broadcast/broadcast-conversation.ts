import { checkBroadcast, isResubmittable, type CheckOutcome } from "../../shared/broadcasts/check-broadcast.js";
import type { ConversationContext } from "../../bot/context.js";
import { readDocument } from "../../bot/helpers/document.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { refusalText, summaryText } from "./broadcast-texts.js";
import { statusText } from "../../bot/helpers/record-text.js";
import { createBroadcastConfirmKeyboard, createBroadcastFlowCancelKeyboard } from "./broadcast-keyboards.js";
import type { BotDeps } from "../../bot/deps.js";
import { waitStep, type FlowConversation } from "../../bot/conversations/steps.js";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";

/** Replies with the summary and its Confirm/Cancel buttons, or the refusal, or the earlier broadcast. The summary's message id. */
export async function replyWithCheck(ctx: Pick<ConversationContext, "t" | "reply">, outcome: CheckOutcome, locale: string): Promise<number | undefined> {
  const { result, prior } = outcome;
  if (!result.ok) {
    await ctx.reply(refusalText(ctx, result), HTML);
    return undefined;
  }
  const priorVars = prior
    ? { broadcastId: code(prior.broadcastId), status: statusText(ctx, prior.status), track: code(`/track ${prior.broadcastId}`) }
    : undefined;
  if (prior && priorVars && !isResubmittable(prior.status)) {
    await ctx.reply(translate(ctx, "broadcast-known-active", { ...priorVars, txId: code(result.draft.summary.txId) }), HTML);
    return undefined;
  }
  const { draft, nowMs, baseUnitPriceSun } = result;
  const lines = [summaryText(ctx, draft.summary, locale, nowMs, baseUnitPriceSun)];
  if (prior && priorVars) lines.push(translate(ctx, prior.status === "expired" ? "broadcast-known-expired" : "broadcast-known-failed", priorVars));
  const message = await ctx.reply(lines.join("\n\n"), {
    ...HTML,
    reply_markup: createBroadcastConfirmKeyboard(ctx, draft.draftId),
  });
  return message.message_id;
}

/**
 * Guided /broadcast: asks for the signed transaction (JSON text or a .json
 * document), checks it locally and shows the summary. A refused one can be
 * corrected and sent again; Confirm is handled outside the flow.
 */
export function createBroadcastConversation(deps: BotDeps) {
  return async function broadcast(conversation: FlowConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const locale = await ctx.i18n.getLocale();
    const prompt = await sendStepPrompt(conversation, ctx, translate(ctx, "broadcast-ask"), {
      ...HTML,
      reply_markup: createBroadcastFlowCancelKeyboard(ctx, flow),
    });
    for (;;) {
      const input = await waitStep(conversation, flow, "broadcast");
      let text: string;
      if (input.kind === "document") {
        const { fileId, fileSize } = input;
        // The outside context's api: a Bot API call through the conversation's own ctx inside `external` never settles (the chat locks).
        const read = await conversation.external((outside) =>
          readDocument(outside.api, { file_id: fileId, ...(fileSize === undefined ? {} : { file_size: fileSize }) }, deps.logger),
        );
        if (!read.ok) {
          await ctx.reply(translate(ctx, read.reason === "too_large" ? "broadcast-refused-too-large" : "order-document-unreadable"), HTML);
          continue;
        }
        text = read.text;
      } else if (input.kind === "text") text = input.text;
      else continue;
      const outcome = await conversation.external(async () => checkBroadcast({ ...deps, ...deps.flows }, chatId, await deps.chats.open(chatId), text));
      if (!outcome.result.ok) {
        await replyWithCheck(ctx, outcome, locale);
        continue;
      }
      // The flow ends here: its Cancel would now have nothing to cancel.
      await closeStepPrompt(conversation, ctx, deps, prompt);
      const messageId = await replyWithCheck(ctx, outcome, locale);
      if (outcome.result.ok && messageId !== undefined) {
        const draftId = outcome.result.draft.draftId;
        await conversation.external(() => deps.flows.drafts.update(draftId, (d) => ({ ...d, messageId })));
      }
      return;
    }
  };
}
