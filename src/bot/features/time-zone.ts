import { createConversation, type Conversation } from "@grammyjs/conversations";
import { sendStepPrompt } from "../helpers/step-prompt.js";
import { Composer } from "../composer.js";
import { parseTimeZoneInput, zoneLabel } from "../../core/limits/zone-input.js";
import type { InlineKeyboardButton } from "grammy/types";
import { commonTimeZoneOf, offeredTimeZoneOf, timeZoneData, unpackZoneOffer, zoneOfferData, type ZoneOfferTarget } from "../callback-data/time-zone.js";
import { isHistoryFilterCode } from "../callback-data/orders.js";
import { delegationEndsAtMs } from "../../core/orders/order-history.js";
import { delegationEndText, expiryReminderText } from "../helpers/expiry-text.js";
import { orderFulfilledText } from "../helpers/record-text.js";
import { withReceiverLabel } from "../helpers/receiver-label.js";
import { createOrdersView } from "./orders.js";
import type { ChatZone } from "../../core/limits/chat-zone.js";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { echo } from "../helpers/echo.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { escapeHtml, html, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { createTimeZoneKeyboard, hasTimeZoneBack, withoutZoneOffer, zoneOfferVars } from "../keyboards/time-zone.js";
import { bestEffort } from "../helpers/best-effort.js";

const TIME_ZONE_INPUT_CONVERSATION = "time-zone-input";

type TimeZoneConversation = Conversation<BotContext, ConversationContext>;

/** Asks for a zone (a city, a UTC offset or an IANA name) until one is known; any command or button leaves the step and runs as usual. */
function createTimeZoneInputConversation(deps: BotDeps) {
  const limits = deps.flows.limits;
  return async function timeZoneInput(conversation: TimeZoneConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    await sendStepPrompt(conversation, ctx, translate(ctx, "time-zone-ask"), HTML);
    for (;;) {
      const next = await conversation.wait();
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text?.trim();
      const parsed = parseTimeZoneInput(text ?? "");
      if (!parsed.ok) {
        const key = parsed.reason === "uneven_offset" ? "time-zone-uneven" : "time-zone-bad";
        await ctx.reply(translate(next, key, { value: echo(text ?? "") }), HTML);
        continue;
      }
      const { zone } = parsed;
      const nowMs = await conversation.external(async () => {
        await limits.setTimeZone(chatId, zone);
        return deps.flows.now();
      });
      await ctx.reply(translate(next, "time-zone-saved", { zone: zoneLabel(zone, nowMs) }), HTML);
      return;
    }
  };
}

/**
 * The chat's one time zone (the same /limits sets): every time the bot shows is in it, and it bounds
 * the days and months of the limits. Reached from /settings: common zones as buttons, or a city, a UTC
 * offset or an IANA name typed; and offered under the messages that show times until the chat picks one.
 */
export function createTimeZoneFeature(deps: BotDeps): Composer<BotContext> {
  const limits = deps.flows.limits;
  const composer = new Composer<BotContext>();
  // Installed before the handlers so `enter` below finds it.
  composer.use(
    createConversation<BotContext, ConversationContext>(createTimeZoneInputConversation(deps), {
      id: TIME_ZONE_INPUT_CONVERSATION,
      maxMillisecondsToWait: 10 * 60_000,
    }),
  );
  const feature = composer.chatType("private");
  const orders = createOrdersView(deps);

  /** The menu says when its zone is only the default, so picking that same zone is a visible change too. */
  const menuText = (ctx: BotContext, zone: ChatZone) => {
    const title = translate(ctx, "time-zone-title", { zone: zoneLabel(zone.zone, deps.flows.now()) });
    return zone.chosen ? title : `${title}\n\n${translate(ctx, "time-zone-unchosen", { zone: zoneLabel(zone.zone, deps.flows.now()) })}`;
  };

  feature.callbackQuery(timeZoneData.filter, logHandle("callback-time-zone"), async (ctx) => {
    const action = timeZoneData.unpack(ctx.callbackQuery.data)?.action;
    const chatId = ctx.chat.id;
    if (action === "m") {
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await ctx.reply(menuText(ctx, zone), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone.zone) });
      return;
    }
    if (action === "ms") {
      // From the /settings card: the card becomes the choices, and ◀️ Back turns it into the card again.
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await editIgnoringUnchanged(() => ctx.editMessageText(menuText(ctx, zone), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone.zone, true) }));
      return;
    }
    if (action === "o") {
      await ctx.answerCallbackQuery();
      await ctx.conversation.enter(TIME_ZONE_INPUT_CONVERSATION);
      return;
    }
    const offered = offeredTimeZoneOf(action);
    if (offered !== undefined) {
      // An offer sent before offers named their message: the zone is set, that message cannot be drawn again.
      await takeOffer(ctx, offered, undefined);
      return;
    }
    const zone = commonTimeZoneOf(action);
    if (zone === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await limits.setTimeZone(chatId, zone);
    ctx.logger.info({ zone }, "time zone changed");
    await ctx.answerCallbackQuery({ text: ctx.t("time-zone-saved-short", { zone }) });
    const withBack = hasTimeZoneBack(ctx.callbackQuery.message?.reply_markup);
    await editIgnoringUnchanged(() =>
      ctx.editMessageText(menuText(ctx, { zone, chosen: true }), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone, withBack) }),
    );
  });

  feature.callbackQuery(zoneOfferData.filter, logHandle("callback-time-zone-offer"), async (ctx) => {
    const offer = unpackZoneOffer(ctx.callbackQuery.data);
    if (offer === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await takeOffer(ctx, offer.zone, offer.target);
  });

  /**
   * The offer under a message with times, tapped: the zone is set, and that message is drawn again in it
   * (its text anew, the offer gone, its other buttons kept); one that cannot be drawn again only loses the
   * offer, and the toast says its times stay as they were.
   */
  async function takeOffer(ctx: BotContext & { chat: { id: number } }, zone: string, target: ZoneOfferTarget | undefined): Promise<void> {
    const chatId = ctx.chat.id;
    await limits.setTimeZone(chatId, zone);
    ctx.logger.info({ zone, offered: true }, "time zone changed");
    const message = ctx.callbackQuery?.message;
    // A message Telegram no longer lets the bot see (date 0) cannot be edited at all.
    const accessible = message !== undefined && message.date !== 0;
    const kept = withoutZoneOffer(message?.reply_markup?.inline_keyboard ?? []);
    const redrawn = accessible && target !== undefined ? await redrawnMessage(ctx, chatId, zone, target, kept) : undefined;
    const saved = ctx.t("time-zone-offer-saved", zoneOfferVars(zone, deps.flows.now()));
    await ctx.answerCallbackQuery({ text: redrawn === undefined ? `${saved} ${ctx.t("time-zone-offer-older")}` : saved });
    if (!accessible) return;
    await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() =>
        redrawn === undefined
          ? ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: kept } })
          : ctx.editMessageText(redrawn.text, { ...HTML, reply_markup: { inline_keyboard: redrawn.rows } }),
      ),
    );
  }

  /** The message the offer sat under, drawn as its sender draws it, now in `zone`; undefined when what it showed is not kept. */
  async function redrawnMessage(
    ctx: BotContext,
    chatId: number,
    zone: string,
    target: ZoneOfferTarget,
    kept: InlineKeyboardButton[][],
  ): Promise<{ text: string; rows: InlineKeyboardButton[][] } | undefined> {
    if (target.on === "orders") {
      if (!isHistoryFilterCode(target.filter)) return undefined;
      const page = await orders.render(ctx, chatId, target.filter, target.page);
      return { text: page.text, rows: page.keyboard?.inline_keyboard ?? [] };
    }
    const entry = await deps.flows.history.get(chatId, "order", target.orderId);
    const endsAtMs = entry && delegationEndsAtMs(entry);
    if (entry?.address === undefined || entry.amount === undefined || entry.durationSec === undefined || endsAtMs === undefined) return undefined;
    const locale = await ctx.i18n.getLocale();
    const nowMs = deps.flows.now();
    const order = { orderId: entry.id, receiver: entry.address, resourceAmount: entry.amount, durationSec: entry.durationSec };
    if (target.on === "reminder") {
      const text = expiryReminderText(ctx, { ...order, amount: entry.amount, endsAtMs }, nowMs, locale, zone);
      return { text, rows: kept };
    }
    // As the tracking notifier draws a fulfilled order's notice: what was delivered, until when, and from which chat.
    const lines = [
      await withReceiverLabel(ctx, orderFulfilledText(ctx, order, locale), chatId, { kind: "order", record: order }, deps.flows.addressBook),
      delegationEndText(ctx, endsAtMs, nowMs, locale, zone),
    ];
    if (target.placedElsewhere) {
      if (entry.chatId === undefined) return undefined;
      const title = (await deps.chats.get(entry.chatId))?.title ?? String(entry.chatId);
      lines.push(translate(ctx, "account-placed-in-chat", { chat: html(escapeHtml(title)) }));
    }
    return { text: lines.join("\n"), rows: kept };
  }

  return composer;
}
