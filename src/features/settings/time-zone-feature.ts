import { Composer } from "grammy";
import { createConversation, type Conversation } from "@grammyjs/conversations";
import { z } from "zod";
import type { Api, InlineKeyboard } from "grammy";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { offsetText, zoneLabel } from "../../shared/limits/zone-input.js";
import { isValidTimeZone, zoneOffsetMs } from "../../shared/limits/spend-window.js";
import { offsetsNow, searchTimeZones, zonesAtOffset } from "../../shared/limits/zone-search.js";
import type { InlineKeyboardButton, Message } from "grammy/types";
import {
  commonTimeZoneOf,
  offeredTimeZoneOf,
  packZoneOffer,
  timeZoneData,
  unpackPickerRef,
  unpackZoneOffer,
  zoneOfferData,
  zonePickerData,
  type PickerRef,
  type ZoneOfferTarget,
} from "../../bot/callback-data/time-zone.js";
import { isHistoryFilterCode, type HistoryFilterCode } from "../../bot/callback-data/orders.js";
import { delegationEndsAtMs } from "../../shared/orders/order-history.js";
import { delegationEndText, expiryReminderText } from "../../bot/helpers/expiry-text.js";
import { orderCardText, orderFulfilledText, type Translator } from "../../bot/helpers/record-text.js";
import type { Order } from "../../platform/service/schemas.js";
import { withReceiverLabel } from "../../bot/helpers/receiver-label.js";
import type { ChatZone } from "../../shared/limits/chat-zone.js";
import type { BotContext, ConversationContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { echo } from "../../bot/helpers/echo.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { escapeHtml, html, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import {
  createOffsetGridKeyboard,
  createOffsetZonesKeyboard,
  createTimeZoneKeyboard,
  createZoneMatchesKeyboard,
  createZoneNotFoundKeyboard,
  hasTimeZoneBack,
  withoutZoneOffer,
  ZONE_MATCHES_SHOWN,
  ZONES_PER_PAGE,
} from "./time-zone-keyboards.js";
import { zoneOfferVars } from "../../bot/keyboards/zone-offer.js";
import { createFinishedOrderKeyboard } from "../../bot/keyboards/final-card.js";
import { bestEffort } from "../../bot/helpers/best-effort.js";
import { createRecordStore, type RecordStore } from "../../platform/store/record-store.js";

const TIME_ZONE_INPUT_CONVERSATION = "time-zone-input";

type TimeZoneConversation = Conversation<BotContext, ConversationContext>;

/**
 * The message an offer sits under, as a zone picked through the offer draws it again: what it is (the offer's
 * target; none for an offer older than targets), its id, its buttons but the offer's, and for a notice the card
 * it replies to when Telegram handed that over.
 */
interface UnderOffer {
  target: ZoneOfferTarget | undefined;
  messageId: number;
  kept: InlineKeyboardButton[][];
  cardAbove?: Message;
}

/** The target of the offer among a message's buttons. */
function offerTargetOf(message: Message | undefined): ZoneOfferTarget | undefined {
  for (const row of message?.reply_markup?.inline_keyboard ?? []) {
    for (const button of row) {
      const offer = "callback_data" in button ? unpackZoneOffer(button.callback_data) : undefined;
      if (offer !== undefined) return offer.target;
    }
  }
  return undefined;
}

/** `message` as a pick through its offer draws it again; undefined when Telegram no longer lets the bot see it (date 0), so it cannot be edited. */
function underOffer(message: Message | undefined, target: ZoneOfferTarget | undefined, cardAbove?: Message): UnderOffer | undefined {
  if (message === undefined || message.date === 0) return undefined;
  return {
    target,
    messageId: message.message_id,
    kept: withoutZoneOffer(message.reply_markup?.inline_keyboard ?? []),
    ...(cardAbove === undefined ? {} : { cardAbove }),
  };
}

/**
 * The offer's menu replies to the message the offer sits under, and Telegram hands that message over with every
 * tap on the menu (on the offsets and zones drawn in its place too): that message, while it still shows the offer.
 */
function underOfferOf(picker: Message | undefined): UnderOffer | undefined {
  const under = picker !== undefined && "reply_to_message" in picker ? picker.reply_to_message : undefined;
  const target = offerTargetOf(under);
  return target === undefined ? undefined : underOffer(under, target);
}

/**
 * A menu's typed city is answered in messages of their own, which reply to nothing: what the menu was opened
 * under is kept for them by the menu's id, from the tap on 🔎 (while Telegram still hands it over) for as long
 * as such answers are tapped.
 */
const underOfferRecordSchema = z.object({
  offer: z.string(),
  messageId: z.number().int(),
  kept: z.array(z.array(z.custom<InlineKeyboardButton>((b) => typeof b === "object" && b !== null && typeof (b as { text?: unknown }).text === "string"))),
});
const UNDER_OFFER_KEPT_MS = 7 * 24 * 3_600_000;

type UnderOfferRecords = RecordStore<z.infer<typeof underOfferRecordSchema>>;

async function rememberUnderOffer(records: UnderOfferRecords, chatId: number, pickerId: number, under: UnderOffer): Promise<void> {
  if (under.target === undefined) return;
  await records.set(`${chatId}:${pickerId}`, { offer: packZoneOffer("menu", under.target), messageId: under.messageId, kept: under.kept }, UNDER_OFFER_KEPT_MS);
}

async function recalledUnderOffer(records: UnderOfferRecords, chatId: number, pickerId: number | undefined): Promise<UnderOffer | undefined> {
  if (pickerId === undefined) return undefined;
  const stored = await records.get(`${chatId}:${pickerId}`);
  const target = unpackZoneOffer(stored?.offer)?.target;
  return stored === undefined || target === undefined ? undefined : { target, messageId: stored.messageId, kept: stored.kept };
}

/** The picker's first screen; it says when its zone is only the default, so picking that same zone is a visible change too. */
function menuText(tr: Translator, zone: ChatZone, nowMs: number): string {
  const title = translate(tr, "time-zone-title", { zone: zoneLabel(zone.zone, nowMs) });
  return zone.chosen ? title : `${title}\n\n${translate(tr, "time-zone-unchosen", { zone: zoneLabel(zone.zone, nowMs) })}`;
}

/**
 * The picker a typed city was asked from, drawn again with the zone just set (its ◀️ Back to /settings
 * kept), so the card, and /settings after Back, show it. One deleted or too old to edit is left as it is.
 */
async function redrawPicker(api: Api, tr: Translator & Pick<BotContext, "logger">, chatId: number, ref: PickerRef, zone: string, nowMs: number): Promise<void> {
  const cardId = ref.cardId;
  if (cardId === undefined) return;
  const markup = createTimeZoneKeyboard(tr, zone, ref.onSettings);
  await editIgnoringUnchanged(() => api.editMessageText(chatId, cardId, menuText(tr, { zone, chosen: true }, nowMs), { ...HTML, reply_markup: markup })).catch(
    (error: unknown) => tr.logger.info({ err: error }, "could not draw the time-zone picker again"),
  );
}

/**
 * Asks for a city (or a UTC offset, or an IANA name) until it names a zone; any command or button leaves
 * the step and runs as usual. One zone is set at once; a part of a name that several zones share gets them
 * as buttons, and a name no zone has gets Try again and the offsets (those buttons are handled outside the
 * step). `picker`: the picker it was asked from, drawn again once the zone is set.
 */
function createTimeZoneInputConversation(
  deps: BotDeps,
  typedZoneSet: (outer: BotContext, chatId: number, zone: string, picker: PickerRef) => Promise<boolean>,
) {
  const limits = deps.flows.limits;
  return async function timeZoneInput(conversation: TimeZoneConversation, ctx: ConversationContext, picker?: PickerRef): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const ref: PickerRef = picker ?? { onSettings: false };
    const question = translate(ctx, "time-zone-ask");
    const prompt = await sendStepPrompt(conversation, ctx, question, HTML);
    for (;;) {
      const next = await conversation.wait();
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text?.trim() ?? "";
      const found = searchTimeZones(text);
      if (found.kind === "none") {
        const key = found.reason === "uneven_offset" ? "time-zone-uneven" : "time-zone-bad";
        await ctx.reply(translate(next, key, { value: echo(text) }), { ...HTML, reply_markup: createZoneNotFoundKeyboard(next, ref) });
        continue;
      }
      const nowMs = await conversation.external(() => deps.flows.now());
      if (found.kind === "some") {
        const more = Math.max(0, found.zones.length - ZONE_MATCHES_SHOWN);
        await ctx.reply(translate(next, "time-zone-matches", { value: echo(text), more }), {
          ...HTML,
          reply_markup: createZoneMatchesKeyboard(next, found.zones, nowMs, ref),
        });
        continue;
      }
      const { zone } = found;
      await conversation.external(() => limits.setTimeZone(chatId, zone));
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: text });
      const saved = translate(next, "time-zone-saved", { zone: zoneLabel(zone, nowMs) });
      const menuId = ref.cardId;
      if (menuId !== undefined && (await conversation.external((outer) => typedZoneSet(outer, chatId, zone, ref)))) {
        // An offer's menu becomes the word that the zone is saved, as a zone tapped on it does: nothing new is sent.
        const shown = await conversation.external(() =>
          editIgnoringUnchanged(() => ctx.api.editMessageText(chatId, menuId, saved, HTML)).then(
            () => true,
            (error: unknown) => {
              next.logger.info({ err: error }, "could not turn the zone menu into the saved word");
              return false;
            },
          ),
        );
        if (shown) return;
      }
      await ctx.reply(saved, HTML);
      await redrawPicker(ctx.api, next, chatId, ref, zone, nowMs);
      return;
    }
  };
}

/** An offset of a `tzp:l` button: whole minutes east of UTC that some clock shows now; undefined for a forged or outdated one. */
function offsetOf(value: string, nowMs: number): number | undefined {
  if (!/^-?\d{1,4}$/.test(value)) return undefined;
  const minutes = Number(value);
  return offsetsNow(nowMs).includes(minutes) ? minutes : undefined;
}

/**
 * The chat's one time zone (the same /limits sets): every time the bot shows is in it, and it bounds
 * the days and months of the limits. Reached from /settings: common zones as buttons, 🔎 a city typed
 * (or a UTC offset or an IANA name), 🕐 the UTC offsets of now and the places that keep each; and
 * offered under the messages that show times until the chat picks one.
 */
/** An /orders page drawn again in the chat's new zone, by the history feature that draws it (the zone offer under a page). */
export interface OrdersPageView {
  render(ctx: BotContext, chatId: number, filterCode: HistoryFilterCode, page: number): Promise<{ text: string; keyboard: InlineKeyboard | undefined }>;
}

export function createTimeZoneFeature(deps: BotDeps, orders: OrdersPageView): BotFeature {
  const limits = deps.flows.limits;
  const underOffers: UnderOfferRecords = createRecordStore({
    kv: deps.store.namespace("zone-offer-pickers"),
    schema: underOfferRecordSchema,
    version: 1,
    logger: deps.logger,
    name: "zone-offer-pickers",
  });
  const composer = new Composer<BotContext>();
  /** A city typed after 🔎 in an offer's menu: the message the offer sits under is drawn again too; false when the picker was no offer's. */
  const typedZoneSet = async (outer: BotContext, chatId: number, zone: string, picker: PickerRef): Promise<boolean> => {
    const under = await recalledUnderOffer(underOffers, chatId, picker.cardId);
    if (under === undefined) return false;
    await redrawUnderOffer(outer, chatId, zone, under);
    return true;
  };
  const conversation = createConversation<BotContext, ConversationContext>(createTimeZoneInputConversation(deps, typedZoneSet), {
    id: TIME_ZONE_INPUT_CONVERSATION,
    maxMillisecondsToWait: 10 * 60_000,
  });
  const feature = composer.chatType("private");

  feature.callbackQuery(timeZoneData.filter, logHandle("callback-time-zone"), async (ctx) => {
    const action = timeZoneData.unpack(ctx.callbackQuery.data)?.action;
    const chatId = ctx.chat.id;
    if (action === "m") {
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await ctx.reply(menuText(ctx, zone, deps.flows.now()), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone.zone) });
      return;
    }
    if (action === "ms") {
      // From the /settings card: the card becomes the choices, and ◀️ Back turns it into the card again.
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await editIgnoringUnchanged(() =>
        ctx.editMessageText(menuText(ctx, zone, deps.flows.now()), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone.zone, true) }),
      );
      return;
    }
    if (action === "o") {
      // Pickers already in chats carry this typing button: the same question as 🔎.
      await ctx.answerCallbackQuery();
      const message = ctx.callbackQuery.message;
      const picker: PickerRef = { onSettings: hasTimeZoneBack(message?.reply_markup), ...(message ? { cardId: message.message_id } : {}) };
      await ctx.enterFlow(TIME_ZONE_INPUT_CONVERSATION, picker);
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
      ctx.editMessageText(menuText(ctx, { zone, chosen: true }, deps.flows.now()), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone, withBack) }),
    );
  });

  /**
   * The picker's other screens, each drawn on the message tapped. A message answering a typed city
   * (`ref.cardId`) is no picker of /settings: its first screen has no ◀️ Back to the card, and a zone
   * picked on it turns it into the confirmation and draws the picker it was asked from again.
   */
  feature.callbackQuery(zonePickerData.filter, logHandle("callback-time-zone-picker"), async (ctx) => {
    const data = zonePickerData.unpack(ctx.callbackQuery.data);
    const ref = unpackPickerRef(data?.ref);
    const message = ctx.callbackQuery.message;
    if (data === undefined || ref === undefined || message === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const chatId = ctx.chat.id;
    const nowMs = deps.flows.now();
    const draw = (text: string, reply_markup?: ReturnType<typeof createTimeZoneKeyboard>) =>
      editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, ...(reply_markup ? { reply_markup } : {}) }));

    if (data.action === "c") {
      await ctx.answerCallbackQuery();
      const under = ref.cardId === undefined ? underOfferOf(message) : undefined;
      if (under !== undefined) await rememberUnderOffer(underOffers, chatId, message.message_id, under);
      await ctx.enterFlow(TIME_ZONE_INPUT_CONVERSATION, ref.cardId === undefined ? { ...ref, cardId: message.message_id } : ref);
      return;
    }
    if (data.action === "m") {
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await draw(menuText(ctx, zone, nowMs), createTimeZoneKeyboard(ctx, zone.zone, ref.onSettings && ref.cardId === undefined));
      return;
    }
    if (data.action === "g") {
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      const current = Math.round(zoneOffsetMs(nowMs, zone.zone) / 60_000);
      const text = translate(ctx, "time-zone-offsets-title", { zone: zoneLabel(zone.zone, nowMs) });
      await draw(text, createOffsetGridKeyboard(ctx, offsetsNow(nowMs), current, ref));
      return;
    }
    if (data.action === "l") {
      const minutes = offsetOf(data.value, nowMs);
      const zones = minutes === undefined ? [] : zonesAtOffset(minutes, nowMs);
      if (minutes === undefined || zones.length === 0 || !/^\d{1,3}$/.test(data.page)) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      await ctx.answerCallbackQuery();
      const pages = Math.ceil(zones.length / ZONES_PER_PAGE);
      // A page past the end (fewer zones at this offset since the button was drawn) shows the last one.
      const page = Math.min(Number(data.page), pages - 1);
      const lines = [translate(ctx, "time-zone-offset-zones", { offset: offsetText(minutes) })];
      if (pages > 1) lines.push(translate(ctx, "time-zone-page", { page: page + 1, pages }));
      const zone = await limits.zoneOf(chatId);
      await draw(lines.join("\n"), createOffsetZonesKeyboard(ctx, minutes, zones, page, zone.zone, ref));
      return;
    }
    if (data.action === "z" && data.value.length <= 64 && isValidTimeZone(data.value)) {
      const zone = data.value;
      await limits.setTimeZone(chatId, zone);
      ctx.logger.info({ zone, picked: true }, "time zone changed");
      await ctx.answerCallbackQuery({ text: ctx.t("time-zone-saved-short", { zone }) });
      // Reached from an offer's menu: the message under the offer (and a notice's card) is drawn again in the zone.
      const under = ref.cardId === undefined ? underOfferOf(message) : await recalledUnderOffer(underOffers, chatId, ref.cardId);
      if (ref.cardId === undefined && under === undefined) {
        await draw(menuText(ctx, { zone, chosen: true }, nowMs), createTimeZoneKeyboard(ctx, zone, ref.onSettings));
        return;
      }
      // The offer's menu, like a typed city's answer, becomes the word that the zone is saved.
      await draw(translate(ctx, "time-zone-saved", { zone: zoneLabel(zone, nowMs) }));
      await redrawPicker(ctx.api, ctx, chatId, ref, zone, nowMs);
      if (under !== undefined) await redrawUnderOffer(ctx, chatId, zone, under);
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
  });

  feature.callbackQuery(zoneOfferData.filter, logHandle("callback-time-zone-offer"), async (ctx) => {
    const offer = unpackZoneOffer(ctx.callbackQuery.data);
    if (offer === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (offer.pick === "menu") await openOfferMenu(ctx, offer.target);
    else await takeOffer(ctx, offer.pick, offer.target, offer.fromMenu);
  });

  /** The offer's other choices: the menu, sent replying to the message the offer sits under, its zones naming that message. */
  async function openOfferMenu(ctx: BotContext & { chat: { id: number } }, target: ZoneOfferTarget): Promise<void> {
    await ctx.answerCallbackQuery();
    const zone = await limits.zoneOf(ctx.chat.id);
    const under = ctx.callbackQuery?.message;
    await ctx.reply(menuText(ctx, zone, deps.flows.now()), {
      ...HTML,
      reply_markup: createTimeZoneKeyboard(ctx, zone.zone, false, target),
      ...(under === undefined ? {} : { reply_parameters: { message_id: under.message_id, allow_sending_without_reply: true } }),
    });
  }

  /**
   * A zone picked from an offer (its one-tap zone, or a zone of the menu it opened): the zone is set, and the
   * message the offer sat under is drawn again in it (its text anew, the offer gone, its other buttons kept),
   * with a notice's order card above it; one that cannot be drawn again only loses the offer, and the toast
   * says its times stay as they were. A menu the zone was picked on becomes the word that it is saved.
   */
  async function takeOffer(ctx: BotContext & { chat: { id: number } }, zone: string, target: ZoneOfferTarget | undefined, fromMenu = false): Promise<void> {
    const chatId = ctx.chat.id;
    const nowMs = deps.flows.now();
    await limits.setTimeZone(chatId, zone);
    ctx.logger.info({ zone, offered: true, fromMenu }, "time zone changed");
    const pressed = ctx.callbackQuery?.message;
    // The menu replies to the message the offer sat under: Telegram hands that message over with the tap.
    const message = fromMenu ? (pressed !== undefined && "reply_to_message" in pressed ? pressed.reply_to_message : undefined) : pressed;
    // The card is named by the offer, or (an offer drawn before offers named it) is the message the notice replies to.
    const cardAbove = !fromMenu && message !== undefined && "reply_to_message" in message ? message.reply_to_message : undefined;
    const under = underOffer(message, target, cardAbove);
    const redrawn = under?.target === undefined ? undefined : await redrawnMessage(ctx, chatId, zone, under.target, under.kept);
    const saved = ctx.t("time-zone-offer-saved", zoneOfferVars(zone, nowMs));
    await ctx.answerCallbackQuery({ text: redrawn === undefined ? `${saved} ${ctx.t("time-zone-offer-older")}` : saved });
    if (fromMenu) {
      await bestEffort(ctx, "editMessageText", () =>
        editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "time-zone-saved", { zone: zoneLabel(zone, nowMs) }), HTML)),
      );
    }
    if (under !== undefined) await drawUnderOffer(ctx, chatId, zone, under, redrawn);
  }

  /** The message under an offer drawn again in the zone just set (see `takeOffer`), from a picker the offer's menu led to. */
  async function redrawUnderOffer(ctx: BotContext, chatId: number, zone: string, under: UnderOffer): Promise<void> {
    const redrawn = under.target === undefined ? undefined : await redrawnMessage(ctx, chatId, zone, under.target, under.kept);
    await drawUnderOffer(ctx, chatId, zone, under, redrawn);
  }

  /** Shows `redrawn` in the message under the offer (or, without it, only takes the offer away), and a notice's card in the zone. */
  async function drawUnderOffer(
    ctx: BotContext,
    chatId: number,
    zone: string,
    under: UnderOffer,
    redrawn: { text: string; rows: InlineKeyboardButton[][] } | undefined,
  ): Promise<void> {
    const id = under.messageId;
    await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() =>
        redrawn === undefined
          ? ctx.api.editMessageReplyMarkup(chatId, id, { reply_markup: { inline_keyboard: under.kept } })
          : ctx.api.editMessageText(chatId, id, redrawn.text, { ...HTML, reply_markup: { inline_keyboard: redrawn.rows } }),
      ),
    );
    if (under.target?.on !== "notice") return;
    await redrawCard(ctx, chatId, zone, under.target.orderId, under.target.cardId, under.cardAbove);
  }

  /**
   * A fulfilled notice replies to its order's card, which shows the delegation's end too: drawn again in the zone
   * just picked, so the two messages never tell the same time in two zones. A card Telegram handed over keeps its
   * buttons as they are (and one that shows no button of this order is left alone); a card known by its id alone
   * gets the buttons the tracking draws under a finished order.
   */
  async function redrawCard(
    ctx: BotContext,
    chatId: number,
    zone: string,
    orderId: string,
    cardId: number | undefined,
    shown: Message | undefined,
  ): Promise<void> {
    const shownButtons = shown?.reply_markup?.inline_keyboard;
    const ofThisOrder = shownButtons?.some((row) => row.some((b) => "callback_data" in b && b.callback_data.includes(orderId))) ?? false;
    const messageId = cardId ?? (shown !== undefined && shown.date !== 0 && ofThisOrder ? shown.message_id : undefined);
    if (messageId === undefined) return;
    const entry = await deps.flows.history.get(chatId, "order", orderId);
    const endsAtMs = entry && delegationEndsAtMs(entry);
    if (entry?.status !== "fulfilled" || entry.address === undefined || entry.amount === undefined || entry.durationSec === undefined) return;
    if (entry.totalCostSun === undefined || endsAtMs === undefined) return;
    const order: Order = {
      orderId,
      status: entry.status,
      receiver: entry.address,
      resource: "ENERGY",
      resourceAmount: entry.amount,
      remainAmount: 0,
      isMatching: false,
      durationSec: entry.durationSec,
      totalCostSun: entry.totalCostSun,
      createdAt: new Date(entry.createdAtMs).toISOString(),
    };
    const locale = await ctx.i18n.getLocale();
    const nowMs = deps.flows.now();
    const text = orderCardText(ctx, order, locale, { nowMs, timeZone: zone, endsAtMs });
    const labelled = await withReceiverLabel(ctx, text, chatId, { kind: "order", record: order }, deps.flows.addressBook);
    const live = endsAtMs > nowMs && deps.reminders !== undefined;
    const reminder = live ? await deps.reminders?.isScheduled(chatId, orderId) : undefined;
    const buttons =
      cardId === undefined || shownButtons !== undefined ? (shownButtons ?? []) : createFinishedOrderKeyboard(ctx, ctx.links, order, reminder).inline_keyboard;
    // The tracking's own edit of the card (its final state, in the zone of then) may still wait in the outbox: queued
    // behind it, this one replaces it there.
    if (deps.push !== undefined) {
      const params = { chat_id: chatId, message_id: messageId, text: labelled, ...HTML, reply_markup: { inline_keyboard: buttons } };
      await deps.push.enqueue({ id: `tz-card-${chatId}-${messageId}-${nowMs}`, chatId, method: "editMessageText", params });
      return;
    }
    await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() => ctx.api.editMessageText(chatId, messageId, labelled, { ...HTML, reply_markup: { inline_keyboard: buttons } })),
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

  return { composer, conversation, routes: { callbacks: [timeZoneData, zonePickerData, zoneOfferData] } };
}
