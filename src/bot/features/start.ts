import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { LINK_CONVERSATION } from "../conversations/link.js";
import type { BotDeps } from "../deps.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { parseOrderDeepLink } from "../helpers/quote-query.js";
import { isTopUpDeepLink } from "../helpers/top-up-text.js";
import { privateChatKeyboard } from "../middlewares/group-guard.js";

/**
 * /start with deep links: `link` opens the link flow; an order deep link
 * (`order_<amount>_<durationSec>`) is left to the order feature and a top-up
 * link (`topup_<requiredSun>`) to the balance feature (next);
 * anything else greets, a broken or outdated `order_…` link included. In a
 * group /start only greets briefly and points to the private chat (nothing
 * is stored).
 */
export function createStartFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command("start", logHandle("command-start"), async (ctx, next) => {
    const payload = ctx.match.trim();
    if (parseOrderDeepLink(payload) !== undefined || isTopUpDeepLink(payload)) return next();
    await deps.chats.markActive(ctx.chat.id);
    if (payload === "link") {
      await ctx.conversation.enter(LINK_CONVERSATION);
      return;
    }
    const linked = await deps.chats.isLinked(ctx.chat.id);
    await ctx.reply(translate(ctx, linked ? "start-welcome-linked" : "start-welcome", { name: ctx.from.first_name }), HTML);
  });

  composer.chatType(["group", "supergroup"]).command("start", logHandle("command-start-group"), async (ctx) => {
    await ctx.reply(translate(ctx, "group-hello"), { ...HTML, reply_markup: privateChatKeyboard(ctx) });
  });

  return composer;
}
