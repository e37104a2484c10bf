import { InlineKeyboard, type Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { HTML, translate } from "../helpers/html.js";
import { findServiceSecret } from "../helpers/service-secret.js";
import { isCannotDelete, type GroupRights } from "./group-rights.js";

/**
 * Commands that pass in groups: nothing key-bearing, nothing stored. /start
 * greets briefly there (start feature); it is not in the group menu.
 */
export const PUBLIC_COMMANDS: ReadonlySet<string> = new Set(["prices", "system", "help", "start"]);

/** Refused commands with their own explanation (default: `group-private-only`). */
const REFUSAL_TEXTS: Readonly<Record<string, string>> = { language: "group-language" };

/** Commands whose arguments are a key or secret. */
const KEY_COMMANDS: ReadonlySet<string> = new Set(["link", "webhook"]);

/** `/cmd@bot args` -> { command, target, args }; undefined when the text is not a command. */
export function parseCommand(text: string | undefined): { command: string; target: string | undefined; args: string } | undefined {
  const m = /^\/([a-zA-Z0-9_]{1,32})(?:@([a-zA-Z0-9_]{3,32}))?(?:\s+([\s\S]*))?$/.exec(text ?? "");
  return m ? { command: m[1]!.toLowerCase(), target: m[2], args: (m[3] ?? "").trim() } : undefined;
}

export interface GroupGuardDeps {
  rights: GroupRights;
}

/** `https://t.me/<bot>` as a button: the way to the private chat. */
export function privateChatKeyboard(ctx: BotContext): InlineKeyboard {
  return new InlineKeyboard().url(ctx.t("group-open-private-button"), `https://t.me/${ctx.me.username}`);
}

/**
 * Deletes the command message when the bot has the right (asked first, see
 * GroupRights); true when it is gone.
 */
async function deleteIfAllowed(ctx: BotContext, rights: GroupRights): Promise<boolean> {
  if (!(await rights.canDelete(ctx))) return false;
  try {
    await ctx.deleteMessage();
    return true;
  } catch (error) {
    if (isCannotDelete(error)) {
      // The right was taken away since we asked: an expected answer, ask again next time.
      rights.forget(ctx.chat!.id);
      ctx.logger.info("not allowed to delete a private command in a group");
    } else {
      ctx.logger.warn({ err: error }, "could not delete a private command in a group");
    }
    return false;
  }
}

/**
 * In groups only public commands (and the bot's own membership changes)
 * pass. Any other command addressed to us is refused in the group with a
 * link to the private chat and its message is deleted when the bot may; a
 * key that stays visible is called exposed, to be revoked. Nothing is stored
 * or sent to the service. Every other group update stops here (no
 * conversations, no state).
 */
export function groupGuard(deps: GroupGuardDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    const type = ctx.chat?.type;
    if (type === undefined || type === "private") return next();
    if (ctx.myChatMember) return next();
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("group-private-only-short") });
      return;
    }
    const text = ctx.message?.text ?? ctx.message?.caption;
    const parsed = parseCommand(text);
    if (!parsed) return;
    if (parsed.target !== undefined && parsed.target.toLowerCase() !== ctx.me.username.toLowerCase()) return;
    if (PUBLIC_COMMANDS.has(parsed.command)) return next();
    ctx.logger.info({ command: parsed.command }, "private command refused in a group");
    const carriesKey = (KEY_COMMANDS.has(parsed.command) && parsed.args.length > 0) || findServiceSecret(parsed.args) !== undefined;
    // Delete first: the text may hold a key the sender should not have posted here.
    const deleted = await deleteIfAllowed(ctx, deps.rights);
    const command = `/${parsed.command}`;
    const key = carriesKey ? (deleted ? "group-key-deleted" : "group-key-exposed") : (REFUSAL_TEXTS[parsed.command] ?? "group-private-only");
    if (key === "group-key-exposed") ctx.logger.warn({ command: parsed.command }, "a key stays visible in a group");
    await ctx.reply(translate(ctx, key, { command }), { ...HTML, reply_markup: privateChatKeyboard(ctx) });
  };
}
