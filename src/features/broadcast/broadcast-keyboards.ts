import { InlineKeyboard } from "grammy";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { draftData } from "../../bot/callback-data/broadcast.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** Confirm first, Cancel last. */
export function createBroadcastConfirmKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("broadcast-confirm-button"), draftData.pack({ draftId, action: "c" }))
    .text(tr.t("broadcast-cancel-button"), draftData.pack({ draftId, action: "x" }));
}

export function createBroadcastFlowCancelKeyboard(tr: Translator, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("broadcast-cancel-button"), cancelData.pack({ flow: "broadcast", instance: flow }));
}
