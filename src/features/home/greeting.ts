import type { BotContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN, percentAgainstBurning } from "../../shared/burn-saving.js";
import { formatInteger } from "../../bot/helpers/format.js";
import { translate } from "../../bot/helpers/html.js";
import { tierLabel } from "../../bot/helpers/tiers.js";

/**
 * What renting costs today against burning TRX, from the pricing cache: the cheapest tier's unit price
 * against ENERGY_BURN_PRICE_SUN (shared/burn-saving.ts, the formula of the quote and /statement), or a
 * plain "cannot say now" when the prices cannot be read. Never a fixed promise.
 */
export async function rentingTodayText(ctx: BotContext, deps: Pick<BotDeps, "pricing" | "config" | "logger">): Promise<string> {
  let tiers;
  try {
    tiers = (await deps.pricing.get()).tiers;
  } catch (error) {
    deps.logger.warn({ err: error }, "pricing unavailable for the greeting");
    return translate(ctx, "start-prices-unavailable");
  }
  const cheapest = [...tiers].sort((a, b) => a.unitPriceSun - b.unitPriceSun)[0];
  if (cheapest === undefined) return translate(ctx, "start-prices-unavailable");
  const burnPriceSun = deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN;
  const locale = await ctx.i18n.getLocale();
  const percent = percentAgainstBurning(cheapest.unitPriceSun, burnPriceSun);
  return translate(ctx, percent > 0 ? "start-prices-cheaper" : "start-prices-dearer", {
    unitPriceSun: formatInteger(cheapest.unitPriceSun, locale),
    tier: tierLabel(ctx, cheapest),
    burnPriceSun: formatInteger(burnPriceSun, locale),
    percent,
  });
}

/**
 * Whom the greeting names: the sender, or the private chat's own name when Telegram left `from` out
 * (it does not promise it; a message sent on behalf of a chat has none).
 */
export function greetedName(ctx: Pick<BotContext, "from" | "chat">): string {
  return ctx.from?.first_name ?? ctx.chat?.first_name ?? "";
}
