import type { CreditedEvent } from "./top-up-watcher.js";
import type { NotifierDeps } from "../../bot/helpers/notifier-deps.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { creditedMessage } from "./top-up-texts.js";
import { backgroundLocale } from "../../bot/i18n.js";

export type TopUpNotifierDeps = NotifierDeps;

/**
 * "Top-up credited, tap Confirm/Retry" as a new message through the push
 * queue. The job id comes from the watch, so the message goes out once even
 * when the watcher offers it again after a crash.
 */
export interface TopUpNotifier {
  onCredited(event: CreditedEvent): Promise<void>;
}

export function createTopUpNotifier(deps: TopUpNotifierDeps): TopUpNotifier {
  const { i18n } = deps;
  return {
    async onCredited({ watch, availableSun, announcementId, depositSun }) {
      const chat = await deps.chats.get(watch.chatId);
      // A blocked chat would only bounce; the quote's own buttons still work if the user comes back.
      if (chat?.active === false) return;
      const locale = backgroundLocale(chat, deps.defaultLocale, watch.locale);
      const tr: Translator = { t: (key, vars) => i18n.t(locale, key, vars) };
      const credited = creditedMessage(tr, watch, availableSun, locale);
      const { keyboard } = credited;
      // The deposit that covered it, when the balance watch saw one: one message for one deposit.
      const text =
        depositSun === undefined ? credited.text : `${credited.text}\n${translate(tr, "alerts-deposit-line", { amountTrx: formatTrx(depositSun, locale) })}`;
      await deps.push.enqueue({
        id: announcementId,
        chatId: watch.chatId,
        method: "sendMessage",
        params: { chat_id: watch.chatId, text, ...HTML, reply_markup: { inline_keyboard: keyboard.inline_keyboard } },
      });
    },
  };
}
