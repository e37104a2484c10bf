import { InlineKeyboard } from "grammy";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { draftData } from "./broadcast-callback-data.js";
import { topUpData } from "../balance/index.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** Confirm first, Cancel last. */
export function createBroadcastConfirmKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("broadcast-confirm-button"), draftData.pack({ draftId, action: "c" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}

export function createBroadcastRetryKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("broadcast-retry-button"), draftData.pack({ draftId, action: "r" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}

export function createBroadcastFlowCancelKeyboard(tr: Translator, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("broadcast-cancel-button"), cancelData.pack({ flow: "broadcast", instance: flow }));
}

/** After a 402: Top up first, then Retry and Cancel. */
export function createBroadcastTopUpKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "b", refId: draftId }))
    .row()
    .text(tr.t("broadcast-retry-button"), draftData.pack({ draftId, action: "r" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}
