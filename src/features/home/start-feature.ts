import { Composer, Context, InlineKeyboard, type Middleware, type MiddlewareFn } from "grammy";
import { connectData } from "../../bot/callback-data/connect.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { LINK_CONVERSATION } from "../../bot/conversations/flow-ids.js";
import type { BotDeps } from "../../bot/deps.js";
import { BOT_COMMANDS } from "../../bot/register-commands.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatInteger } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { parseOrderDeepLink } from "../../bot/helpers/quote-query.js";
import { durationText } from "../../bot/helpers/record-text.js";
import { isJustLinked, resumeAfterLink, startIntentsOf } from "../../bot/helpers/resume-after-link.js";
import { isTopUpDeepLink } from "../../bot/callback-data/top-up.js";
import { privateChatKeyboard } from "../../bot/middlewares/group-guard.js";
import { greetedName, rentingTodayText } from "./greeting.js";
import { replyHome } from "./home-feature.js";
import { placeFirstPromptOnPressedCard } from "../../bot/helpers/screen.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";

/**
 * /start with deep links: `link` opens the link flow; an order deep link
 * (`order_<amount>_<durationSec>`) is left to the order feature (next) when
 * the chat is linked (a top-up link `topup_<requiredSun>` to the balance
 * feature); unlinked, it is kept (start-intent.ts), the welcome
 * offers Connect, and the order flow opens with the link's amount and
 * duration once the chat is linked. Anything else, a broken or outdated
 * `order_…` link included, shows the home card (home.ts): the balance, what
 * needs attention and the main actions, each handled by its command's feature.
 * In a group /start only greets briefly and points to the private chat
 * (nothing is stored).
 */
export function createStartFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  // The update that ended a link conversation with a deep link waiting (link.ts), whatever its kind.
  const always: MiddlewareFn<BotContext> = async (ctx, next) => {
    if (ctx.chat?.type !== "private" || !isJustLinked(ctx)) return next();
    await resumeAfterLink(ctx, deps);
  };

  feature.command("start", logHandle("command-start"), async (ctx, next) => {
    const payload = ctx.match.trim();
    if (isTopUpDeepLink(payload)) return next();
    const order = parseOrderDeepLink(payload);
    if (order !== undefined && (await ctx.linked()) !== undefined) return next();
    await deps.chats.markActive(ctx.chat.id);
    if (payload === "link") {
      await ctx.enterFlow(LINK_CONVERSATION);
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
    await replyHome(ctx, deps);
  });

  feature.callbackQuery(connectData.filter, logHandle("callback-connect"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
    // Pressed again while its link flow waits (the flow passes foreign buttons on): the prompt is there already.
    if (ctx.conversation.active(LINK_CONVERSATION) > 0) return;
    // Connect on the welcome card: the flow's first question takes the card's place.
    placeFirstPromptOnPressedCard(ctx);
    if ((await ctx.linked()) !== undefined) {
      // Linked meanwhile (/link typed by hand): go straight on.
      if (!(await resumeAfterLink(ctx, deps))) await replyHome(ctx, deps);
      return;
    }
    await ctx.enterFlow(LINK_CONVERSATION);
  });

  composer.chatType(["group", "supergroup"]).command("start", logHandle("command-start-group"), async (ctx) => {
    await ctx.reply(translate(ctx, "group-hello"), { ...HTML, reply_markup: privateChatKeyboard(ctx) });
  });

  return { composer, always, routes: { commands: ["start"], callbacks: [connectData] } };
}

/**
 * A group's "Open private chat" on a refused command (`/start balance`): the
 * private chat runs that command, as if typed. Before the features are chosen
 * for the update, so the command's own feature takes it.
 */
export function startPayloadCommands(): Middleware<BotContext> {
  const isStart = Context.has.command("start");
  return (ctx, next) => {
    if (ctx.chat?.type !== "private" || ctx.message === undefined || !isStart(ctx)) return next();
    const payload = ctx.match.trim();
    if (payload !== "start" && payload !== "link" && BOT_COMMANDS.some((c) => c.command === payload)) {
      const text = `/${payload}`;
      Object.assign(ctx.message, { text, entities: [{ type: "bot_command", offset: 0, length: text.length }] });
    }
    return next();
  };
}
