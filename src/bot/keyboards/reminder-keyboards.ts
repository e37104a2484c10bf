import { InlineKeyboard } from "grammy";
import { remindData, resendData } from "../callback-data/expiry.js";
import type { Translator } from "../helpers/record-text.js";

/** The expiry reminder's switch and the Resend button, as the finished cards of orders and broadcasts carry them. */

/** The switch shows what a tap does: "⏰ Remind me" while none is scheduled, "🔕 No reminder" while one is. */
export function reminderToggleButton(tr: Translator, orderId: string, scheduled: boolean): { text: string; callback_data: string } {
  return scheduled
    ? { text: tr.t("expiry-remind-off-button"), callback_data: remindData.pack({ orderId, value: "off" }) }
    : { text: tr.t("expiry-remind-on-button"), callback_data: remindData.pack({ orderId, value: "on" }) };
}

export function createResendKeyboard(tr: Translator, broadcastId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("expiry-resend-button"), resendData.pack({ broadcastId }));
}
