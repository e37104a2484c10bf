import { InlineKeyboard } from "grammy";
import { rentAgainData } from "../order/index.js";
import { remindData, resendData } from "./expiry-callback-data.js";
import { keepOrderData } from "../keep/index.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** The switch shows what a tap does: "⏰ Remind me" while none is scheduled, "🔕 No reminder" while one is. */
export function reminderToggleButton(tr: Translator, orderId: string, scheduled: boolean): { text: string; callback_data: string } {
  return scheduled
    ? { text: tr.t("expiry-remind-off-button"), callback_data: remindData.pack({ orderId, value: "off" }) }
    : { text: tr.t("expiry-remind-on-button"), callback_data: remindData.pack({ orderId, value: "on" }) };
}

/** The reminder's buttons: the same order again (a fresh quote), or a keep-charged plan for it. */
export function createReminderKeyboard(tr: Translator, orderId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("expiry-extend-button"), rentAgainData.pack({ orderId }))
    .text(tr.t("expiry-keep-button"), keepOrderData.pack({ orderId }));
}

export function createResendKeyboard(tr: Translator, broadcastId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("expiry-resend-button"), resendData.pack({ broadcastId }));
}
