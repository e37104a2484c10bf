import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";

/** Registered last: whatever no feature took. */
export function createUnhandledFeature(_deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.on("message:text", logHandle("unhandled-text"), async (ctx) => {
    const key = ctx.message.text.startsWith("/") ? "unhandled-command" : "unhandled-text";
    await ctx.reply(translate(ctx, key), HTML);
  });

  // A button nobody handles any more (an old flow, a restarted bot): say so instead of spinning.
  composer.on("callback_query", logHandle("unhandled-callback"), async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
  });

  return composer;
}
