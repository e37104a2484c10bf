import { isQuoteExpired } from "../../shared/orders/quote.js";
import type { Flows } from "../../shared/flows.js";
import type { BotContext } from "../context.js";
import { editIgnoringUnchanged, isUneditable } from "./edit.js";
import { HTML, translate } from "./html.js";

/**
 * /cancel also takes back what the chat was about to confirm: every open
 * quote and broadcast summary of the chat is cancelled (so its Confirm
 * charges nothing and says so) and its message loses its buttons. Returns
 * how many were still live (an expired quote is voided without being counted).
 */
export async function voidOpenOffers(ctx: BotContext, flows: Flows, chatId: number): Promise<number> {
  let live = 0;
  for (const quoteId of await flows.quotes.recentIds(chatId)) {
    const quote = await flows.quotes.get(quoteId);
    if (quote?.state !== "open" || quote.chatId !== chatId) continue;
    const cancelled = await flows.placer.cancel(chatId, quoteId);
    if (cancelled?.state !== "cancelled") continue;
    if (!isQuoteExpired(quote, flows.now())) live += 1;
    if (quote.messageId !== undefined) await redraw(ctx, chatId, quote.messageId, translate(ctx, "order-quote-cancelled"));
  }
  for (const draftId of await flows.drafts.recentIds(chatId)) {
    const draft = await flows.drafts.get(draftId);
    if (draft?.state !== "open" || draft.chatId !== chatId) continue;
    const cancelled = await flows.submitter.cancel(chatId, draftId);
    if (cancelled?.state !== "cancelled") continue;
    live += 1;
    if (draft.messageId !== undefined) await redraw(ctx, chatId, draft.messageId, translate(ctx, "broadcast-cancelled"));
  }
  return live;
}

/** The offer's message says it was cancelled; one the user deleted (or too old to edit) stays as it is. */
async function redraw(ctx: BotContext, chatId: number, messageId: number, text: string): Promise<void> {
  try {
    await editIgnoringUnchanged(() => ctx.api.editMessageText(chatId, messageId, text, HTML));
  } catch (error) {
    if (!isUneditable(error)) throw error;
    ctx.logger.info({ messageId }, "a cancelled offer's message could not be edited");
  }
}
