import { randomBytes } from "node:crypto";
import type { ConversationContext } from "../context.js";
import { readDocument } from "../helpers/document.js";
import { HTML, translate } from "../helpers/html.js";
import { checkSignedTx, refusalText, summaryText, type CheckResult } from "../helpers/broadcast-text.js";
import { createBroadcastConfirmKeyboard, createBroadcastFlowCancelKeyboard } from "../keyboards/broadcast.js";
import type { FlowDeps } from "./flow-deps.js";
import { waitStep, type FlowConversation } from "./order-steps.js";

export const BROADCAST_CONVERSATION = "broadcast";

/** Replies with the summary and its Confirm/Cancel buttons, or the refusal. True when a summary was shown. */
export async function replyWithCheck(ctx: Pick<ConversationContext, "t" | "reply">, result: CheckResult, locale: string): Promise<number | undefined> {
  if (!result.ok) {
    await ctx.reply(refusalText(ctx, result), HTML);
    return undefined;
  }
  const { draft, nowMs, baseUnitPriceSun } = result;
  const message = await ctx.reply(summaryText(ctx, draft.summary, locale, nowMs, baseUnitPriceSun), {
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
export function createBroadcastConversation(deps: FlowDeps) {
  return async function broadcast(conversation: FlowConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await conversation.external(() => randomBytes(4).toString("hex"));
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(translate(ctx, "broadcast-ask"), { ...HTML, reply_markup: createBroadcastFlowCancelKeyboard(ctx) });
    for (;;) {
      const input = await waitStep(conversation, flow);
      let text: string;
      if (input.kind === "document") {
        const { fileId, fileSize } = input;
        const read = await conversation.external(() => readDocument(input.ctx.api, { file_id: fileId, ...(fileSize === undefined ? {} : { file_size: fileSize }) }, deps.logger));
        if (!read.ok) {
          await ctx.reply(translate(ctx, read.reason === "too_large" ? "broadcast-refused-too-large" : "order-document-unreadable"), HTML);
          continue;
        }
        text = read.text;
      } else if (input.kind === "text") text = input.text;
      else continue;
      const result = await conversation.external(() => checkSignedTx(deps, chatId, text));
      const messageId = await replyWithCheck(ctx, result, locale);
      if (result.ok && messageId !== undefined) {
        const draftId = result.draft.draftId;
        await conversation.external(() => deps.flows.drafts.update(draftId, (d) => ({ ...d, messageId })));
        return;
      }
    }
  };
}

