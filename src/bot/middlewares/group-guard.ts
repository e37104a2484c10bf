import { textLinksMarkup } from "../keyboards/links.js";
import { GrammyError, InlineKeyboard, type Middleware } from "grammy";
import type { Message } from "grammy/types";
import { detectSecret } from "../../shared/broadcasts/secret-detect.js";
import type { BotContext } from "../context.js";
import { HTML, translate } from "../helpers/html.js";
import { findServiceSecret } from "../helpers/service-secret.js";
import { txIdCommandArgument } from "../helpers/tx-id-command.js";
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

/** What a group message says to this bot. */
export type GroupCommand =
  | { kind: "ours"; command: string; args: string }
  /** Another bot's command, or a command this bot does not have. */
  | { kind: "other" }
  | { kind: "none" };

/**
 * Reads the command a message (text or caption) starts with, as Telegram
 * marks it (a bot_command entity at offset 0). It is ours when its name is
 * one of `commands` (case-insensitively) and it is addressed to nobody or to
 * `username` (case-insensitively).
 */
export function groupCommand(
  msg: Pick<Message, "text" | "caption" | "entities" | "caption_entities">,
  username: string,
  commands: ReadonlySet<string>,
): GroupCommand {
  const text = msg.text ?? msg.caption;
  const entity = (msg.text !== undefined ? msg.entities : msg.caption_entities)?.find((e) => e.type === "bot_command" && e.offset === 0);
  if (text === undefined || entity === undefined) return { kind: "none" };
  const [name = "", target] = text.slice(1, entity.length).split("@");
  if (target !== undefined && target.toLowerCase() !== username.toLowerCase()) return { kind: "other" };
  const command = name.toLowerCase();
  if (!commands.has(command)) return { kind: "other" };
  return { kind: "ours", command, args: text.slice(entity.length).trim() };
}

export interface GroupGuardDeps {
  rights: GroupRights;
  /** The commands this bot answers (its installed menu); every other command is someone else's. */
  commands: Iterable<string>;
}

/**
 * `https://t.me/<bot>` as a button: the way to the private chat. With a refused command it carries it as the
 * start payload (`?start=balance`), so the private chat opens on that command instead of a greeting; the
 * command's arguments never travel (they may be a key).
 */
export function privateChatKeyboard(ctx: BotContext, command?: string): InlineKeyboard {
  const start = command !== undefined && /^[a-z0-9_]{1,32}$/.test(command) ? `?start=${command}` : "";
  return new InlineKeyboard().url(ctx.t("group-open-private-button"), `https://t.me/${ctx.me.username}${start}`);
}

/**
 * Telegram refusing the bot's reply in a group: a closed topic, a group where
 * the bot is restricted, a channel where it may not post. Expected there, not a bug.
 */
export function isCannotPost(error: unknown): boolean {
  if (!(error instanceof GrammyError)) return false;
  const d = error.description;
  return (
    (error.error_code === 400 && (d.includes("TOPIC_CLOSED") || d.includes("not enough rights to send") || d.includes("need administrator rights"))) ||
    (error.error_code === 403 && d.includes("bot is not a member"))
  );
}

/**
 * Deletes the message when the bot has the right (asked first, see
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
      ctx.logger.info("not allowed to delete a message in a group");
    } else {
      ctx.logger.warn({ err: error }, "could not delete a message in a group");
    }
    return false;
  }
}

/**
 * grammY's `command()` matches only text entities, case-sensitively; Telegram
 * clients also send `/PRICES` and commands in captions. A public command of
 * ours is rewritten to its canonical text form so the features answer it.
 */
function canonicalize(msg: Message, command: string, args: string): void {
  const head = `/${command}`;
  const text = args.length > 0 ? `${head} ${args}` : head;
  if (msg.text === text) return;
  Object.assign(msg, { text, entities: [{ type: "bot_command", offset: 0, length: head.length }] });
}

/** The reply text for a key found outside a refused command. */
function keyTextId(text: string, deleted: boolean): string | undefined {
  if (findServiceSecret(text) !== undefined) return deleted ? "groups-key-deleted" : "group-key-exposed";
  const wallet = detectSecret(text);
  if (wallet === "mnemonic") return deleted ? "groups-seed-deleted" : "groups-seed-exposed";
  if (wallet === "private_key") return deleted ? "groups-hex-deleted" : "groups-hex-exposed";
  return undefined;
}

/**
 * In groups the bot answers only its own commands (its menu, any case, bare
 * or `@thisbot`): public ones pass to the features, the others are refused
 * with a link to the private chat. A command is deleted only when it carries
 * a key or a wallet secret, and only when the bot may (a key that stays
 * visible is called exposed, to be revoked); one that carries none is never
 * deleted, whoever it was meant for. Other bots' commands and commands it
 * does not have are left alone. A plain message carrying a key
 * (service key or wallet secret) is deleted the same way. Channel posts, a
 * channel's posts copied into its discussion group and everything else stop
 * here (no conversations, no state, nothing sent to the service).
 */
export function groupGuard(deps: GroupGuardDeps): Middleware<BotContext> {
  const commands = new Set([...deps.commands].map((c) => c.toLowerCase()));
  return async (ctx, next) => {
    const type = ctx.chat?.type;
    if (type === undefined || type === "private") return next();
    if (ctx.myChatMember) return next();
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("group-private-only-short") });
      return;
    }
    const msg = ctx.message ?? ctx.editedMessage;
    if (!msg || type === "channel" || msg.is_automatic_forward) return;
    try {
      await guardMessage(ctx, msg, next);
    } catch (error) {
      if (!isCannotPost(error)) throw error;
      ctx.logger.info({ description: (error as GrammyError).description }, "Telegram does not let the bot answer here");
    }
  };

  async function guardMessage(ctx: BotContext, msg: Message, next: () => Promise<void>): Promise<void> {
    const found = groupCommand(msg, ctx.me.username, commands);
    if (found.kind === "other") return;
    const edited = ctx.editedMessage !== undefined;
    if (found.kind === "none" || edited) {
      // An edit is never answered as a command again; only a key it brought is removed.
      await guardKey(ctx, msg.text ?? msg.caption ?? "");
      return;
    }
    const { command, args } = found;
    if (PUBLIC_COMMANDS.has(command)) {
      canonicalize(msg, command, args);
      return next();
    }
    ctx.logger.info({ command }, "private command refused in a group");
    const carriesKey = (KEY_COMMANDS.has(command) && args.length > 0) || findServiceSecret(args) !== undefined;
    // `/track <txId>` asked for a transaction id, which only looks like a private key.
    const wallet = carriesKey || txIdCommandArgument(`/${command} ${args}`) !== undefined ? null : detectSecret(args);
    // Only a key or a wallet secret is deleted (first: the sender should not have posted it here); a
    // command that carries none is the member's own message, refused and left as it is.
    const deleted = carriesKey || wallet !== null ? await deleteIfAllowed(ctx, deps.rights) : false;
    const key = carriesKey
      ? deleted
        ? "group-key-deleted"
        : "group-key-exposed"
      : wallet !== null
        ? keyTextId(args, deleted)!
        : (REFUSAL_TEXTS[command] ?? "group-private-only");
    if (key === "group-key-exposed" || (wallet !== null && !deleted)) ctx.logger.warn({ command }, "a key or wallet secret stays visible in a group");
    await ctx.reply(translate(ctx, key, { command: `/${command}` }), { ...HTML, ...textLinksMarkup(ctx, key, privateChatKeyboard(ctx, command)) });
  }

  async function guardKey(ctx: BotContext, text: string): Promise<void> {
    if (keyTextId(text, false) === undefined) return;
    const deleted = await deleteIfAllowed(ctx, deps.rights);
    const id = keyTextId(text, deleted)!;
    if (deleted) ctx.logger.info({ id }, "deleted a key or wallet secret posted in a group");
    else ctx.logger.warn({ id }, "a key or wallet secret stays visible in a group");
    await ctx.reply(translate(ctx, id, { command: "/link" }), { ...HTML, ...textLinksMarkup(ctx, id, privateChatKeyboard(ctx)) });
  }
}
