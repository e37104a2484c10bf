import type { WatchEvent } from "./balance-account-watch.js";
import type { NotifierDeps } from "../../bot/helpers/notifier-deps.js";
import { pushLinksMarkup } from "../../bot/keyboards/links.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { backgroundLocale } from "../../bot/i18n.js";

export type BalanceNotifierDeps = NotifierDeps;

/**
 * The balance watch's news as new messages through the push queue: a
 * deposit, a balance below the chat's threshold, a charge the bot did not
 * make. The event's id is the job id, so a reading judged twice (a crash,
 * two processes) is told once.
 */
export interface BalanceNotifier {
  announce(event: WatchEvent): Promise<void>;
}

/** The deposit notice. */
function depositText(tr: Translator, depositSun: bigint, balanceSun: bigint, locale: string): string {
  return translate(tr, "alerts-deposit", { amountTrx: formatTrx(depositSun, locale), balanceTrx: formatTrx(balanceSun, locale) });
}

export function createBalanceNotifier(deps: BalanceNotifierDeps): BalanceNotifier {
  return {
    async announce(event) {
      const chat = await deps.chats.get(event.chatId);
      // A blocked chat would only bounce.
      if (chat?.active === false) return;
      const locale = backgroundLocale(chat, deps.defaultLocale);
      const tr: Translator = { t: (key, vars) => deps.i18n.t(locale, key, vars) };
      let text: string;
      if (event.kind === "deposit") text = depositText(tr, event.depositSun, event.balanceSun, locale);
      else if (event.kind === "low")
        text = translate(tr, "alerts-low", { balanceTrx: formatTrx(event.balanceSun, locale), thresholdTrx: formatTrx(event.thresholdSun, locale) });
      else text = translate(tr, "alerts-foreign", { amountTrx: formatTrx(event.droppedSun, locale), balanceTrx: formatTrx(event.balanceSun, locale) });
      // "Revoke the key in the dashboard": its button, when DASHBOARD_URL is set.
      const links = event.kind === "foreign" ? pushLinksMarkup(tr, deps.links, "alerts-foreign") : {};
      await deps.push.enqueue({ id: event.id, chatId: event.chatId, method: "sendMessage", params: { chat_id: event.chatId, text, ...HTML, ...links } });
    },
  };
}
