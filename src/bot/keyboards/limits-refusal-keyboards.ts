import { InlineKeyboard } from "grammy";
import type { SpendRefusal } from "../../shared/limits/spend-guard.js";
import { limitsData } from "../callback-data/limits.js";
import { draftData } from "../callback-data/broadcast.js";
import { quoteData } from "../callback-data/order.js";
import type { Translator } from "../helpers/record-text.js";

/** The buttons that resolve a spend the limits refused or hold for a second tap, under the order, broadcast, send, keep or reminder that asked. */

/** The second tap on a quote above the threshold: the same quote (and key), confirmed again. */
export function createQuoteConfirmAgainKeyboard(tr: Translator, quoteId: string, costTrx: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("limits-confirm-again-button", { costTrx }), quoteData.pack({ quoteId, action: "a" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** The second tap on a broadcast whose fee is above the threshold. */
export function createDraftConfirmAgainKeyboard(tr: Translator, draftId: string, costTrx: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("limits-confirm-again-button", { costTrx }), draftData.pack({ draftId, action: "a" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}

/** A Confirm the limits refused: the button that resolves it (Unfreeze, which quotes again on this message, or the limits card). */
export function createLimitRefusalKeyboard(tr: Translator, quoteId: string, refusal: SpendRefusal): InlineKeyboard {
  return refusal.reason === "frozen"
    ? new InlineKeyboard().text(tr.t("order-quote-unfreeze-button"), quoteData.pack({ quoteId, action: "u" }))
    : new InlineKeyboard().text(tr.t("order-quote-limits-button"), limitsData.pack({ action: "s" }));
}

/** A spend the limits refused outside a quote (a broadcast, a resend): Unfreeze, or the limits card. */
export function createLimitsFixKeyboard(tr: Translator, refusal: SpendRefusal): InlineKeyboard {
  return refusal.reason === "frozen"
    ? new InlineKeyboard().text(tr.t("limits-unfreeze-button"), limitsData.pack({ action: "u" }))
    : new InlineKeyboard().text(tr.t("order-quote-limits-button"), limitsData.pack({ action: "s" }));
}
