import { Composer } from "grammy";
import type { InlineKeyboard } from "grammy";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { HTML } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createRenderMemoBy } from "../../bot/helpers/render-memo.js";
import { pricesText } from "../../bot/helpers/tiers.js";
import { createPricesKeyboard } from "../../bot/keyboards/menu.js";
import { showScreen } from "../../bot/helpers/screen.js";

/**
 * /prices (private and groups): the tier table from the pricing cache. In a
 * private chat each tier has an "Order" button (the order feature takes it);
 * a group has no orders, so no buttons.
 */
export function createPricesFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();

  // Per price list (the pricing cache hands out one object until it reloads), locale and chat kind.
  const memo = createRenderMemoBy<{ text: string; keyboard?: InlineKeyboard }>();

  async function showPrices(ctx: BotContext): Promise<void> {
    const pricing = await deps.pricing.get();
    const locale = await ctx.i18n.getLocale();
    const inPrivate = ctx.chat?.type === "private";
    const { text, keyboard } = memo(pricing, `${locale}:${inPrivate ? "private" : "other"}`, () => ({
      text: pricesText(ctx, pricing, locale),
      ...(inPrivate ? { keyboard: createPricesKeyboard(ctx, pricing) } : {}),
    }));
    if (inPrivate) await showScreen(ctx, text, keyboard);
    else await ctx.reply(text, { ...HTML, ...(keyboard ? { reply_markup: keyboard } : {}) });
  }

  composer.command("prices", logHandle("command-prices"), showPrices);
  composer.chatType("private").callbackQuery(menuAction("prices"), logHandle("callback-menu-prices"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showPrices(ctx);
  });
  return { composer, routes: { commands: ["prices"], callbacks: [menuData] } };
}
