import type { ExpiryReminder } from "./expiry-reminders.js";
import { notifierZone, type NotifierDeps } from "../../bot/helpers/notifier-deps.js";
import { zoneOfferRow } from "../../bot/keyboards/zone-offer.js";
import { expiryReminderText } from "../../bot/helpers/expiry-text.js";
import { HTML } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { createReminderKeyboard } from "./expiry-keyboards.js";
import { backgroundLocale } from "../../bot/i18n.js";

export interface ExpiryNotifierDeps extends NotifierDeps {
  now?: () => number;
}

export interface ExpiryNotifier {
  /** "Energy for <address> ends at 14:05 UTC+3 …" (the chat's zone) with Extend and Keep charged, once per order (the job id). */
  onReminder(reminder: ExpiryReminder): Promise<void>;
}

export function createExpiryNotifier(deps: ExpiryNotifierDeps): ExpiryNotifier {
  const now = deps.now ?? Date.now;
  const { i18n } = deps;
  return {
    async onReminder(reminder) {
      const { chatId, orderId } = reminder;
      const [chat, zone] = await Promise.all([deps.chats.get(chatId), notifierZone(deps, chatId)]);
      // A blocked chat would only bounce.
      if (chat?.active === false) return;
      const locale = backgroundLocale(chat, deps.defaultLocale, reminder.locale);
      const tr: Translator = { t: (key, vars) => i18n.t(locale, key, vars) };
      const nowMs = now();
      const text = expiryReminderText(tr, reminder, nowMs, locale, zone.zone);
      const offer = zoneOfferRow(tr, locale, chatId, zone, nowMs, { on: "reminder", orderId });
      const keyboard = [...createReminderKeyboard(tr, orderId).inline_keyboard, ...(offer.length === 0 ? [] : [offer])];
      await deps.push.enqueue({
        id: `expiry-${chatId}-${orderId}`,
        chatId,
        method: "sendMessage",
        params: { chat_id: chatId, text, ...HTML, reply_markup: { inline_keyboard: keyboard } },
      });
    },
  };
}
