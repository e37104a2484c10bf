import { Composer, InlineKeyboard } from "grammy";
import { sortedTiers } from "../../shared/orders/order-input.js";
import { prepareQuote } from "../../shared/orders/prepare-quote.js";
import { watchShortQuote } from "./short-quote-watch.js";
import { formatDecimal, mulSun } from "../../shared/money.js";
import { isValidTronAddress } from "../../shared/tron/index.js";
import { RESOURCE_ESTIMATES } from "../../shared/tron/index.js";
import { createCallbackData } from "../../bot/callback-data/create-callback-data.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { prepareRefusalText, quoteMessage } from "./order-conversation.js";
import { ORDER_CONVERSATION, type OrderConversationArgs } from "../../bot/conversations/flow-ids.js";
import { ADDRESSES_CONVERSATION, type AddressesConversationArgs } from "../../bot/conversations/flow-ids.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { knownContractsOf, quoteDepsOf } from "../../bot/helpers/quote-deps.js";
import { tierLabel } from "../../bot/helpers/tiers.js";
import { SEND_CONVERSATION } from "../../bot/conversations/flow-ids.js";

/**
 * The two amounts a pasted address is usually for: the energy of one USDT transfer to an address that holds
 * USDT, and to one that never did (service-api.md, "Fee"), rounded up to the next thousand for headroom.
 */
const QUICK_AMOUNTS = [65_000, 131_000] as const;

/** A preset: `qk:<address>:<amount>:<durationSec>`; the card's other actions: `qa:<address>:<o other amount | s save | u send USDT>`. */
const presetData = createCallbackData("qk", ["address", "amount", "durationSec"]);
const actionData = createCallbackData("qa", ["address", "action"]);

/** 65k, 65к, 6.5万: a preset as each language writes a round amount of energy (Chinese counts them in 万, ten thousands). */
const shortAmount = (ctx: BotContext, amount: number, locale: string) =>
  ctx.t("quick-order-amount", { amount: formatDecimal(String(amount / (locale.startsWith("zh") ? 10_000 : 1_000)), locale) });

/**
 * A TRON address pasted on its own in a private chat, outside any flow: the most common gesture with energy
 * bots. Answered with a quick-order card: the two usual amounts for each duration with its total, so an
 * order is two taps (a preset, then Confirm on the quote the card becomes), and the other things one does
 * with an address.
 */
export function createQuickOrderFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  const sendOffered = deps.send !== undefined && deps.config.publicUrl !== undefined;

  feature
    .on("message:text")
    .filter((ctx) => isValidTronAddress(ctx.message.text.trim()))
    .use(logHandle("text-quick-order"), async (ctx) => {
      const address = ctx.message.text.trim();
      const locale = await ctx.i18n.getLocale();
      if (knownContractsOf(flows).includes(address)) {
        await ctx.reply(translate(ctx, "order-receiver-contract", { address: code(address) }), HTML);
        return;
      }
      const pricing = await deps.pricing.get();
      const label = (await ctx.linked()) === undefined ? undefined : await flows.addressBook.labelOf(ctx.chat.id, address);
      const keyboard = new InlineKeyboard();
      const fits = QUICK_AMOUNTS.filter((amount) => amount >= pricing.amountMin && amount <= pricing.amountMax);
      for (const tier of sortedTiers(pricing.tiers)) {
        for (const amount of fits) {
          keyboard.text(
            ctx.t("quick-order-preset", {
              amount: shortAmount(ctx, amount, locale),
              duration: tierLabel(ctx, tier),
              totalTrx: formatTrx(mulSun(amount, tier.unitPriceSun), locale),
            }),
            presetData.pack({ address, amount, durationSec: tier.durationSec }),
          );
        }
        keyboard.row();
      }
      keyboard.text(ctx.t("quick-order-other-amount"), actionData.pack({ address, action: "o" }));
      if (label === undefined) keyboard.text(ctx.t("quick-order-save"), actionData.pack({ address, action: "s" }));
      if (sendOffered) keyboard.row().text(ctx.t("buttons-menu-send"), actionData.pack({ address, action: "u" }));
      const text = [
        translate(ctx, label === undefined ? "quick-order-title" : "quick-order-title-label", { address: code(address), label: label ?? "" }),
        translate(ctx, "quick-order-uses", {
          holder: formatInteger(RESOURCE_ESTIMATES.usdtExistingHolder, locale),
          firstTime: formatInteger(RESOURCE_ESTIMATES.usdtNewHolder, locale),
        }),
      ].join("\n");
      await ctx.reply(text, { ...HTML, reply_markup: keyboard });
    });

  // A preset: the card becomes the quote, whose Confirm places the order.
  feature.callbackQuery(
    presetData.filter,
    logHandle("callback-quick-order"),
    linkedOnly(async (ctx) => {
      const data = presetData.unpack(ctx.callbackQuery.data);
      if (!data || !isValidTronAddress(data.address)) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      await ctx.answerCallbackQuery();
      const locale = await ctx.i18n.getLocale();
      const result = await prepareQuote(quoteDepsOf(deps), ctx.account, [
        { toAddress: data.address, amount: Number(data.amount), durationSec: Number(data.durationSec) },
      ]);
      if (!result.ok) {
        await editIgnoringUnchanged(() => ctx.editMessageText(prepareRefusalText(ctx, result), HTML));
        return;
      }
      const { text, other } = quoteMessage(ctx, result.prepared, locale);
      await editIgnoringUnchanged(() => ctx.editMessageText(text, other));
      const messageId = ctx.callbackQuery.message?.message_id;
      if (messageId !== undefined) await flows.quotes.update(result.prepared.quote.quoteId, (q) => ({ ...q, messageId }));
      await watchShortQuote(deps.topUps, result.prepared, locale);
    }),
  );

  feature.callbackQuery(
    actionData.filter,
    logHandle("callback-quick-order-action"),
    linkedOnly(async (ctx) => {
      const data = actionData.unpack(ctx.callbackQuery.data);
      if (!data || !isValidTronAddress(data.address)) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      await ctx.answerCallbackQuery();
      // The card's buttons go: the flow it opens asks what is left.
      await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
      if (data.action === "o") return ctx.enterFlow(ORDER_CONVERSATION, { prefill: { address: data.address } } satisfies OrderConversationArgs);
      if (data.action === "s") return ctx.enterFlow(ADDRESSES_CONVERSATION, { add: data.address } satisfies AddressesConversationArgs);
      if (data.action === "u" && sendOffered) return ctx.enterFlow(SEND_CONVERSATION, { who: data.address });
    }),
  );

  return { composer, routes: { messages: true, callbacks: [presetData, actionData] } };
}
