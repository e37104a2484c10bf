import { I18n } from "@grammyjs/i18n";
import type { Logger } from "pino";
import type { SupportedLocale } from "../../config.js";
import type { ChatRepository } from "../../core/chats/chat-repository.js";
import type { PushQueue } from "../../core/push/index.js";
import type { CreditedEvent } from "../../core/topup/balance-watcher.js";
import { LOCALES_DIRECTORY } from "../i18n.js";
import { HTML } from "../helpers/html.js";
import type { Translator } from "../helpers/record-text.js";
import { creditedMessage } from "../helpers/top-up-text.js";

export interface TopUpNotifierDeps {
  push: Pick<PushQueue, "enqueue">;
  chats: Pick<ChatRepository, "get">;
  defaultLocale: SupportedLocale;
  logger: Logger;
  /** Defaults to the repository's locales/. */
  localesDirectory?: string;
}

/**
 * "Top-up credited, tap Confirm/Retry" as a new message through the push
 * queue. The job id comes from the watch, so the message goes out once even
 * when the watcher offers it again after a crash.
 */
export function createTopUpNotifier(deps: TopUpNotifierDeps): { onCredited(event: CreditedEvent): Promise<void> } {
  const i18n = new I18n({ defaultLocale: deps.defaultLocale, directory: deps.localesDirectory ?? LOCALES_DIRECTORY, fluentBundleOptions: { useIsolating: false } });
  return {
    async onCredited({ watch, availableSun, announcementId }) {
      const chat = await deps.chats.get(watch.chatId);
      // A blocked chat would only bounce; the quote's own buttons still work if the user comes back.
      if (chat?.active === false) return;
      const locale = chat?.locale ?? watch.locale ?? deps.defaultLocale;
      const tr: Translator = { t: (key, vars) => i18n.t(locale, key, vars) };
      const { text, keyboard } = creditedMessage(tr, watch, availableSun, locale);
      await deps.push.enqueue({
        id: announcementId,
        chatId: watch.chatId,
        method: "sendMessage",
        params: { chat_id: watch.chatId, text, ...HTML, reply_markup: { inline_keyboard: keyboard.inline_keyboard } },
      });
    },
  };
}
