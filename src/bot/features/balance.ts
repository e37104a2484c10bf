import { Composer } from "grammy";
import { ServiceError } from "../../core/service/errors.js";
import type { Balance } from "../../core/service/schemas.js";
import { MIN_DEPOSIT_SUN, topUpAdvice } from "../../core/topup/top-up-advice.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { formatTrx } from "../helpers/format.js";
import { code, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { linkedOnly } from "../filters/linked.js";
import { depositQrPhoto, parseTopUpDeepLink, topUpAdviceText } from "../helpers/top-up-text.js";

/**
 * /balance: exact TRX, the deposit address in full (tap to copy) and its QR
 * code, and how much to send: at least the minimum deposit, or what a quote
 * or a refused order still waiting for money needs. A missing address or
 * wallet is explained. Other failures (401 -> re-link, 503 ...) go to the
 * error boundary, which names them. `/start topup_<requiredSun>` (the inline
 * quote's Top up button) shows the same card sized for that amount.
 */
export function createBalanceFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  /** The balance, or undefined after saying the account has no wallet. */
  async function readBalance(ctx: BotContext, apiKey: string): Promise<Balance | undefined> {
    await ctx.replyWithChatAction("typing");
    try {
      return await deps.service.getBalance(apiKey);
    } catch (error) {
      if (ServiceError.isInstance(error) && error.isNotFound) {
        await ctx.reply(translate(ctx, "balance-no-wallet"), HTML);
        return undefined;
      }
      throw error;
    }
  }

  async function replyWithQr(ctx: BotContext, address: string): Promise<void> {
    await ctx.replyWithPhoto(await depositQrPhoto(address), {
      // The address itself is in the text above (one tap copies it); the caption only names the picture.
      caption: translate(ctx, "balance-qr-caption"),
      parse_mode: "HTML",
    });
  }

  feature.command(
    "balance",
    logHandle("command-balance"),
    linkedOnly(async (ctx) => {
      const locale = await ctx.i18n.getLocale();
      const balance = await readBalance(ctx, ctx.account.apiKey);
      if (!balance) return;
      const lines = [translate(ctx, "balance-available", { availableTrx: formatTrx(balance.availableSun, locale) })];
      const address = balance.depositAddress;
      if (address === null) {
        lines.push(translate(ctx, "balance-no-address"));
        await ctx.reply(lines.join("\n\n"), HTML);
        return;
      }
      const minDepositTrx = formatTrx(MIN_DEPOSIT_SUN, locale);
      lines.push(translate(ctx, "balance-deposit", { address: code(address) }));
      // The largest amount still waited for: sending that covers every waiting quote at once.
      const waiting = (await deps.flows.balanceWatch?.watchesOf(ctx.chat.id)) ?? [];
      const required = waiting.reduce((max, w) => (BigInt(w.requiredSun) > max ? BigInt(w.requiredSun) : max), 0n);
      const advice = topUpAdvice(required, BigInt(balance.availableSun));
      lines.push(
        advice.covered
          ? translate(ctx, "topup-balance-minimum", { minDepositTrx })
          : translate(ctx, "topup-balance-waiting", { missingTrx: formatTrx(advice.shortfallSun, locale), sendTrx: formatTrx(advice.sendSun, locale), minDepositTrx }),
      );
      await ctx.reply(lines.join("\n\n"), HTML);
      await replyWithQr(ctx, address);
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
        await ctx.reply(text, HTML);
        if (balance.depositAddress !== null) await replyWithQr(ctx, balance.depositAddress);
      }),
    );

  return composer;
}
