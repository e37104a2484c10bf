import { Composer } from "grammy";
import { isQuoteExpired } from "../../shared/orders/quote.js";
import type { BalanceWatch } from "./top-up-watcher.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { topUpData } from "../../bot/callback-data/top-up.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { linkedForButton } from "../../bot/filters/linked.js";
import { creditedMessage, depositQrPhoto } from "./top-up-texts.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";

type Target = Pick<BalanceWatch, "kind" | "refId" | "origin" | "requiredSun" | "untilMs">;

/**
 * "Top up" under a short quote or a 402: the balance read afresh, then the
 * amount to send (never under the minimum deposit) with the deposit address
 * and its QR code, and the watch (re)started. Money already there gets the
 * "credited" message with Confirm or Retry at once.
 */
export function createTopUpFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  /** What the button stands for, while it can still be sent under its own key. */
  async function targetOf(chatId: number, kind: string, refId: string): Promise<Target | undefined> {
    const watched = (await deps.topUps?.watchesOf(chatId))?.find((w) => w.refId === refId);
    if (kind === "o") {
      const quote = await flows.quotes.get(refId);
      if (!quote || quote.chatId !== chatId || quote.state !== "open" || isQuoteExpired(quote, flows.now())) return undefined;
      const origin = watched?.origin ?? (quote.attempts > 0 ? "refused" : "quote");
      return { kind: "order", refId, origin, requiredSun: watched?.requiredSun ?? quote.totalSun, untilMs: quote.expiresAtMs };
    }
    if (kind === "b") {
      const draft = await flows.drafts.get(refId);
      // A broadcast's fee is only known from its 402, which the watch keeps.
      if (!draft || draft.chatId !== chatId || draft.state !== "open" || !watched) return undefined;
      return { kind: "broadcast", refId, origin: "refused", requiredSun: watched.requiredSun, untilMs: draft.summary.expirationMs };
    }
    return undefined;
  }

  feature.callbackQuery(topUpData.filter, logHandle("callback-top-up"), async (ctx) => {
    const data = topUpData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const target = data ? await targetOf(chatId, data.kind, data.refId) : undefined;
    if (!target) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const account = await linkedForButton(ctx);
    if (account === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const balance = await deps.service.getBalance(account.apiKey);
    await ctx.answerCallbackQuery();
    const advice = topUpAdvice(BigInt(target.requiredSun), BigInt(balance.availableSun));
    if (advice.covered) {
      await deps.topUps?.unwatch(target.kind, target.refId);
      const message = creditedMessage(ctx, target, balance.availableSun, locale);
      await ctx.reply(message.text, { ...HTML, reply_markup: message.keyboard });
      return;
    }
    if (balance.depositAddress === null) {
      await ctx.reply(translate(ctx, "topup-no-address"), { ...HTML, ...textLinksMarkup(ctx, "topup-no-address") });
      return;
    }
    const caption = `${topUpAdviceText(ctx, advice, balance.depositAddress, locale)}\n${translate(ctx, "topup-watching")}`;
    await ctx.replyWithPhoto(await depositQrPhoto(balance.depositAddress), { caption, parse_mode: "HTML" });
    await deps.topUps?.watch({
      kind: target.kind,
      refId: target.refId,
      chatId,
      requiredSun: target.requiredSun,
      origin: target.origin,
      untilMs: target.untilMs,
      locale,
    });
  });

  return { composer, routes: { callbacks: [topUpData] } };
}
