import { InlineKeyboard } from "grammy";
import { Composer } from "../composer.js";
import { connectData } from "../callback-data/connect.js";
import type { BotContext } from "../context.js";
import { LINK_CONVERSATION } from "../conversations/link.js";
import type { BotDeps } from "../deps.js";
import { BOT_COMMANDS } from "../register-commands.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { formatInteger } from "../helpers/format.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { parseOrderDeepLink } from "../helpers/quote-query.js";
import { durationText } from "../helpers/record-text.js";
import { tierLabel } from "../helpers/tiers.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN, percentAgainstBurning } from "../../core/burn-saving.js";
import { isJustLinked, resumeAfterLink, startIntentsOf } from "../helpers/resume-after-link.js";
import { isTopUpDeepLink } from "../helpers/top-up-text.js";
import { privateChatKeyboard } from "../middlewares/group-guard.js";
import { textLinksMarkup } from "../keyboards/links.js";
import { createLinkedMenuKeyboard, createWelcomeMenuKeyboard } from "../keyboards/menu.js";

/**
 * /start with deep links: `link` opens the link flow; an order deep link
 * (`order_<amount>_<durationSec>`) is left to the order feature (next) when
 * the chat is linked (a top-up link `topup_<requiredSun>` to the balance
 * feature); unlinked, it is kept (start-intent.ts), the welcome
 * offers Connect, and the order flow opens with the link's amount and
 * duration once the chat is linked. Anything else greets, a broken or
 * outdated `order_…` link included; the greeting carries the main actions as
 * buttons (keyboards/menu.ts, each handled by its command's feature). In a group /start only greets briefly and
 * points to the private chat (nothing is stored).
 */
/**
 * What renting costs today against burning TRX, from the pricing cache: the cheapest tier's unit price
 * against ENERGY_BURN_PRICE_SUN (core/burn-saving.ts, the formula of the quote and /statement), or a
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
function greetedName(ctx: Pick<BotContext, "from" | "chat">): string {
  return ctx.from?.first_name ?? ctx.chat?.first_name ?? "";
}

/** The greeting with the main actions as buttons: the account's for a linked chat, Connect and a look around otherwise. */
async function replyWelcome(ctx: BotContext, deps: BotDeps): Promise<void> {
  const linked = (await ctx.linked()) !== undefined;
  const offers = { send: deps.send !== undefined && deps.config.publicUrl !== undefined };
  const keyboard = linked ? createLinkedMenuKeyboard(ctx, ctx.links, offers) : createWelcomeMenuKeyboard(ctx, ctx.links);
  const prices = await rentingTodayText(ctx, deps);
  await ctx.reply(translate(ctx, linked ? "start-welcome-linked" : "start-welcome", { name: greetedName(ctx), prices }), {
    ...HTML,
    reply_markup: keyboard,
  });
}

export function createStartFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  // The update that ended a link conversation with a deep link waiting (link.ts).
  feature.use(async (ctx, next) => {
    if (!isJustLinked(ctx)) return next();
    await resumeAfterLink(ctx, deps);
  });

  feature.command("start", logHandle("command-start"), async (ctx, next) => {
    const payload = ctx.match.trim();
    // A group's "Open private chat" on a refused command: the private chat runs that command, as if typed.
    if (payload !== "start" && payload !== "link" && BOT_COMMANDS.some((c) => c.command === payload)) {
      const text = `/${payload}`;
      Object.assign(ctx.message, { text, entities: [{ type: "bot_command", offset: 0, length: text.length }] });
      return next();
    }
    if (isTopUpDeepLink(payload)) return next();
    const order = parseOrderDeepLink(payload);
    if (order !== undefined && (await ctx.linked()) !== undefined) return next();
    await deps.chats.markActive(ctx.chat.id);
    if (payload === "link") {
      await ctx.conversation.enter(LINK_CONVERSATION);
      return;
    }
    if (order !== undefined) {
      await startIntentsOf(deps).save(ctx.chat.id, { kind: "order", ...order });
      const locale = await ctx.i18n.getLocale();
      const after = translate(ctx, "account-deeplink-after-link", {
        amount: formatInteger(order.amount, locale),
        duration: durationText(ctx, order.durationSec),
      });
      const keyboard = new InlineKeyboard().text(ctx.t("account-connect-button"), connectData.pack({ then: "order" }));
      const prices = await rentingTodayText(ctx, deps);
      await ctx.reply(`${translate(ctx, "start-welcome", { name: greetedName(ctx), prices })}\n\n${after}`, {
        ...HTML,
        ...textLinksMarkup(ctx, "account-deeplink-after-link", keyboard),
      });
      return;
    }
    await replyWelcome(ctx, deps);
  });

  feature.callbackQuery(connectData.filter, logHandle("callback-connect"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
    // Pressed again while its link flow waits (the flow passes foreign buttons on): the prompt is there already.
    if (ctx.conversation.active(LINK_CONVERSATION) > 0) return;
    if ((await ctx.linked()) !== undefined) {
      // Linked meanwhile (/link typed by hand): go straight on.
      if (!(await resumeAfterLink(ctx, deps))) await replyWelcome(ctx, deps);
      return;
    }
    await ctx.conversation.enter(LINK_CONVERSATION);
  });

  composer.chatType(["group", "supergroup"]).command("start", logHandle("command-start-group"), async (ctx) => {
    await ctx.reply(translate(ctx, "group-hello"), { ...HTML, reply_markup: privateChatKeyboard(ctx) });
  });

  return composer;
}
