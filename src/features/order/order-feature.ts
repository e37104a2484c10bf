import { Composer } from "grammy";
import { parseOneShotOrder, type OneShotParse } from "../../shared/orders/one-shot.js";
import { sortedTiers } from "../../shared/orders/order-input.js";
import type { PlaceResult } from "../../shared/orders/place-order.js";
import type { Quote, QuoteRequestItem } from "../../shared/orders/quote.js";
import { quoteData, rentAgainData } from "../../bot/callback-data/order.js";
import { menuAction, menuData, orderTierData } from "../../bot/callback-data/menu.js";
import { durationText } from "../../bot/helpers/record-text.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { prepareRefusalText, quoteMessage, replyWithQuote } from "./order-conversation.js";
import { ORDER_CONVERSATION, type OrderConversationArgs } from "../../bot/conversations/flow-ids.js";
import { knownContractsOf, quoteDepsOf } from "../../bot/helpers/quote-deps.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatChoices, formatTrx } from "../../bot/helpers/format.js";
import { createLimitRefusalKeyboard, createQuoteConfirmAgainKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { limitRefusalText } from "../../bot/helpers/refusal-texts.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { bestEffort, firstCardSignal } from "../../bot/helpers/best-effort.js";
import { failedReply, placedText } from "./order-placement-texts.js";
import { parseOrderDeepLink } from "../../bot/helpers/quote-query.js";
import { tierLabel } from "../../bot/helpers/tiers.js";
import { prepareQuote } from "../../shared/orders/prepare-quote.js";
import { watchShortQuote } from "./short-quote-watch.js";
import { linkedForButton, linkedOnly } from "../../bot/filters/linked.js";
import { orderPartErrorText } from "../../bot/helpers/order-part-error.js";
import { createFreshQuoteKeyboard } from "./order-keyboards.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";

/** A one-shot command names one order: its error names the one wrong part, not "line 1" of a batch. */
function oneShotErrorText(ctx: BotContext, error: Exclude<OneShotParse, { ok: true }>, durations: string, locale: string): string {
  return orderPartErrorText(ctx, error, durations, locale) ?? translate(ctx, "order-usage", { durations });
}

/**
 * c confirm, x cancel, r retry, f fresh quote, g check again, u unfreeze, e change address (order-keyboards.ts),
 * a confirm again (above the threshold, features/limits/limits-keyboards.ts).
 */
const QUOTE_ACTIONS: ReadonlySet<string> = new Set(["c", "x", "r", "f", "a", "g", "u", "e"]);

const itemsOf = (quote: Quote): QuoteRequestItem[] => quote.items.map((i) => ({ toAddress: i.toAddress, amount: i.amount, durationSec: i.durationSec }));

/**
 * /order (guided or one-shot), the `order_…` deep link, the quote buttons
 * (Confirm, Cancel, Retry, fresh quote) and "Rent again".
 */
export function createOrderFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function sendQuote(ctx: BotContext, items: QuoteRequestItem[]): Promise<void> {
    const result = await prepareQuote(quoteDepsOf(deps), await ctx.linked(), items);
    const messageId = await replyWithQuote(ctx, result, await ctx.i18n.getLocale());
    if (result.ok && messageId !== undefined) {
      await flows.quotes.update(result.prepared.quote.quoteId, (q) => ({ ...q, messageId }));
      await watchShortQuote(deps.topUps, result.prepared, await ctx.i18n.getLocale());
    }
  }

  /** `/order <address|label> <amount> [duration]`: straight to the quote; a missing duration is asked. */
  async function oneShot(ctx: BotContext, chatId: number, text: string): Promise<void> {
    const pricing = await deps.pricing.get();
    const locale = await ctx.i18n.getLocale();
    const durations = formatChoices(
      sortedTiers(pricing.tiers).map((t) => tierLabel(ctx, t)),
      locale,
    );
    const parsed = await parseOneShotOrder(text, pricing, (receiver) => flows.addressBook.resolve(chatId, receiver), locale);
    if (!parsed.ok) {
      await ctx.reply(oneShotErrorText(ctx, parsed, durations, locale), HTML);
      return;
    }
    if (knownContractsOf(flows).includes(parsed.address)) {
      // Refused before any quote; the guided order goes on with the same amount (and duration) and asks for another receiver.
      await ctx.reply(translate(ctx, "order-receiver-contract", { address: code(parsed.address) }), HTML);
      const prefill = { amount: parsed.amount, ...(parsed.durationSec === undefined ? {} : { durationSec: parsed.durationSec }) };
      await ctx.enterFlow(ORDER_CONVERSATION, { prefill } satisfies OrderConversationArgs);
      return;
    }
    if (parsed.durationSec === undefined) {
      const args: OrderConversationArgs = { prefill: { address: parsed.address, amount: parsed.amount } };
      await ctx.enterFlow(ORDER_CONVERSATION, args);
      return;
    }
    await sendQuote(ctx, [{ toAddress: parsed.address, amount: parsed.amount, durationSec: parsed.durationSec }]);
  }

  feature.command(
    "order",
    logHandle("command-order"),
    linkedOnly(async (ctx) => {
      const text = ctx.match.trim();
      if (text) return oneShot(ctx, ctx.chat.id, text);
      await ctx.enterFlow(ORDER_CONVERSATION, {} satisfies OrderConversationArgs);
    }),
  );

  feature.callbackQuery(
    menuAction("order"),
    logHandle("callback-menu-order"),
    linkedOnly(async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.enterFlow(ORDER_CONVERSATION, {} satisfies OrderConversationArgs);
    }),
  );

  // /prices' "Order this": the guided order with that tier's duration already chosen.
  feature.callbackQuery(
    orderTierData.filter,
    logHandle("callback-order-tier"),
    linkedOnly(async (ctx) => {
      const durationSec = Number(orderTierData.unpack(ctx.callbackQuery.data)?.durationSec);
      const pricing = await deps.pricing.get();
      // The tier list changed since /prices: the duration is not offered any more.
      if (!pricing.tiers.some((t) => t.durationSec === durationSec)) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      await ctx.answerCallbackQuery();
      await ctx.reply(translate(ctx, "buttons-order-tier-chosen", { duration: durationText(ctx, durationSec) }), HTML);
      await ctx.enterFlow(ORDER_CONVERSATION, { prefill: { durationSec } } satisfies OrderConversationArgs);
    }),
  );

  // Deep link from inline quotes: `/start order_<amount>_<durationSec>`.
  feature
    .command("start")
    .filter((ctx) => parseOrderDeepLink(ctx.match.trim()) !== undefined)
    .use(
      logHandle("command-start-order"),
      linkedOnly(async (ctx) => {
        const link = parseOrderDeepLink(ctx.match.trim())!;
        const args: OrderConversationArgs = { prefill: { amount: link.amount, durationSec: link.durationSec } };
        await ctx.enterFlow(ORDER_CONVERSATION, args);
      }),
    );

  feature.callbackQuery(quoteData.filter, logHandle("callback-order-quote"), async (ctx) => {
    const data = quoteData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const quote = data ? await flows.quotes.get(data.quoteId) : undefined;
    // Only the actions our buttons carry: forged data with any other action is not a Confirm.
    if (!data || !QUOTE_ACTIONS.has(data.action) || !quote || quote.chatId !== chatId) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const locale = await ctx.i18n.getLocale();
    if (data.action === "x") {
      const cancelled = await flows.placer.cancel(chatId, quote.quoteId);
      if (cancelled?.state !== "cancelled") {
        await ctx.answerCallbackQuery({ text: ctx.t(quote.state === "placed" ? "order-already-placed" : "order-cannot-cancel") });
        return;
      }
      await deps.topUps?.unwatch("order", quote.quoteId);
      await ctx.answerCallbackQuery();
      await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "order-quote-cancelled"), HTML));
      return;
    }
    if (data.action === "g" || data.action === "u") {
      if ((await linkedForButton(ctx, quote)) === undefined) return;
      if (data.action === "u") await flows.limits.unfreeze(chatId);
      await requoteInPlace(ctx, quote, locale);
      return;
    }
    if (data.action === "e") {
      await changeAddress(ctx, quote);
      return;
    }
    if (data.action === "f") {
      await ctx.answerCallbackQuery();
      await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
      await sendQuote(ctx, itemsOf(quote));
      return;
    }
    const account = await linkedForButton(ctx, quote);
    if (account === undefined) return;
    const cardMessageId = ctx.callbackQuery.message?.message_id;
    // A Retry of a quote already sent once was allowed by the threshold's second tap (if any) then.
    const confirmedAgain = data.action === "a" || (data.action === "r" && quote.attempts > 0);
    // A lost answer is never a refusal: the card says so at once (no buttons) while the same request goes again.
    let checking = false;
    const onUnknown = async (): Promise<void> => {
      checking = true;
      await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
      await bestEffort(ctx, "editMessageText", () => editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "order-unknown-checking"), HTML)));
    };
    const answered = (text?: string) =>
      checking ? Promise.resolve(true) : bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery(text === undefined ? {} : { text }));
    const result = await flows.placer.place({
      chatId,
      quoteId: quote.quoteId,
      apiKey: account.apiKey,
      locale,
      drawsCard: true,
      confirmedAgain,
      onUnknown,
      ...(cardMessageId === undefined ? {} : { cardMessageId }),
    });
    switch (result.status) {
      case "placed": {
        // From here on every Telegram call is best effort: the orders are charged, recorded and tracked.
        if (result.alreadyPlaced) {
          await answered(ctx.t("order-already-placed"));
          return;
        }
        await answered();
        await drawPlaced(ctx, chatId, result, locale);
        // Confirmed from the "top-up credited" message: the quote above would still say "short, top up".
        if (quote.messageId !== undefined && quote.messageId !== cardMessageId) {
          const quoteMessageId = quote.messageId;
          await bestEffort(ctx, "editMessageText", () => ctx.api.editMessageText(chatId, quoteMessageId, translate(ctx, "topup-quote-placed"), HTML));
        }
        return;
      }
      case "needs_second_tap":
        await ctx.answerCallbackQuery({ text: ctx.t("limits-confirm-again-note") });
        await editIgnoringUnchanged(() =>
          ctx.editMessageReplyMarkup({ reply_markup: createQuoteConfirmAgainKeyboard(ctx, quote.quoteId, formatTrx(BigInt(quote.totalSun), locale)) }),
        );
        return;
      case "over_limit":
        // Nothing was sent: the quote keeps its buttons, so a Confirm after raising the cap still works.
        await ctx.answerCallbackQuery();
        await ctx.reply(limitRefusalText(ctx, result.refusal, BigInt(quote.totalSun), locale), {
          ...HTML,
          reply_markup: createLimitRefusalKeyboard(ctx, quote.quoteId, result.refusal),
        });
        return;
      case "cancelled":
        // Cancelled by its own button or by /cancel, which already redrew the message (this client may not show it yet).
        await ctx.answerCallbackQuery({ text: ctx.t("flow-offer-cancelled") });
        return;
      case "expired":
        await ctx.answerCallbackQuery({ text: ctx.t("order-quote-expired-short") });
        await editIgnoringUnchanged(() =>
          ctx.editMessageText(translate(ctx, "order-quote-expired"), { ...HTML, reply_markup: createFreshQuoteKeyboard(ctx, quote.quoteId) }),
        );
        return;
      case "failed": {
        if (checking) return showChecked(ctx, result, locale);
        // A Retry sits on the refusal it repeats: the same card is redrawn, never a new message per tap.
        if (data.action === "r") return showRetried(ctx, result, quote.lastErrorCode, locale);
        await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
        await bestEffort(ctx, "editMessageReplyMarkup", () => ctx.editMessageReplyMarkup());
        const reply = failedReply(ctx, result, locale);
        const sent = await ctx.reply(reply.text, { ...HTML, ...textLinksMarkup(ctx, reply.keys, reply.keyboard) });
        // The refusal's Retry is the quote's live message now: /cancel and a Retry from "credited" redraw it.
        if (reply.keyboard) await flows.quotes.update(quote.quoteId, (q) => ({ ...q, messageId: sent.message_id }));
        await watchRefused(result, locale);
        return;
      }
      default:
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    }
  });

  /**
   * The card said "checking" and the checks ended: still unknown (the journal replays the same key in
   * the background and the tracker redraws this card), or a definite refusal, told on the same card.
   */
  async function showChecked(ctx: BotContext, result: Extract<PlaceResult, { status: "failed" }>, locale: string): Promise<void> {
    if (result.quote.state === "unknown") {
      await bestEffort(ctx, "editMessageText", () => editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "order-unknown-pending"), HTML)));
      return;
    }
    const reply = failedReply(ctx, result, locale);
    const drawn = await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() => ctx.editMessageText(reply.text, { ...HTML, ...textLinksMarkup(ctx, reply.keys, reply.keyboard) })),
    );
    const cardId = ctx.callbackQuery?.message?.message_id;
    if (drawn && reply.keyboard && cardId !== undefined) await flows.quotes.update(result.quote.quoteId, (q) => ({ ...q, messageId: cardId }));
    await watchRefused(result, locale);
  }

  /** A Retry refused again: the refusal redrawn on its own card, and the tap told whether anything changed. */
  async function showRetried(
    ctx: BotContext,
    result: Extract<PlaceResult, { status: "failed" }>,
    previousCode: string | undefined,
    locale: string,
  ): Promise<void> {
    const same = previousCode === result.error.code;
    await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery(same ? { text: ctx.t("order-retry-same") } : {}));
    // The same refusal is on the card already (a 402's balance may have moved, so that one is redrawn).
    if (same && result.error.code !== "wallet.insufficient_balance") return;
    const reply = failedReply(ctx, result, locale);
    const cardId = ctx.callbackQuery?.message?.message_id;
    const drawn = await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() => ctx.editMessageText(reply.text, { ...HTML, ...textLinksMarkup(ctx, reply.keys, reply.keyboard) })),
    );
    if (drawn && reply.keyboard && cardId !== undefined) await flows.quotes.update(result.quote.quoteId, (q) => ({ ...q, messageId: cardId }));
    await watchRefused(result, locale);
  }

  /**
   * Check again (and Unfreeze): a fresh quote of the same items drawn on the same message. The old
   * one never had a Confirm and is closed, so no earlier button can send it.
   */
  async function requoteInPlace(ctx: BotContext, quote: Quote, locale: string): Promise<void> {
    // Only a quote that certainly charged nothing is replaced: one already sent keeps its own key.
    const closed = await flows.placer.cancel(quote.chatId, quote.quoteId);
    if (closed?.state !== "cancelled") {
      await ctx.answerCallbackQuery({ text: ctx.t(quote.state === "placed" ? "order-already-placed" : "button-expired") });
      return;
    }
    await deps.topUps?.unwatch("order", quote.quoteId);
    const result = await prepareQuote(quoteDepsOf(deps), await ctx.linked(), itemsOf(quote));
    const stillBlocked = result.ok ? result.prepared.blocked !== undefined : true;
    await ctx.answerCallbackQuery(stillBlocked ? { text: ctx.t("order-quote-still-blocked") } : {});
    if (!result.ok) {
      await editIgnoringUnchanged(() => ctx.editMessageText(prepareRefusalText(ctx, result), HTML));
      return;
    }
    const { text, other } = quoteMessage(ctx, result.prepared, locale);
    await editIgnoringUnchanged(() => ctx.editMessageText(text, other));
    const messageId = ctx.callbackQuery?.message?.message_id;
    if (messageId !== undefined) await flows.quotes.update(result.prepared.quote.quoteId, (q) => ({ ...q, messageId }));
    await watchShortQuote(deps.topUps, result.prepared, locale);
  }

  /**
   * ✏️ Change address: the refused quote is closed and the guided order asks for another receiver
   * with the same amount and duration (a recent receiver is one tap), then quotes afresh.
   */
  async function changeAddress(ctx: BotContext, quote: Quote): Promise<void> {
    const only = quote.items.length === 1 ? quote.items[0] : undefined;
    const cancelled = only === undefined ? undefined : await flows.placer.cancel(quote.chatId, quote.quoteId);
    if (only === undefined || cancelled?.state !== "cancelled") {
      await ctx.answerCallbackQuery({ text: ctx.t(quote.state === "placed" ? "order-already-placed" : "button-expired") });
      return;
    }
    if ((await linkedForButton(ctx, quote)) === undefined) return;
    await deps.topUps?.unwatch("order", quote.quoteId);
    await ctx.answerCallbackQuery();
    await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
    const args: OrderConversationArgs = { prefill: { amount: only.amount, durationSec: only.durationSec } };
    await ctx.enterFlow(ORDER_CONVERSATION, args);
  }

  /** A 402 with somewhere to send money: the balance is watched, and "credited, tap Retry" follows. */
  async function watchRefused(result: Extract<PlaceResult, { status: "failed" }>, locale: string): Promise<void> {
    const { error, quote, balance } = result;
    if (error.code !== "wallet.insufficient_balance" || !balance?.depositAddress || !deps.topUps) return;
    const requiredSun = BigInt(error.requiredSun ?? quote.totalSun);
    await deps.topUps.watch({
      kind: "order",
      refId: quote.quoteId,
      chatId: quote.chatId,
      requiredSun,
      origin: "refused",
      untilMs: quote.expiresAtMs,
      locale,
    });
  }

  /** The quote message becomes the order's card (or the batch's list); the tracker learns whether it did. */
  async function drawPlaced(ctx: BotContext, chatId: number, result: Extract<PlaceResult, { status: "placed" }>, locale: string): Promise<void> {
    const only = result.orders.length === 1 ? result.orders[0] : undefined;
    const refresh = only && only.status !== "fulfilled" ? { reply_markup: createTrackRefreshKeyboard(ctx, "order", only.orderId) } : {};
    const drawn = await bestEffort(ctx, "editMessageText", () =>
      ctx.editMessageText(placedText(ctx, result, locale), { ...HTML, ...refresh }, firstCardSignal()),
    );
    const cardMessageId = only ? ctx.callbackQuery?.message?.message_id : undefined;
    for (const o of result.orders) {
      const item = { chatId, kind: "order" as const, id: o.orderId };
      if (drawn) await flows.tracker.cardShown({ ...item, status: o.status, ...(cardMessageId === undefined ? {} : { cardMessageId }) });
      else await flows.tracker.cardNotShown(item);
    }
  }

  feature.callbackQuery(rentAgainData.filter, logHandle("callback-rent-again"), async (ctx) => {
    const data = rentAgainData.unpack(ctx.callbackQuery.data);
    const account = await ctx.linked();
    await ctx.answerCallbackQuery();
    if (!data || account === undefined) {
      await ctx.reply(translate(ctx, "not-linked"), { ...HTML, ...textLinksMarkup(ctx, "not-linked") });
      return;
    }
    const order = await deps.service.getOrder(account.apiKey, data.orderId);
    await sendQuote(ctx, [{ toAddress: order.receiver, amount: order.resourceAmount, durationSec: order.durationSec }]);
  });

  return { composer, routes: { commands: ["order", "start"], callbacks: [menuData, orderTierData, quoteData, rentAgainData] } };
}
