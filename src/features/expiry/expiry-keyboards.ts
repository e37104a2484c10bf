import { InlineKeyboard } from "grammy";
import { rentAgainData } from "../../bot/callback-data/order.js";
import { keepOrderData } from "../../bot/callback-data/keep.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** The reminder's buttons: the same order again (a fresh quote), or a keep-charged plan for it. */
export function createReminderKeyboard(tr: Translator, orderId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("expiry-extend-button"), rentAgainData.pack({ orderId }))
    .text(tr.t("expiry-keep-button"), keepOrderData.pack({ orderId }));
}
