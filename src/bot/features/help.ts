import { Composer } from "../composer.js";
import { menuAction } from "../callback-data/menu.js";
import type { BotContext } from "../context.js";
import { escapeHtml, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { createRenderMemo } from "../helpers/render-memo.js";
import { BOT_COMMANDS } from "../register-commands.js";

/**
 * /help: built from the command menu
 * (`BOT_COMMANDS` and each command's Fluent `.description`), so a
 * feature that adds a command appears here by itself. Groups see only the
 * public commands.
 */
export function createHelpFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const commands = BOT_COMMANDS;
  const memo = createRenderMemo<string>();
  function helpText(ctx: BotContext, inPrivate: boolean): string {
    const lines = commands.filter((c) => inPrivate || c.public).map((c) => `/${c.command} — ${escapeHtml(ctx.t(`${c.command}.description`))}`);
    const username = ctx.me.username;
    return [
      translate(ctx, inPrivate ? "help-title-private" : "help-title-group"),
      lines.join("\n"),
      ...(inPrivate ? [] : [translate(ctx, "help-group-private", { username })]),
      translate(ctx, "help-inline", { username }),
    ].join("\n\n");
  }
  async function showHelp(ctx: BotContext & { chat: { type: string } }): Promise<void> {
    const inPrivate = ctx.chat.type === "private";
    // The same text for every chat of one locale and kind.
    const text = memo(`${await ctx.i18n.getLocale()}:${inPrivate ? "private" : "group"}`, () => helpText(ctx, inPrivate));
    await ctx.reply(text, HTML);
  }

  composer.command("help", logHandle("command-help"), showHelp);
  composer.chatType("private").callbackQuery(menuAction("help"), logHandle("callback-menu-help"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showHelp(ctx);
  });
  return composer;
}
