import { Composer } from "../composer.js";
import { menuAction } from "../callback-data/menu.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { HTML } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { pricesText } from "../helpers/tiers.js";
import { createPricesKeyboard } from "../keyboards/menu.js";

/**
 * /prices (private and groups): the tier table from the pricing cache. In a
 * private chat each tier has an "Order" button (the order feature takes it);
 * a group has no orders, so no buttons.
 */
export function createPricesFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  async function showPrices(ctx: BotContext): Promise<void> {
    const pricing = await deps.pricing.get();
    const buttons = ctx.chat?.type === "private" ? { reply_markup: createPricesKeyboard(ctx, pricing) } : {};
    await ctx.reply(pricesText(ctx, pricing, await ctx.i18n.getLocale()), { ...HTML, ...buttons });
  }

  composer.command("prices", logHandle("command-prices"), showPrices);
  composer.chatType("private").callbackQuery(menuAction("prices"), logHandle("callback-menu-prices"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showPrices(ctx);
  });
  return composer;
}
