import type { Api } from "grammy";
import { HTML, translate } from "../../bot/helpers/html.js";
import type { Translations } from "../../bot/i18n.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/**
 * The message a plan started outside the chat (the Mini App's New plan) becomes the card of, as a proposal
 * tapped ✅ Start on does: sent before the plan exists, so the plan is made with its `cardMessageId` and the
 * card notifier draws the card over it like any other. Sent through the bot's own API handle, not the push
 * queue, because the plan needs the message's id and the queue hands none back.
 */
export type KeepCardOpener = (chatId: number, locale: string) => Promise<number>;

export function createKeepCardOpener(deps: { api: Pick<Api, "sendMessage">; i18n: Translations }): KeepCardOpener {
  return async (chatId, locale) => {
    const tr: Translator = { t: (key, vars) => deps.i18n.t(locale, key, vars) };
    const sent = await deps.api.sendMessage(chatId, translate(tr, "keep-started-app"), HTML);
    return sent.message_id;
  };
}
