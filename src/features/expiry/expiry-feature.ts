import { Composer } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import type { ExpiryReminders, ReminderToggle } from "./expiry-reminders.js";
import type { ResendResult } from "../../shared/broadcasts/resend-broadcast.js";
import { remindData, resendData } from "../../bot/callback-data/expiry.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedForButton } from "../../bot/filters/linked.js";
import { bestEffort } from "../../bot/helpers/best-effort.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import { clockText } from "../../bot/helpers/expiry-text.js";
import { code, html, HTML, translate } from "../../bot/helpers/html.js";
import { createLimitsFixKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { limitRefusalText } from "../../bot/helpers/refusal-texts.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { statusText } from "../../bot/helpers/record-text.js";
import { reminderToggleButton } from "../../bot/keyboards/reminder-keyboards.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";

const ID = /^[0-9a-f]{24}$/;

/** The message's buttons with the reminder switch redrawn (or dropped when `scheduled` is undefined). */
function withSwitch(ctx: BotContext, orderId: string, scheduled: boolean | undefined): InlineKeyboardButton[][] {
  const rows = ctx.callbackQuery?.message?.reply_markup?.inline_keyboard ?? [];
  return rows
    .map((row) =>
      row.flatMap((button): InlineKeyboardButton[] => {
        if (!("callback_data" in button) || !remindData.filter.test(button.callback_data)) return [button];
        return scheduled === undefined ? [] : [reminderToggleButton(ctx, orderId, scheduled)];
      }),
    )
    .filter((row) => row.length > 0);
}

/**
 * The buttons of docs/expiry.md: a fulfilled order's reminder switch and a
 * failed broadcast's Resend. The reminders' own buttons reuse Rent again
 * (Extend) and the /keep feature's `keep-order` (Keep charged).
 */
export function createExpiryFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function toggle(ctx: BotContext, reminders: ExpiryReminders, chatId: number, orderId: string, on: boolean): Promise<ReminderToggle | undefined> {
    const entry = await flows.history.get(chatId, "order", orderId);
    if (entry?.fulfilledAtMs === undefined || entry.durationSec === undefined || entry.address === undefined) return undefined;
    const locale = await ctx.i18n.getLocale();
    const order = {
      chatId,
      orderId,
      receiver: entry.address,
      amount: entry.amount ?? 0,
      durationSec: entry.durationSec,
      fulfilledAtMs: entry.fulfilledAtMs,
      locale,
    };
    return reminders.setForOrder(order, on);
  }

  feature.callbackQuery(remindData.filter, logHandle("callback-expiry-remind"), async (ctx) => {
    const data = remindData.unpack(ctx.callbackQuery.data);
    const { reminders } = deps;
    if (!data || !reminders || !ID.test(data.orderId) || (data.value !== "on" && data.value !== "off")) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const result = await toggle(ctx, reminders, ctx.chat.id, data.orderId, data.value === "on");
    if (result === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const entry = await flows.history.get(ctx.chat.id, "order", data.orderId);
    const endsAtMs = entry?.fulfilledAtMs !== undefined && entry.durationSec !== undefined ? entry.fulfilledAtMs + entry.durationSec * 1000 : flows.now();
    const { zone } = await flows.limits.zoneOf(ctx.chat.id);
    const at = clockText(reminders.remindAtMs(endsAtMs, entry?.durationSec ?? 0), flows.now(), locale, zone);
    const answer = result === "on" ? ctx.t("expiry-remind-set", { time: at }) : ctx.t(result === "off" ? "expiry-remind-cancelled" : "expiry-remind-too-late");
    await ctx.answerCallbackQuery({ text: answer });
    ctx.logger.info({ orderId: data.orderId, result }, "expiry reminder switched");
    const rows = withSwitch(ctx, data.orderId, result === "too_late" ? undefined : result === "on");
    await bestEffort(ctx, "editMessageReplyMarkup", () => editIgnoringUnchanged(() => ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: rows } })));
  });

  async function showResend(ctx: BotContext, result: ResendResult, locale: string): Promise<void> {
    const chatId = ctx.chat!.id;
    switch (result.status) {
      case "resent": {
        await ctx.answerCallbackQuery();
        await bestEffort(ctx, "editMessageReplyMarkup", () => editIgnoringUnchanged(() => ctx.editMessageReplyMarkup()));
        const text = translate(ctx, "expiry-resent", {
          broadcastId: code(result.broadcastId),
          status: statusText(ctx, result.initialStatus),
          txId: code(result.draft.summary.txId),
        });
        const card = await ctx.reply(text, { ...HTML, reply_markup: createTrackRefreshKeyboard(ctx, "broadcast", result.broadcastId) });
        await flows.tracker.cardShown({ chatId, kind: "broadcast", id: result.broadcastId, cardMessageId: card.message_id, status: result.initialStatus });
        return;
      }
      case "already":
        await ctx.answerCallbackQuery({ text: ctx.t("expiry-resend-already", { broadcastId: result.broadcastId }) });
        return;
      case "not_failed":
        await ctx.answerCallbackQuery({
          text: ctx.t("expiry-resend-not-failed", { status: ctx.t("tracking-status", { status: result.currentStatus, code: result.currentStatus }) }),
        });
        return;
      case "needs_resign":
        await ctx.answerCallbackQuery();
        await bestEffort(ctx, "editMessageReplyMarkup", () => editIgnoringUnchanged(() => ctx.editMessageReplyMarkup()));
        await ctx.reply(translate(ctx, "expiry-resend-needs-resign"), HTML);
        return;
      case "failed":
        await ctx.answerCallbackQuery();
        await ctx.reply(serviceErrorText(ctx, result.error, locale), { ...HTML, ...textLinksMarkup(ctx, errorTextKey(result.error)) });
        return;
      case "over_limit":
        // Nothing was sent: the card keeps its Resend, so a press after raising the cap still works.
        await ctx.answerCallbackQuery();
        await ctx.reply(limitRefusalText(ctx, result.refusal, result.feeSun, locale), {
          ...HTML,
          reply_markup: createLimitsFixKeyboard(ctx, result.refusal),
        });
        return;
      default:
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    }
  }

  /** The "checking" message turned into what the checks found: the new broadcast's card, a refusal, or still unknown. */
  async function showChecked(ctx: BotContext, result: ResendResult, messageId: number, txIdText: string, locale: string): Promise<void> {
    const chatId = ctx.chat!.id;
    const edit = (text: string, extra: object = {}) =>
      bestEffort(ctx, "editMessageText", () => editIgnoringUnchanged(() => ctx.api.editMessageText(chatId, messageId, text, { ...HTML, ...extra })));
    const txId = code(txIdText);
    switch (result.status) {
      case "resent": {
        const text = translate(ctx, "expiry-resent", { broadcastId: code(result.broadcastId), status: statusText(ctx, result.initialStatus), txId });
        if (await edit(text, { reply_markup: createTrackRefreshKeyboard(ctx, "broadcast", result.broadcastId) }))
          await flows.tracker.cardShown({ chatId, kind: "broadcast", id: result.broadcastId, cardMessageId: messageId, status: result.initialStatus });
        return;
      }
      case "failed":
        await edit(
          translate(ctx, "broadcast-unknown-refused", { txId, reason: html(serviceErrorText(ctx, result.error, locale)) }),
          textLinksMarkup(ctx, errorTextKey(result.error)),
        );
        return;
      case "already":
        await edit(translate(ctx, "expiry-resend-already", { broadcastId: result.broadcastId }));
        return;
      default:
        // Still unknown: the journal resolves it and redraws this message.
        await edit(translate(ctx, "broadcast-unknown-pending", { txId }));
    }
  }

  feature.callbackQuery(resendData.filter, logHandle("callback-expiry-resend"), async (ctx) => {
    const data = resendData.unpack(ctx.callbackQuery.data);
    if (!data || !ID.test(data.broadcastId)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const account = await linkedForButton(ctx);
    if (account === undefined) return;
    const locale = await ctx.i18n.getLocale();
    // A lost answer is said at once in a message of its own, which then becomes the outcome.
    let checking: number | undefined;
    const onUnknown = async (): Promise<number | undefined> => {
      await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
      await bestEffort(ctx, "editMessageReplyMarkup", () => editIgnoringUnchanged(() => ctx.editMessageReplyMarkup()));
      const sent = await ctx.reply(translate(ctx, "broadcast-unknown-checking", { txId: code(entryTxId ?? "-") }), HTML);
      checking = sent.message_id;
      return checking;
    };
    const entryTxId = (await flows.history.get(ctx.chat.id, "broadcast", data.broadcastId))?.txId;
    const result = await flows.resender.resend({ chatId: ctx.chat.id, broadcastId: data.broadcastId, apiKey: account.apiKey, locale, onUnknown });
    if (checking === undefined) await showResend(ctx, result, locale);
    else await showChecked(ctx, result, checking, entryTxId ?? "-", locale);
  });

  return { composer, routes: { callbacks: [remindData, resendData] } };
}
