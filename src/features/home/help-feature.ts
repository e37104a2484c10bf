import { menuAction } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { escapeHtml, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { showScreen } from "../../bot/helpers/screen.js";
import { createRenderMemo } from "../../bot/helpers/render-memo.js";
import { BOT_COMMANDS, type CommandTask, type MenuCommand } from "../../bot/register-commands.js";
import { Composer, InlineKeyboard } from "grammy";
import { menuData, type MenuAction } from "../../bot/callback-data/menu.js";

const TASKS: readonly CommandTask[] = ["everyday", "orders", "account"];
/** The main actions as buttons under a private chat's /help: what most people came for, one tap away. */
const HELP_ACTIONS: readonly MenuAction[] = ["balance", "order", "orders", "settings"];

function helpKeyboard(ctx: BotContext): InlineKeyboard {
  const kb = new InlineKeyboard();
  HELP_ACTIONS.forEach((action, i) => {
    kb.text(ctx.t(`buttons-menu-${action}`), menuData.pack({ action }));
    if (i % 2 === 1) kb.row();
  });
  return kb;
}

/**
 * /help: built from the command menu
 * (`BOT_COMMANDS` and each command's Fluent `.description`), so a
 * feature that adds a command appears here by itself. Groups see only the
 * public commands.
 */
export function createHelpFeature(): BotFeature {
  const composer = new Composer<BotContext>();
  const commands = BOT_COMMANDS;
  const memo = createRenderMemo<string>();
  function helpText(ctx: BotContext, inPrivate: boolean): string {
    const line = (c: MenuCommand) => `/${c.command} — ${escapeHtml(ctx.t(`${c.command}.description`))}`;
    const username = ctx.me.username;
    // In a private chat, by task (the everyday commands first, as in the menu); in a group, the public ones.
    const sections = inPrivate
      ? TASKS.map(
          (task) =>
            `${translate(ctx, `help-section-${task}`)}\n${commands
              .filter((c) => c.task === task)
              .map(line)
              .join("\n")}`,
        )
      : [
          commands
            .filter((c) => c.public)
            .map(line)
            .join("\n"),
        ];
    return [
      translate(ctx, inPrivate ? "help-title-private" : "help-title-group"),
      ...sections,
      ...(inPrivate ? [] : [translate(ctx, "help-group-private", { username })]),
      translate(ctx, "help-inline", { username }),
    ].join("\n\n");
  }
  async function showHelp(ctx: BotContext & { chat: { type: string } }): Promise<void> {
    const inPrivate = ctx.chat.type === "private";
    // The same text for every chat of one locale and kind.
    const text = memo(`${await ctx.i18n.getLocale()}:${inPrivate ? "private" : "group"}`, () => helpText(ctx, inPrivate));
    if (inPrivate) await showScreen(ctx, text, helpKeyboard(ctx));
    else await ctx.reply(text, HTML);
  }

  composer.command("help", logHandle("command-help"), showHelp);
  composer.chatType("private").callbackQuery(menuAction("help"), logHandle("callback-menu-help"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showHelp(ctx);
  });
  return { composer, routes: { commands: ["help"], callbacks: [menuData] } };
}
