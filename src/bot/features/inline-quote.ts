import { Composer, InlineKeyboard } from "grammy";
import type { InlineQueryResult } from "grammy/types";
import { mulSun } from "../../core/money.js";
import type { Pricing } from "../../core/service/schemas.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { formatDuration } from "../helpers/duration.js";
import { formatInteger, formatTrx } from "../helpers/format.js";
import { translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { orderDeepLink, parseQuoteQuery } from "../helpers/quote-query.js";
import { sortedTiers, tierLabel, tierName } from "../helpers/tiers.js";

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

function results(ctx: BotContext, pricing: Pricing, locale: string): InlineQueryResult[] {
  const query = parseQuoteQuery(ctx.inlineQuery?.query ?? "", pricing, locale);
  const range = { amountMin: formatInteger(pricing.amountMin, locale), amountMax: formatInteger(pricing.amountMax, locale) };
  if (query.kind === "unparsed") {
    return [article("help", ctx.t("inline-unparsed-title"), ctx.t("inline-unparsed-description", range), translate(ctx, "inline-unparsed-message", range))];
  }
  if (query.kind === "unknown-tier") {
    const labels = sortedTiers(pricing).map((t) => tierLabel(ctx, t));
    const vars = { duration: query.duration, labels: labels.join(", "), example: labels.at(-1) ?? "1h" };
    return [article("tier", ctx.t("inline-unknown-tier-title", vars), ctx.t("inline-unknown-tier-description", vars), translate(ctx, "inline-unknown-tier-message", vars))];
  }
  if (query.kind === "out-of-range") {
    const vars = { ...range, amount: formatInteger(query.amount, locale) };
    return [article("range", ctx.t("inline-range-title", vars), ctx.t("inline-range-description", vars), translate(ctx, "inline-range-message", vars))];
  }
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
    return article(`q_${query.amount}_${tier.durationSec}`, ctx.t("inline-quote-title", vars), ctx.t("inline-quote-description", vars), translate(ctx, "inline-quote-message", vars), keyboard);
  });
}

/**
 * Inline price quotes for anyone, served only from the pricing cache. A user
 * without a linked key also gets Telegram's button that opens /start link.
 */
export function createInlineQuoteFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("inline_query", logHandle("inline-quote"), async (ctx) => {
    const pricing = await deps.pricing.get();
    const locale = await ctx.i18n.getLocale();
    // The private chat with a user has the user's id.
    const linked = await deps.chats.isLinked(ctx.inlineQuery.from.id);
    await ctx.answerInlineQuery(results(ctx, pricing, locale), {
      cache_time: 30,
      is_personal: true,
      ...(linked ? {} : { button: { text: ctx.t("inline-connect-button"), start_parameter: "link" } }),
    });
  });
  return composer;
}
