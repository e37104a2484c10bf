import { createHash } from "node:crypto";
import { spentTodaySun, type KeepPlan } from "./keep-plan.js";
import type { CardRedraw } from "./keep-plans.js";
import type { KeepDaySummary } from "./keep-day-summary.js";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { HTML } from "../../bot/helpers/html.js";
import { keepCardText, keepDaySummaryText } from "./keep-texts.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { createKeepCardKeyboard } from "./keep-keyboards.js";
import { backgroundLocale } from "../../bot/i18n.js";
import { miniAppScreenUrl } from "../../bot/helpers/mini-app-url.js";
import { notifierZone, type NotifierDeps } from "../../bot/helpers/notifier-deps.js";

/**
 * What a plan shows by itself, besides its notices (keep-notifier.ts): its card, the message the
 * proposal became at Start, edited with the digest of its renewals whenever the plan moves on (an
 * order placed, a status tracking saw, a pause, a stop); and the chat's daily summary when the chat
 * asked for it. A renewal never gets a card or notice of its own: a 1-minute plan would otherwise
 * post a message a minute.
 *
 * Every draw is an edit through the push queue, and a newer edit of the card replaces one still
 * waiting, so a burst of renewals reaches the chat as one edit with the latest state. Each draw reads
 * the plan again under a per-plan lock, so the edit queued last is drawn from the newest record; a
 * draw asked for while another waits for that lock is the waiting one (it reads the plan later).
 * A refresh is held before it goes, and each newer one replaces the one held: a plan that changes
 * faster than the hold (a 1-minute plan in a test's fast settings) would never be drawn, so a card
 * left undrawn through `MAX_UNDRAWN_MS` of changes is drawn without the hold.
 *
 * A plan made before plans had cards has no card id: nothing is drawn for it and no message is sent
 * in its place (a new message per change is what the card exists to avoid). /keep lists it with the
 * same digest (orders placed, the newest order's status, the spend), which is where such a plan is
 * read until it ends.
 */
export interface KeepCardNotifier {
  draw(planId: string, redraw: CardRedraw): Promise<void>;
  sendDaySummary(summary: KeepDaySummary): Promise<void>;
}

export interface KeepCardNotifierDeps extends NotifierDeps {
  /** The plan as stored now. */
  readPlan: (planId: string) => Promise<KeepPlan | undefined>;
  /** PUBLIC_URL: with an https one the Mini App is offered, and a private chat's card opens the plan's Edit there. */
  publicUrl?: string | undefined;
  now?: () => number;
}

/** The longest a card that keeps changing goes undrawn. */
const MAX_UNDRAWN_MS = 5_000;
/** Past this without a change, the last held edit has gone out (the queue holds a refresh 2 s at Telegram's pace): a new burst starts. */
const QUIET_MS = 3_000;

/** The card's edit is named by what it draws: a draw repeated after a crash is one edit, a changed card a new one. */
function cardJobId(plan: KeepPlan, text: string, keyboard: unknown, priority: string): string {
  const digest = createHash("sha256")
    .update(`${text}\n${JSON.stringify(keyboard)}\n${plan.updatedAtMs}\n${priority}`)
    .digest("hex")
    .slice(0, 20);
  return `keep-card-${plan.chatId}-${plan.planId}-${digest}`;
}

export function createKeepCardNotifier(deps: KeepCardNotifierDeps): KeepCardNotifier {
  const { i18n } = deps;
  const now = deps.now ?? Date.now;
  const drawing = createKeyedMutex();
  /** Per plan, the draw waiting for the lock, if one is: a newer ask joins it (as "asked" when either is). */
  const waiting = new Map<string, { redraw: CardRedraw; done: Promise<void> }>();
  /** Per plan, since when its held edits have replaced each other, and the latest of them. */
  const held = new Map<string, { sinceMs: number; lastMs: number }>();

  /** A tap's draw goes at once; the plan's own changes are held and coalesced, within `MAX_UNDRAWN_MS`. */
  function priorityOf(planId: string, redraw: CardRedraw, nowMs: number): "normal" | "refresh" {
    const burst = held.get(planId);
    if (redraw === "asked" || (burst !== undefined && nowMs - burst.lastMs <= QUIET_MS && nowMs - burst.sinceMs >= MAX_UNDRAWN_MS)) {
      held.delete(planId);
      return "normal";
    }
    if (burst === undefined || nowMs - burst.lastMs > QUIET_MS) held.set(planId, { sinceMs: nowMs, lastMs: nowMs });
    else burst.lastMs = nowMs;
    return "refresh";
  }

  async function view(chatId: number, startedIn: string | undefined): Promise<{ tr: Translator; locale: string; timeZone: string } | undefined> {
    const [chat, zone] = await Promise.all([deps.chats.get(chatId), notifierZone(deps, chatId)]);
    // The user blocked the bot: every send would fail with 403.
    if (chat?.active === false) return undefined;
    const locale = backgroundLocale(chat, deps.defaultLocale, startedIn);
    return { tr: { t: (key, vars) => i18n.t(locale, key, vars) }, locale, timeZone: zone.zone };
  }

  return {
    draw(planId, redraw) {
      const queued = waiting.get(planId);
      if (queued !== undefined) {
        if (redraw === "asked") queued.redraw = "asked";
        return queued.done;
      }
      const entry: { redraw: CardRedraw; done: Promise<void> } = { redraw, done: Promise.resolve() };
      waiting.set(planId, entry);
      entry.done = drawing.run(planId, async () => {
        waiting.delete(planId);
        const { redraw: how } = entry;
        const plan = await deps.readPlan(planId);
        if (plan?.cardMessageId === undefined) return;
        const shown = await view(plan.chatId, plan.locale);
        if (shown === undefined) return;
        const nowMs = now();
        const text = keepCardText(shown.tr, plan, spentTodaySun(plan, nowMs), { nowMs, locale: shown.locale, timeZone: shown.timeZone });
        // Telegram opens web_app buttons only in private chats (a positive chat id), where the card lives.
        const editUrl = plan.chatId > 0 ? miniAppScreenUrl(deps.publicUrl, "keep", { plan: plan.planId }) : undefined;
        const keyboard = createKeepCardKeyboard(shown.tr, plan, editUrl).inline_keyboard;
        const priority = priorityOf(planId, how, nowMs);
        await deps.push.enqueue({
          id: cardJobId(plan, text, keyboard, priority),
          chatId: plan.chatId,
          method: "editMessageText",
          params: { chat_id: plan.chatId, message_id: plan.cardMessageId, text, ...HTML, reply_markup: { inline_keyboard: keyboard } },
          priority,
        });
      });
      return entry.done;
    },

    async sendDaySummary(summary) {
      const shown = await view(summary.chatId, summary.plans[0]?.plan?.locale);
      if (shown === undefined) return;
      await deps.push.enqueue({
        // One summary per chat and local day, whatever repeats the look (a crash, a second process).
        id: `keep-day-${summary.chatId}-${summary.day}`,
        chatId: summary.chatId,
        method: "sendMessage",
        params: { chat_id: summary.chatId, text: keepDaySummaryText(shown.tr, summary, shown.locale), ...HTML },
      });
    },
  };
}
