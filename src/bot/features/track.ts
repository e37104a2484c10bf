import { Composer, type InlineKeyboard } from "grammy";
import { canResend } from "../helpers/expiry-text.js";
import { createFulfilledOrderKeyboard, createResendKeyboard } from "../keyboards/expiry.js";
import { ServiceError } from "../../core/service/errors.js";
import { isBroadcastFinished, isOrderFinished } from "../../core/service/schemas.js";
import { readRecord } from "../../core/tracking/read-record.js";
import { delegationEndsAtMs } from "../../core/orders/order-history.js";
import type { TrackedRecord } from "../../core/tracking/tracker.js";
import { trackRefreshData } from "../callback-data/orders.js";
import type { BotContext } from "../context.js";
import { linkedOnly } from "../filters/linked.js";
import type { BotDeps } from "../deps.js";
import { serviceErrorText } from "../helpers/error-text.js";
import { code, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { recordCardText } from "../helpers/record-text.js";
import { withReceiverLabel } from "../helpers/receiver-label.js";
import { createTrackRefreshKeyboard } from "../keyboards/orders.js";

const ID = /^[0-9a-f]{24}$/i;

/** What Telegram shows of an HTML text: tags dropped, entities decoded. */
function visibleText(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** /track <id>: the live record (order or broadcast), a Refresh button, and tracking until it finishes. */
export function createTrackFeature(deps: BotDeps): Composer<BotContext> {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  const read = (apiKey: string, chatId: number, id: string, kind?: "order" | "broadcast") => readRecord({ service: deps.service, history: flows.history }, apiKey, chatId, id, kind);

  /** What the bot itself read from a broadcast's signed transaction, and when an order's delegation ends, kept in the history. */
  async function cardText(ctx: BotContext, chatId: number, record: TrackedRecord, locale: string): Promise<string> {
    const entry = await flows.history.get(chatId, record.kind, record.kind === "order" ? record.record.orderId : record.record.broadcastId);
    const local = record.kind === "broadcast" ? entry : undefined;
    const endsAtMs = entry && delegationEndsAtMs(entry);
    return withReceiverLabel(ctx, recordCardText(ctx, record, locale, local, { nowMs: flows.now(), ...(endsAtMs === undefined ? {} : { endsAtMs }) }), chatId, record, flows.addressBook);
  }

  /** A finished record's buttons: a fulfilled order's Rent again and reminder switch, a failed broadcast's Resend (docs/expiry.md). */
  async function finishedKeyboard(ctx: BotContext, chatId: number, record: TrackedRecord): Promise<{ reply_markup: InlineKeyboard } | Record<string, never>> {
    const nowMs = flows.now();
    if (record.kind === "broadcast") {
      return canResend(record.record.status, record.record.txExpirationMs, nowMs) ? { reply_markup: createResendKeyboard(ctx, record.record.broadcastId) } : {};
    }
    const { orderId } = record.record;
    if (record.record.status !== "fulfilled") return {};
    const entry = await flows.history.get(chatId, "order", orderId);
    const endsAtMs = entry && delegationEndsAtMs(entry);
    const live = deps.reminders !== undefined && endsAtMs !== undefined && endsAtMs > nowMs;
    const reminder = live ? await deps.reminders?.isScheduled(chatId, orderId) : undefined;
    const keyboard = createFulfilledOrderKeyboard(ctx, orderId, { rentAgain: true, ...(reminder === undefined ? {} : { reminder }) });
    return keyboard ? { reply_markup: keyboard } : {};
  }

  const isFinal = (r: TrackedRecord) => (r.kind === "order" ? isOrderFinished(r.record.status) : isBroadcastFinished(r.record.status));

  /** Follows an unfinished record from now on, on the card that shows it. */
  function trackCard(chatId: number, record: TrackedRecord, id: string, cardMessageId: number, locale: string): Promise<void> {
    return flows.tracker.track({
      chatId,
      kind: record.kind,
      id,
      status: record.record.status,
      cardMessageId,
      locale,
      ...(record.kind === "broadcast" ? { txExpirationMs: record.record.txExpirationMs } : {}),
    });
  }

  feature.command("track", logHandle("command-track"), async (ctx, next) => {
    if (ID.test(ctx.match.trim())) return next();
    await ctx.reply(translate(ctx, "track-usage"), HTML);
  });

  feature.command(
    "track",
    linkedOnly(async (ctx) => {
      const id = ctx.match.trim().toLowerCase();
      const locale = await ctx.i18n.getLocale();
      let record: TrackedRecord | undefined;
      try {
        record = await read(ctx.account.apiKey, ctx.chat.id, id);
      } catch (error) {
        if (!ServiceError.isInstance(error)) throw error;
        await ctx.reply(serviceErrorText(ctx, error, locale), HTML);
        return;
      }
      if (!record) {
        await ctx.reply(translate(ctx, "track-not-found", { id: code(id) }), HTML);
        return;
      }
      const final = isFinal(record);
      const markup = final ? await finishedKeyboard(ctx, ctx.chat.id, record) : { reply_markup: createTrackRefreshKeyboard(ctx, record.kind, id) };
      const message = await ctx.reply(await cardText(ctx, ctx.chat.id, record, locale), { ...HTML, ...markup });
      if (!final) await trackCard(ctx.chat.id, record, id, message.message_id, locale);
    }),
  );

  feature.callbackQuery(trackRefreshData.filter, logHandle("callback-track-refresh"), async (ctx) => {
    const data = trackRefreshData.unpack(ctx.callbackQuery.data);
    const apiKey = (await ctx.linked())?.apiKey;
    if (!data || apiKey === undefined || !ID.test(data.id)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const locale = await ctx.i18n.getLocale();
    let record: TrackedRecord | undefined;
    try {
      record = await read(apiKey, ctx.chat.id, data.id, data.kind === "o" ? "order" : "broadcast");
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      ctx.logger.warn({ code: error.code, requestId: error.requestId, id: data.id }, "refresh could not read the record");
    }
    if (!record) {
      await ctx.answerCallbackQuery({ text: ctx.t("track-refresh-failed") });
      return;
    }
    const text = await cardText(ctx, ctx.chat.id, record, locale);
    // Never an edit that changes nothing.
    if (visibleText(text) === ctx.callbackQuery.message?.text) {
      await ctx.answerCallbackQuery({ text: ctx.t("track-unchanged") });
      return;
    }
    await ctx.answerCallbackQuery();
    const final = isFinal(record);
    const cardMessageId = ctx.callbackQuery.message?.message_id;
    // The tracker learns what the card will show before it is drawn: a poll of its own landing meanwhile
    // then sees nothing to draw, instead of racing this edit with the same text.
    if (cardMessageId !== undefined) {
      if (final) await flows.tracker.cardShown({ chatId: ctx.chat.id, kind: record.kind, id: data.id, cardMessageId, status: record.record.status });
      else await trackCard(ctx.chat.id, record, data.id, cardMessageId, locale);
    }
    const markup = final ? await finishedKeyboard(ctx, ctx.chat.id, record) : { reply_markup: createTrackRefreshKeyboard(ctx, record.kind, data.id) };
    await ctx.editMessageText(text, { ...HTML, ...markup });
  });

  return composer;
}
