import type { InlineKeyboard } from "grammy";
import type { KeepEvent } from "./keep-step.js";
import { pushLinksMarkup } from "../../bot/keyboards/links.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { keepTime, type KeepClock } from "./keep-texts.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";
import { createKeepResumeKeyboard } from "./keep-keyboards.js";
import { notifierZone, type NotifierDeps } from "../../bot/helpers/notifier-deps.js";
import { backgroundLocale } from "../../bot/i18n.js";

/**
 * What a plan tells its chat by itself (paused for money with the top-up
 * advice, resumed after a top-up, held at its daily cap, stopped and why),
 * through the push queue under the event's id: once per transition, also
 * when a crash makes the scheduler repeat it: these need the user, so each is
 * a message of its own, replying to the plan's card in the plan's chat.
 * Renewals themselves are no message: they are the card's digest
 * (keep-card-notifier.ts), and the account's other chats hear only these
 * notices.
 */
export interface KeepNotifier {
  onEvent(event: KeepEvent): Promise<void>;
}

function render(tr: Translator, event: KeepEvent, clock: KeepClock): { text: string; keyboard?: InlineKeyboard } {
  const { plan } = event;
  const { locale } = clock;
  const address = code(plan.address);
  switch (event.kind) {
    case "paused-balance": {
      const required = BigInt(event.requiredSun);
      const lines = [translate(tr, "keep-paused-balance", { address, requiredTrx: formatTrx(required, locale) })];
      if (event.noWallet) lines.push(translate(tr, "topup-no-address"));
      else if (event.balance) {
        const advice = topUpAdvice(required, BigInt(event.balance.availableSun));
        if (!advice.covered) lines.push(topUpAdviceText(tr, advice, event.balance.depositAddress, locale));
      }
      lines.push(translate(tr, "keep-paused-balance-resumes"));
      return { text: lines.join("\n"), keyboard: createKeepResumeKeyboard(tr, plan.planId) };
    }
    case "resumed-balance":
      return { text: translate(tr, "keep-resumed-balance", { address, availableTrx: formatTrx(event.availableSun, locale) }) };
    case "paused-limits":
      return { text: translate(tr, `keep-paused-${event.reason}`, { address }), keyboard: createKeepResumeKeyboard(tr, plan.planId) };
    case "capped":
      return {
        text: translate(tr, "keep-capped", {
          address,
          capTrx: formatTrx(BigInt(plan.dailyCapSun ?? "0"), locale),
          at: keepTime(event.resumesAtMs, clock),
        }),
      };
    case "stopped":
      return { text: translate(tr, `keep-stopped-${plan.stopReason ?? "user"}`, { address, code: code(plan.reasonCode ?? "-") }) };
  }
}

export function createKeepNotifier(deps: NotifierDeps & { now?: () => number }): KeepNotifier {
  const { i18n } = deps;
  const now = deps.now ?? Date.now;
  return {
    async onEvent(event) {
      await tell(event, event.plan.chatId, event.eventId);
      // The plan spends the account's money: every chat linked to the account hears of it, each once (its own job id).
      for (const other of (await deps.accountChatsOf?.(event.plan.chatId)) ?? []) await tell(event, other, `${event.eventId}@${other}`);
    },
  };

  async function tell(event: KeepEvent, chatId: number, jobId: string): Promise<void> {
    const [chat, zone] = await Promise.all([deps.chats.get(chatId), notifierZone(deps, chatId)]);
    if (chat?.active === false) return;
    const locale = backgroundLocale(chat, deps.defaultLocale, chatId === event.plan.chatId ? event.plan.locale : undefined);
    const tr: Translator = { t: (key, vars) => i18n.t(locale, key, vars) };
    const { text, keyboard: planKeyboard } = render(tr, event, { nowMs: now(), locale, timeZone: zone.zone });
    // The plan's buttons act on it from its own chat; the others are told, and manage it there.
    const ownChat = chatId === event.plan.chatId;
    const keyboard = ownChat ? planKeyboard : undefined;
    const card = ownChat ? event.plan.cardMessageId : undefined;
    // No deposit address yet ("create it in the dashboard"): its button, when DASHBOARD_URL is set.
    const noAddress = event.kind === "paused-balance" && (event.noWallet || event.balance?.depositAddress === null);
    await deps.push.enqueue({
      id: jobId,
      chatId,
      method: "sendMessage",
      params: {
        chat_id: chatId,
        text,
        ...HTML,
        // A card deleted meanwhile still lets the notice through, as a message of its own.
        ...(card === undefined ? {} : { reply_parameters: { message_id: card, allow_sending_without_reply: true } }),
        ...pushLinksMarkup(tr, deps.links, noAddress ? "topup-no-address" : [], keyboard),
      },
    });
  }
}
