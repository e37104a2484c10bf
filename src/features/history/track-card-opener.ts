import type { InlineKeyboard } from "grammy";
import { delegationEndsAtMs } from "../../shared/orders/order-history.js";
import { ServiceError } from "../../platform/service/errors.js";
import { isBroadcastFinished, isOrderFinished } from "../../platform/service/schemas.js";
import { readRecord } from "../../shared/tracking/read-record.js";
import type { TrackedRecord } from "../../shared/tracking/tracker.js";
import type { BotContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { createFinishedBroadcastKeyboard, createFinishedOrderKeyboard } from "../../bot/keyboards/final-card.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import { canResend } from "../../bot/helpers/expiry-text.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { recordCardText } from "../../bot/helpers/record-text.js";
import { withReceiverLabel } from "../../bot/helpers/receiver-label.js";

type RecordKind = "order" | "broadcast";

/** The live card of one order or broadcast, as /track and the /orders row buttons show it. */
export interface TrackCards {
  read(apiKey: string, chatId: number, id: string, kind?: RecordKind): Promise<TrackedRecord | undefined>;
  cardText(ctx: BotContext, chatId: number, record: TrackedRecord, locale: string): Promise<string>;
  /** A finished record's buttons; an unfinished one's Refresh. */
  markup(ctx: BotContext, chatId: number, record: TrackedRecord, id: string): Promise<{ reply_markup: InlineKeyboard } | Record<string, never>>;
  isFinal(record: TrackedRecord): boolean;
  /** Follows an unfinished record from now on, on the card that shows it. */
  follow(chatId: number, record: TrackedRecord, id: string, cardMessageId: number, locale: string): Promise<void>;
  /** Reads the record and sends its card (and follows it), or says why it cannot. */
  send(ctx: BotContext, apiKey: string, chatId: number, id: string, kind?: RecordKind): Promise<void>;
}

export function createTrackCards(deps: BotDeps): TrackCards {
  const { flows } = deps;

  /** What the bot itself read from a broadcast's signed transaction, and when an order's delegation ends, kept in the history. */
  async function cardText(ctx: BotContext, chatId: number, record: TrackedRecord, locale: string): Promise<string> {
    const entry = await flows.history.get(chatId, record.kind, record.kind === "order" ? record.record.orderId : record.record.broadcastId);
    const local = record.kind === "broadcast" ? entry : undefined;
    const endsAtMs = entry && delegationEndsAtMs(entry);
    const { zone: timeZone } = await flows.limits.zoneOf(chatId);
    const text = recordCardText(ctx, record, locale, local, { nowMs: flows.now(), timeZone, ...(endsAtMs === undefined ? {} : { endsAtMs }) });
    return withReceiverLabel(ctx, text, chatId, record, flows.addressBook);
  }

  /** A finished record's buttons (keyboards/final-card.ts): Track, Rent again, the reminder switch, Resend (docs/expiry.md), Explorer. */
  async function finishedKeyboard(ctx: BotContext, chatId: number, record: TrackedRecord): Promise<{ reply_markup: InlineKeyboard }> {
    const nowMs = flows.now();
    if (record.kind === "broadcast") {
      const resend = canResend(record.record.status, record.record.txExpirationMs, nowMs);
      return { reply_markup: createFinishedBroadcastKeyboard(ctx, ctx.links, record.record, resend) };
    }
    const { orderId } = record.record;
    if (record.record.status !== "fulfilled") return { reply_markup: createFinishedOrderKeyboard(ctx, ctx.links, record.record) };
    const entry = await flows.history.get(chatId, "order", orderId);
    const endsAtMs = entry && delegationEndsAtMs(entry);
    const live = deps.reminders !== undefined && endsAtMs !== undefined && endsAtMs > nowMs;
    const reminder = live ? await deps.reminders?.isScheduled(chatId, orderId) : undefined;
    return { reply_markup: createFinishedOrderKeyboard(ctx, ctx.links, record.record, reminder) };
  }

  const isFinal = (r: TrackedRecord) => (r.kind === "order" ? isOrderFinished(r.record.status) : isBroadcastFinished(r.record.status));

  const cards: TrackCards = {
    read: (apiKey, chatId, id, kind) => readRecord({ service: deps.service, history: flows.history }, apiKey, chatId, id, kind),
    cardText,
    isFinal,
    async markup(ctx, chatId, record, id) {
      return isFinal(record) ? finishedKeyboard(ctx, chatId, record) : { reply_markup: createTrackRefreshKeyboard(ctx, record.kind, id) };
    },
    follow(chatId, record, id, cardMessageId, locale) {
      return flows.tracker.track({
        chatId,
        kind: record.kind,
        id,
        status: record.record.status,
        cardMessageId,
        locale,
        ...(record.kind === "broadcast" ? { txExpirationMs: record.record.txExpirationMs } : {}),
      });
    },
    async send(ctx, apiKey, chatId, id, kind) {
      const locale = await ctx.i18n.getLocale();
      let record: TrackedRecord | undefined;
      try {
        record = await cards.read(apiKey, chatId, id, kind);
      } catch (error) {
        if (!ServiceError.isInstance(error)) throw error;
        await ctx.reply(serviceErrorText(ctx, error, locale), { ...HTML, ...textLinksMarkup(ctx, errorTextKey(error)) });
        return;
      }
      if (!record) {
        await ctx.reply(translate(ctx, "track-not-found", { id: code(id) }), HTML);
        return;
      }
      const markup = await cards.markup(ctx, chatId, record, id);
      const message = await ctx.reply(await cardText(ctx, chatId, record, locale), { ...HTML, ...markup });
      if (!isFinal(record)) await cards.follow(chatId, record, id, message.message_id, locale);
    },
  };
  return cards;
}
