import { InlineKeyboard } from "grammy";
import { draftData } from "../callback-data/broadcast.js";
import { topUpData } from "../callback-data/top-up.js";
import type { Translator } from "../helpers/record-text.js";
import { quoteData } from "../callback-data/order.js";

/**
 * The buttons that resolve a quote or a draft that failed or that the balance cannot cover, wherever it is told: the
 * card itself, the tracking notifier, /send and the top-up card.
 */

/** Confirm first, Cancel last. */
export function createQuoteKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("order-quote-confirm-button"), quoteData.pack({ quoteId, action: "c" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** After a 402: Top up first, Retry (same key) for when the money is there, Cancel last. */
export function createTopUpRetryKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "o", refId: quoteId }))
    .row()
    .text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "r" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** Retry sends the same quote with the same Idempotency-Key. */
export function createRetryKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "r" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

export function createBroadcastRetryKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("broadcast-retry-button"), draftData.pack({ draftId, action: "r" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}

/** After a 402: Top up first, then Retry and Cancel. */
export function createBroadcastTopUpKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "b", refId: draftId }))
    .row()
    .text(tr.t("broadcast-retry-button"), draftData.pack({ draftId, action: "r" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}
