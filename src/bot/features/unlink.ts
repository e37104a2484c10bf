import { Composer } from "grammy";
import { unlinkData } from "../callback-data/unlink.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { createUnlinkKeyboard } from "../keyboards/unlink.js";

/** /unlink asks first; the confirm button removes key, secret and route. */
export function createUnlinkFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command("unlink", logHandle("command-unlink"), async (ctx) => {
    if (!(await deps.chats.isLinked(ctx.chat.id))) {
      await ctx.reply(translate(ctx, "not-linked"), HTML);
      return;
    }
    await ctx.reply(translate(ctx, "unlink-confirm"), { ...HTML, reply_markup: createUnlinkKeyboard(ctx) });
  });

  feature.callbackQuery(unlinkData.filter, logHandle("callback-unlink"), async (ctx) => {
    const answer = unlinkData.unpack(ctx.callbackQuery.data)?.answer;
    await ctx.answerCallbackQuery();
    if (answer !== "yes") {
      await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "unlink-kept"), HTML));
      return;
    }
    const removed = await deps.chats.unlink(ctx.chat.id);
    ctx.logger.info({ removed }, "chat unlinked");
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, removed ? "unlink-done" : "not-linked"), HTML));
  });

  return composer;
}
