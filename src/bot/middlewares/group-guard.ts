import { InlineKeyboard, type Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { HTML, translate } from "../helpers/html.js";

/** Commands that work in groups: nothing key-bearing, nothing stored. */
export const PUBLIC_COMMANDS: ReadonlySet<string> = new Set(["prices", "system", "help"]);

/** `/cmd@bot args` -> { command, target }; undefined when the text is not a command. */
export function parseCommand(text: string | undefined): { command: string; target: string | undefined } | undefined {
  const m = /^\/([a-zA-Z0-9_]{1,32})(?:@([a-zA-Z0-9_]{3,32}))?(?:\s|$)/.exec(text ?? "");
  return m ? { command: m[1]!.toLowerCase(), target: m[2] } : undefined;
}

/**
 * In groups only public commands pass. Any other command addressed to us is
 * refused in the group with a link to the private chat and its message is
 * deleted when the bot may; nothing is stored or sent to the service. Every
 * other group update stops here (no conversations, no state).
 */
export function groupGuard(): Middleware<BotContext> {
  return async (ctx, next) => {
    const type = ctx.chat?.type;
    if (type === undefined || type === "private") return next();
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("group-private-only-short") });
      return;
    }
    const parsed = parseCommand(ctx.message?.text ?? ctx.message?.caption);
    if (!parsed) return;
    const me = ctx.me.username;
    if (parsed.target !== undefined && parsed.target.toLowerCase() !== me.toLowerCase()) return;
    if (PUBLIC_COMMANDS.has(parsed.command)) return next();
    ctx.logger.info({ command: parsed.command }, "private command refused in a group");
    // Delete first: the text may hold a key the sender should not have posted here.
    // Without the delete right Telegram refuses; the refusal below is still sent.
    await ctx.deleteMessage().catch((error: unknown) => ctx.logger.info({ err: error }, "could not delete a private command in a group"));
    await ctx.reply(translate(ctx, "group-private-only", { command: `/${parsed.command}` }), {
      ...HTML,
      reply_markup: new InlineKeyboard().url(ctx.t("group-open-private-button"), `https://t.me/${me}`),
    });
  };
}
