import { Composer, InlineKeyboard } from "grammy";
import type { InlineQueryResult } from "grammy/types";
import { mulSun } from "../../shared/money.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { formatDuration } from "../../bot/helpers/duration.js";
import { echo } from "../../bot/helpers/echo.js";
import { formatChoices, formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { orderDeepLink, parseQuoteQuery } from "../../bot/helpers/quote-query.js";
import { sortedTiers, tierLabel, tierName } from "../../bot/helpers/tiers.js";
import { topUpDeepLink } from "../../bot/callback-data/top-up.js";

function article(id: string, title: string, description: string, messageText: string, keyboard?: InlineKeyboard): InlineQueryResult {
  return {
    type: "article",
    id,
    title,
    description,
    input_message_content: { message_text: messageText, parse_mode: "HTML", link_preview_options: { is_disabled: true } },
    ...(keyboard ? { reply_markup: keyboard } : {}),
  };
}

const INLINE_BALANCE_TIMEOUT_MS = 2_000;

/** The linked user's available balance, when it can be read: only the results list (seen by that user alone) uses it. */
type Available = bigint | undefined;

/**
 * A query that gives no price is answered with a hint as the button above the (empty) results, never with
 * an article: an article can be sent, and would post the hint into the chat where the user was typing.
 */
function hintOf(ctx: BotContext, pricing: Pricing, locale: string): string | undefined {
  const query = parseQuoteQuery(ctx.inlineQuery?.query ?? "", pricing, locale);
  const range = { amountMin: formatInteger(pricing.amountMin, locale), amountMax: formatInteger(pricing.amountMax, locale) };
  if (query.kind === "unparsed") return ctx.t("inline-unparsed-title", range);
  if (query.kind === "unknown-tier") {
    const labels = sortedTiers(pricing).map((t) => tierLabel(ctx, t));
    return ctx.t("inline-unknown-tier-hint", { duration: echo(query.duration), labels: formatChoices(labels, locale) });
  }
  if (query.kind === "out-of-range") return ctx.t("inline-range-hint", range);
  return undefined;
}

function results(ctx: BotContext, pricing: Pricing, locale: string, available: Available): InlineQueryResult[] {
  const query = parseQuoteQuery(ctx.inlineQuery?.query ?? "", pricing, locale);
  if (query.kind !== "quote") return [];
  return query.tiers.map((tier) => {
    const vars = {
      label: tierLabel(ctx, tier),
      amount: formatInteger(query.amount, locale),
      unitPriceSun: formatInteger(tier.unitPriceSun, locale),
      duration: formatDuration(ctx, tier.durationSec),
      tier: tierName(ctx, tier),
      totalTrx: formatTrx(mulSun(query.amount, tier.unitPriceSun), locale),
    };
    const keyboard = new InlineKeyboard().url(ctx.t("inline-order-button"), orderDeepLink(ctx.me.username, query.amount, tier.durationSec));
    // The advice goes in the description, never in the message: that is posted where others read it.
    const advice = available === undefined ? undefined : topUpAdvice(mulSun(query.amount, tier.unitPriceSun), available);
    const description =
      advice && !advice.covered
        ? ctx.t("topup-inline-short", { availableTrx: formatTrx(available!, locale), sendTrx: formatTrx(advice.sendSun, locale) })
        : ctx.t("inline-quote-description", vars);
    return article(
      `q_${query.amount}_${tier.durationSec}`,
      ctx.t("inline-quote-title", vars),
      description,
      translate(ctx, "inline-quote-message", vars),
      keyboard,
    );
  });
}

/**
 * The button above the results when the balance cannot cover the dearest
 * quote shown: the amount to send, and a way into the private chat, where
 * /start topup_… shows the deposit address and its QR code.
 */
function topUpButton(ctx: BotContext, pricing: Pricing, locale: string, available: Available): { button?: { text: string; start_parameter: string } } {
  if (available === undefined) return {};
  const query = parseQuoteQuery(ctx.inlineQuery?.query ?? "", pricing);
  if (query.kind !== "quote") return {};
  const dearest = query.tiers.reduce((max, t) => (mulSun(query.amount, t.unitPriceSun) > max ? mulSun(query.amount, t.unitPriceSun) : max), 0n);
  const advice = topUpAdvice(dearest, available);
  if (advice.covered) return {};
  return { button: { text: ctx.t("topup-inline-button", { sendTrx: formatTrx(advice.sendSun, locale) }), start_parameter: topUpDeepLink(dearest) } };
}

async function availableOf(deps: BotDeps, ctx: BotContext, apiKey: string): Promise<Available> {
  try {
    // Inline answers are expected at once: a slow balance read is dropped, not waited for.
    const balance = await deps.service.getBalance(apiKey, { signal: AbortSignal.timeout(INLINE_BALANCE_TIMEOUT_MS) });
    return BigInt(balance.availableSun);
  } catch (error) {
    // Prices answer anyway; the advice is a bonus.
    ctx.logger.debug({ err: error }, "balance unavailable for an inline quote");
    return undefined;
  }
}

/**
 * Inline price quotes for anyone, served only from the pricing cache. A user
 * without a linked key also gets Telegram's button that opens /start link.
 */
export function createInlineQuoteFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  composer.on("inline_query", logHandle("inline-quote"), async (ctx) => {
    const pricing = await deps.pricing.get();
    const locale = await ctx.i18n.getLocale();
    // The private chat with a user has the user's id.
    const apiKey = (await ctx.linked())?.apiKey;
    const available = apiKey === undefined ? undefined : await availableOf(deps, ctx, apiKey);
    const hint = hintOf(ctx, pricing, locale);
    await ctx.answerInlineQuery(results(ctx, pricing, locale, available), {
      cache_time: 30,
      is_personal: true,
      ...(hint !== undefined
        ? { button: { text: hint, start_parameter: "help" } }
        : apiKey === undefined
          ? { button: { text: ctx.t("inline-connect-button"), start_parameter: "link" } }
          : topUpButton(ctx, pricing, locale, available)),
    });
  });
  return { composer, routes: { inlineQueries: true } };
}
