import { Composer } from "grammy";
import { showTyping } from "../../bot/helpers/typing.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { Balance } from "../../platform/service/schemas.js";
import { MIN_DEPOSIT_SUN, topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { balanceRefreshData, menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { isNotModified } from "../../bot/helpers/edit.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { visibleText } from "../../bot/helpers/visible-text.js";
import { linkedOnly, type LinkedContext } from "../../bot/filters/linked.js";
import { depositQrPhoto } from "./top-up-texts.js";
import { parseTopUpDeepLink } from "../../bot/callback-data/top-up.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { createBalanceKeyboard } from "../../bot/keyboards/menu.js";

/**
 * /balance, one message: the deposit address's QR code with, as its caption,
 * exact TRX, the address in full (tap to copy) and how much to send: at least the minimum deposit, or what a quote
 * or a refused order still waiting for money needs. Its buttons: Refresh
 * (the same message, read again), Order, Top up (the QR code with what to
 * send, as the menu's Top up). A missing address or wallet is explained.
 * Other failures (401 -> re-link, 503 ...) go to the error boundary, which
 * names them. `/start topup_<requiredSun>` (the inline quote's Top up button)
 * shows the same card sized for that amount.
 */
export function createBalanceFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  /** The balance, or undefined after saying the account has no wallet. */
  async function readBalance(ctx: BotContext, apiKey: string): Promise<Balance | undefined> {
    await showTyping(ctx);
    try {
      return await deps.service.getBalance(apiKey);
    } catch (error) {
      if (ServiceError.isInstance(error) && error.isNotFound) {
        await ctx.reply(translate(ctx, "balance-no-wallet"), { ...HTML, ...textLinksMarkup(ctx, "balance-no-wallet") });
        return undefined;
      }
      throw error;
    }
  }

  async function replyWithQr(ctx: BotContext, address: string, caption: string): Promise<void> {
    await ctx.replyWithPhoto(await depositQrPhoto(address), { caption, parse_mode: "HTML" });
  }

  /** Where and how much to send: at least the minimum, or what the largest waiting confirmation still needs. */
  async function depositLines(ctx: BotContext, chatId: number, balance: Balance, address: string, locale: string): Promise<string[]> {
    const minDepositTrx = formatTrx(MIN_DEPOSIT_SUN, locale);
    // The largest amount still waited for: sending that covers every waiting quote at once.
    const waiting = (await deps.topUps?.watchesOf(chatId)) ?? [];
    const required = waiting.reduce((max, w) => (BigInt(w.requiredSun) > max ? BigInt(w.requiredSun) : max), 0n);
    const advice = topUpAdvice(required, BigInt(balance.availableSun));
    return [
      translate(ctx, "balance-deposit", { address: code(address) }),
      advice.covered
        ? translate(ctx, "topup-balance-minimum", { minDepositTrx })
        : translate(ctx, "topup-balance-waiting", {
            missingTrx: formatTrx(advice.shortfallSun, locale),
            sendTrx: formatTrx(advice.sendSun, locale),
            minDepositTrx,
          }),
    ];
  }

  /** The /balance message's text (the QR code is a photo of its own). */
  async function balanceText(ctx: BotContext, chatId: number, balance: Balance, locale: string): Promise<string> {
    const available = translate(ctx, "balance-available", { availableTrx: formatTrx(balance.availableSun, locale) });
    const address = balance.depositAddress;
    const rest = address === null ? [translate(ctx, "balance-no-address")] : await depositLines(ctx, chatId, balance, address, locale);
    return [available, ...rest].join("\n\n");
  }

  const markupOf = (ctx: BotContext, balance: Balance) =>
    balance.depositAddress === null ? textLinksMarkup(ctx, "balance-no-address", createBalanceKeyboard(ctx)) : { reply_markup: createBalanceKeyboard(ctx) };

  /** One message: the QR code of the deposit address, with the balance, the address (tap to copy) and what to send as its caption. */
  async function showBalance(ctx: LinkedContext): Promise<void> {
    const chatId = ctx.account.chatId;
    const locale = await ctx.i18n.getLocale();
    const balance = await readBalance(ctx, ctx.account.apiKey);
    if (!balance) return;
    const text = await balanceText(ctx, chatId, balance, locale);
    if (balance.depositAddress === null) {
      await ctx.reply(text, { ...HTML, ...markupOf(ctx, balance) });
      return;
    }
    await ctx.replyWithPhoto(await depositQrPhoto(balance.depositAddress), { caption: text, parse_mode: "HTML", ...markupOf(ctx, balance) });
  }

  /**
   * Top up: on the /balance card, that card says what to send (it holds the QR code already); from the menu,
   * the QR code with the address and what to send in its caption.
   */
  async function showTopUp(ctx: LinkedContext): Promise<void> {
    const onCard = ctx.callbackQuery?.message?.photo !== undefined;
    // A tap on the /balance card is answered once the card is redrawn (or found unchanged); any other at once.
    if (ctx.callbackQuery && !onCard) await ctx.answerCallbackQuery();
    const locale = await ctx.i18n.getLocale();
    const balance = await readBalance(ctx, ctx.account.apiKey);
    if (!balance || balance.depositAddress === null) {
      if (onCard) await ctx.answerCallbackQuery();
      if (balance) await ctx.reply(translate(ctx, "topup-no-address"), { ...HTML, ...textLinksMarkup(ctx, "topup-no-address") });
      return;
    }
    if (onCard) {
      const changed = await editCard(ctx, await balanceText(ctx, ctx.account.chatId, balance, locale), markupOf(ctx, balance));
      // The card already says it all: a tap that changes nothing still gets an answer.
      await ctx.answerCallbackQuery(changed ? {} : { text: ctx.t("topup-on-card", { minDepositTrx: formatTrx(MIN_DEPOSIT_SUN, locale) }) });
      return;
    }
    const lines = await depositLines(ctx, ctx.account.chatId, balance, balance.depositAddress, locale);
    await replyWithQr(ctx, balance.depositAddress, lines.join("\n\n"));
  }

  /** The card a button sits under, redrawn: its caption when it is the QR code, its text otherwise. False when it already showed that. */
  async function editCard(ctx: BotContext, text: string, markup: ReturnType<typeof markupOf>): Promise<boolean> {
    const message = ctx.callbackQuery?.message;
    if (visibleText(text) === (message?.caption ?? message?.text)) return false;
    try {
      if (message?.photo !== undefined) await ctx.editMessageCaption({ caption: text, parse_mode: "HTML", ...markup });
      else await ctx.editMessageText(text, { ...HTML, ...markup });
      return true;
    } catch (error) {
      // A second tap racing the first: the message already shows these figures.
      if (!isNotModified(error)) throw error;
      return false;
    }
  }

  feature.command("balance", logHandle("command-balance"), linkedOnly(showBalance));

  feature.callbackQuery(
    menuAction("balance"),
    logHandle("callback-menu-balance"),
    linkedOnly(async (ctx) => {
      await ctx.answerCallbackQuery();
      await showBalance(ctx);
    }),
  );

  feature.callbackQuery(menuAction("topup"), logHandle("callback-menu-topup"), linkedOnly(showTopUp));

  // Refresh: the message it sits under, read again and edited in place; the same figures are only said.
  feature.callbackQuery(
    balanceRefreshData.filter,
    logHandle("callback-balance-refresh"),
    linkedOnly(async (ctx) => {
      const locale = await ctx.i18n.getLocale();
      const balance = await readBalance(ctx, ctx.account.apiKey);
      if (!balance) {
        await ctx.answerCallbackQuery();
        return;
      }
      const text = await balanceText(ctx, ctx.account.chatId, balance, locale);
      const changed = await editCard(ctx, text, markupOf(ctx, balance));
      await ctx.answerCallbackQuery({ text: ctx.t(changed ? "buttons-balance-updated" : "buttons-balance-unchanged") });
    }),
  );

  feature
    .command("start")
    .filter((ctx) => parseTopUpDeepLink(ctx.match.trim()) !== undefined)
    .use(
      logHandle("command-start-top-up"),
      linkedOnly(async (ctx) => {
        const requiredSun = parseTopUpDeepLink(ctx.match.trim())!;
        const locale = await ctx.i18n.getLocale();
        const balance = await readBalance(ctx, ctx.account.apiKey);
        if (!balance) return;
        const advice = topUpAdvice(requiredSun, BigInt(balance.availableSun));
        const availableTrx = formatTrx(balance.availableSun, locale);
        if (advice.covered) {
          await ctx.reply(translate(ctx, "topup-covered", { availableTrx, requiredTrx: formatTrx(requiredSun, locale) }), HTML);
          return;
        }
        const text = [translate(ctx, "balance-available", { availableTrx }), topUpAdviceText(ctx, advice, balance.depositAddress, locale)].join("\n\n");
        // No address yet: the advice says to create it in the dashboard.
        if (balance.depositAddress === null) {
          await ctx.reply(text, { ...HTML, ...textLinksMarkup(ctx, "topup-no-address") });
          return;
        }
        // One message, as /balance: the QR code with what to send as its caption, Refresh redrawing it.
        await ctx.replyWithPhoto(await depositQrPhoto(balance.depositAddress), { caption: text, parse_mode: "HTML", reply_markup: createBalanceKeyboard(ctx) });
      }),
    );

  return { composer, routes: { commands: ["balance", "start"], callbacks: [menuData, balanceRefreshData] } };
}
