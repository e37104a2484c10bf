import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { HTML } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { pricesText } from "../helpers/tiers.js";

/** /prices (private and groups): the tier table from the pricing cache. */
export function createPricesFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("prices", logHandle("command-prices"), async (ctx) => {
    const pricing = await deps.pricing.get();
    await ctx.reply(pricesText(ctx, pricing, await ctx.i18n.getLocale()), HTML);
  });
  return composer;
}
