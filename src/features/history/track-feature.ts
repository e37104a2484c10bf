import { Composer, InlineKeyboard } from "grammy";
import { statusText } from "../../bot/helpers/record-text.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { TrackedRecord } from "../../shared/tracking/tracker.js";
import { trackRefreshData } from "../../bot/callback-data/orders.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import type { BotDeps } from "../../bot/deps.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createTrackCards } from "./track-card-opener.js";
import { txIdCommandArgument } from "../../bot/helpers/tx-id-command.js";
import { visibleText } from "../../bot/helpers/visible-text.js";

const ID = /^[0-9a-f]{24}$/i;
/** How many recent items /track offers as buttons. */
const RECENT_SHOWN = 5;

/**
 * /track <id>: the live record (order or broadcast), a Refresh button, and tracking until it finishes.
 * /track <txId> (64 hex) shows the chat's broadcast of that transaction, or says none of its broadcasts carries it.
 */
export function createTrackFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  const cards = createTrackCards(deps);

  feature.command("track", logHandle("command-track"), async (ctx, next) => {
    if (ID.test(ctx.match.trim()) || txIdCommandArgument(ctx.msg.text ?? "") !== undefined) return next();
    // The chat's newest orders and broadcasts, one tap each: the tapped one's live card replaces this message.
    const recent = (await ctx.linked()) === undefined ? [] : (await flows.history.page(ctx.chat.id, 0, RECENT_SHOWN)).entries;
    if (recent.length === 0) {
      await ctx.reply(translate(ctx, "track-usage"), HTML);
      return;
    }
    const keyboard = new InlineKeyboard();
    for (const entry of recent) {
      const label = ctx.t(entry.kind === "order" ? "track-recent-order" : "track-recent-broadcast", {
        id: `${entry.id.slice(0, 6)}…`,
        status: visibleText(statusText(ctx, entry.status).value),
      });
      keyboard.text(label, trackRefreshData.pack({ kind: entry.kind === "order" ? "o" : "b", id: entry.id })).row();
    }
    await ctx.reply(translate(ctx, "track-pick"), { ...HTML, reply_markup: keyboard });
  });

  feature.command(
    "track",
    linkedOnly(async (ctx) => {
      const txId = txIdCommandArgument(ctx.msg.text ?? "");
      if (txId === undefined) return cards.send(ctx, ctx.account.apiKey, ctx.chat.id, ctx.match.trim().toLowerCase());
      // The service has no lookup by transaction id; the chat's own history knows the broadcasts it sent.
      const entry = await flows.history.findBroadcastByTxId(ctx.chat.id, txId);
      if (entry !== undefined) return cards.send(ctx, ctx.account.apiKey, ctx.chat.id, entry.id, "broadcast");
      await ctx.reply(translate(ctx, "track-txid-unknown", { txId: code(txId) }), HTML);
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
      record = await cards.read(apiKey, ctx.chat.id, data.id, data.kind === "o" ? "order" : "broadcast");
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      ctx.logger.warn({ code: error.code, requestId: error.requestId, id: data.id }, "refresh could not read the record");
    }
    if (!record) {
      await ctx.answerCallbackQuery({ text: ctx.t("track-refresh-failed") });
      return;
    }
    const text = await cards.cardText(ctx, ctx.chat.id, record, locale);
    // Never an edit that changes nothing.
    if (visibleText(text) === ctx.callbackQuery.message?.text) {
      await ctx.answerCallbackQuery({ text: ctx.t("track-unchanged") });
      return;
    }
    await ctx.answerCallbackQuery();
    const final = cards.isFinal(record);
    const cardMessageId = ctx.callbackQuery.message?.message_id;
    // The tracker learns what the card will show before it is drawn: a poll of its own landing meanwhile
    // then sees nothing to draw, instead of racing this edit with the same text.
    if (cardMessageId !== undefined) {
      if (final) await flows.tracker.cardShown({ chatId: ctx.chat.id, kind: record.kind, id: data.id, cardMessageId, status: record.record.status });
      else await cards.follow(ctx.chat.id, record, data.id, cardMessageId, locale);
    }
    const markup = await cards.markup(ctx, ctx.chat.id, record, data.id);
    await ctx.editMessageText(text, { ...HTML, ...markup });
  });

  return { composer, routes: { commands: ["track"], callbacks: [trackRefreshData] } };
}
