import { Composer, InlineKeyboard } from "grammy";
import { qrPhoto } from "../../bot/helpers/qr-photo.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedForButton, linkedOnly, type LinkedContext } from "../../bot/filters/linked.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { createLimitsFixKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { limitRefusalText } from "../../bot/helpers/refusal-texts.js";
import { logHandle } from "../../bot/helpers/logging.js";
import type { TronNetwork } from "../../shared/tron/network.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../../shared/burn-saving.js";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { InlineKeyboardMarkup } from "grammy/types";
import { SEND_CONVERSATION } from "../../bot/conversations/flow-ids.js";
import { confirmSend } from "./send-confirm.js";
import { prepareSendQuote, type SendQuoteDeps } from "./send-quote.js";
import type { SendIntent, SendIntents } from "./send-intent.js";
import { newLinkKeyboard, sendData, signingKeyboard, signingLink, signingText, usdtText } from "./send-texts.js";

export interface SendFeatureDeps {
  intents: SendIntents;
  network: TronNetwork;
}

/** c confirm, a confirm again (second tap), x cancel, q QR code, n new link. */
const ACTIONS: ReadonlySet<string> = new Set(["c", "a", "x", "q", "n"]);

/**
 * /send: a USDT transfer from the user's own wallet, quoted here, signed on the signing page in the wallet,
 * and broadcast with the chat's key (docs/send.md). Confirm checks the chat's caps and second-tap threshold,
 * then turns the quote into a one-time signing link.
 */
export function createSendFeature(deps: BotDeps & { send: SendFeatureDeps }): BotFeature {
  const { flows, send } = deps;
  const publicUrl = deps.config.publicUrl;
  const burnPriceSun = deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  const quoteDeps: SendQuoteDeps = {
    intents: send.intents,
    addressBook: flows.addressBook,
    pricing: deps.pricing,
    usdtContract: send.network.usdtContract,
    burnPriceSun,
    now: flows.now,
  };

  async function quote(ctx: LinkedContext, who: string, amountText: string): Promise<void> {
    const chatId = ctx.chat!.id;
    const locale = await ctx.i18n.getLocale();
    const prepared = await prepareSendQuote(quoteDeps, ctx, { chatId, linkId: ctx.account.record.linkId, who, amountText, locale });
    if (!prepared.ok) {
      await ctx.reply(prepared.text, HTML);
      return;
    }
    const sent = await ctx.reply(prepared.text, { ...HTML, reply_markup: prepared.reply_markup as InlineKeyboardMarkup });
    await send.intents.update(prepared.intentId, (i) => ({ ...i, messageId: sent.message_id }));
  }

  feature.command(
    "send",
    logHandle("command-send"),
    linkedOnly(async (ctx) => {
      if (publicUrl === undefined) {
        await ctx.reply(translate(ctx, "send-no-public-url"), HTML);
        return;
      }
      const [who = "", ...amount] = ctx.match.trim().split(/\s+/).filter(Boolean);
      if (amount.length === 0) return ctx.enterFlow(SEND_CONVERSATION, who === "" ? {} : { who });
      await quote(ctx, who, amount.join(" "));
    }),
  );

  feature.callbackQuery(
    menuAction("send"),
    logHandle("callback-menu-send"),
    linkedOnly(async (ctx) => {
      await ctx.answerCallbackQuery();
      if (publicUrl === undefined) {
        await ctx.reply(translate(ctx, "send-no-public-url"), HTML);
        return;
      }
      await ctx.enterFlow(SEND_CONVERSATION, {});
    }),
  );

  /** The quote becomes the signing card: the link, its button and how long it lives. */
  async function showLink(ctx: BotContext, intent: SendIntent, token: string): Promise<void> {
    const link = signingLink(publicUrl!, token);
    const { zone } = await flows.limits.zoneOf(intent.chatId);
    const locale = await ctx.i18n.getLocale();
    await editIgnoringUnchanged(() =>
      ctx.editMessageText(signingText(ctx, intent, link, { nowMs: flows.now(), timeZone: zone }, locale), {
        ...HTML,
        link_preview_options: { is_disabled: true },
        reply_markup: signingKeyboard(ctx, intent.intentId, link),
      }),
    );
  }

  async function confirm(ctx: BotContext, intent: SendIntent, again: boolean): Promise<void> {
    const account = await linkedForButton(ctx, intent);
    if (account === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const confirmed = await confirmSend({ limits: flows.limits, intents: send.intents, now: flows.now }, intent, again);
    if (!confirmed.ok && confirmed.reason === "refused") {
      await ctx.answerCallbackQuery();
      await ctx.reply(limitRefusalText(ctx, confirmed.refusal, confirmed.feeSun, locale), {
        ...HTML,
        reply_markup: createLimitsFixKeyboard(ctx, confirmed.refusal),
      });
      return;
    }
    if (!confirmed.ok && confirmed.reason === "needs_second_tap") {
      await ctx.answerCallbackQuery({ text: ctx.t("limits-confirm-again-note") });
      await editIgnoringUnchanged(() =>
        ctx.editMessageReplyMarkup({
          reply_markup: new InlineKeyboard()
            .text(
              ctx.t("limits-confirm-again-button", { costTrx: formatTrx(confirmed.feeSun, locale) }),
              sendData.pack({ intentId: intent.intentId, action: "a" }),
            )
            .text(ctx.t("send-cancel-button"), sendData.pack({ intentId: intent.intentId, action: "x" })),
        }),
      );
      return;
    }
    if (!confirmed.ok) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await ctx.answerCallbackQuery();
    await showLink(ctx, confirmed.intent, confirmed.token);
  }

  feature.callbackQuery(sendData.filter, logHandle("callback-send"), async (ctx) => {
    const data = sendData.unpack(ctx.callbackQuery.data);
    const intent = data && ACTIONS.has(data.action) ? await send.intents.get(data.intentId) : undefined;
    if (!data || !intent || intent.chatId !== ctx.chat.id || publicUrl === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (intent.state === "cancelled" || intent.state === "signed") {
      await ctx.answerCallbackQuery({ text: ctx.t(intent.state === "signed" ? "send-link-dead" : "send-cancelled") });
      return;
    }
    switch (data.action) {
      case "x": {
        await send.intents.update(intent.intentId, (i) => (i.state === "signed" ? i : { ...i, state: "cancelled" }));
        await ctx.answerCallbackQuery();
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "send-cancelled"), HTML));
        if (intent.qrMessageId !== undefined) {
          await ctx.api
            .deleteMessage(intent.chatId, intent.qrMessageId)
            .catch((error: unknown) => ctx.logger.debug({ err: error }, "the QR code was gone already"));
        }
        return;
      }
      case "c":
      case "a":
        if (intent.state === "signing") {
          // A second Confirm on a card already signing: the link on it still works.
          await ctx.answerCallbackQuery();
          return;
        }
        return confirm(ctx, intent, data.action === "a");
      case "n": {
        // A card whose link expired: a new link after the same checks as the first Confirm.
        return confirm(ctx, { ...intent, state: "quoted" }, true);
      }
      case "q": {
        const issued =
          intent.state === "signing" && (intent.linkExpiresAtMs ?? 0) > flows.now() ? await send.intents.issueLink(intent.intentId, flows.now()) : undefined;
        if (!issued) {
          await ctx.answerCallbackQuery({ text: ctx.t("send-link-dead") });
          await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup({ reply_markup: newLinkKeyboard(ctx, intent.intentId) }));
          return;
        }
        await ctx.answerCallbackQuery();
        // The QR carries a fresh link, so the card shows that one: the one before it no longer opens, nor its QR.
        await showLink(ctx, issued.intent, issued.token);
        const locale = await ctx.i18n.getLocale();
        const photo = await ctx.replyWithPhoto(await qrPhoto(signingLink(publicUrl, issued.token), "signing-link.png"), {
          caption: translate(ctx, "send-qr-caption", { amount: usdtText(intent.amountAtomic, locale), address: intent.to }),
          parse_mode: "HTML",
        });
        const before = intent.qrMessageId;
        await send.intents.update(intent.intentId, (i) => ({ ...i, qrMessageId: photo.message_id }));
        if (before !== undefined)
          await ctx.api.deleteMessage(intent.chatId, before).catch((error: unknown) => ctx.logger.debug({ err: error }, "an older QR code was gone already"));
        return;
      }
    }
  });

  return { composer, routes: { commands: ["send"], callbacks: [menuData, sendData] } };
}
