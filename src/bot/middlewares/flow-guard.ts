import type { Middleware } from "grammy";
import { textLinksMarkup } from "../keyboards/links.js";
import { detectSecret } from "../../shared/broadcasts/secret-detect.js";
import type { BotContext } from "../context.js";
import { HTML, translate } from "../helpers/html.js";
import type { PastedKeyHandler } from "../../features/account/index.js";
import { extractServiceSecret } from "../helpers/service-secret.js";
import { inFlow } from "../helpers/flow-instance.js";
import { closeOpenPrompt } from "../helpers/step-prompt.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { txIdCommandArgument } from "../helpers/tx-id-command.js";

/** What an edit now says, without a leading command word (an edit never runs a command, but its argument stays visible). */
function editedText(text: string): string {
  return text.startsWith("/") ? text.replace(/^\/\S*\s*/, "") : text;
}

/**
 * An edit in a private chat that puts a wallet secret (private key,
 * recovery phrase) or a service credential into a message deletes it with
 * the usual warning, in any state. Installed before the conversation
 * builders: a waiting conversation would otherwise take the edit as one of
 * its own inputs (and the link flow, which expects keys, would leave it).
 * An API key edited into a message of a chat with no key, outside any flow,
 * is the user linking, as when pasted: `pastedKey` links it instead of warning.
 */
export function editedSecretGuard(deps: { pastedKey?: PastedKeyHandler } = {}): Middleware<BotContext> {
  return async (ctx, next) => {
    const edited = ctx.editedMessage;
    if (ctx.chat?.type !== "private" || edited === undefined) return next();
    const raw = edited.text ?? edited.caption;
    // An edit never runs the command, but `/track <txId>` still names an id, not a key.
    if (raw === undefined || txIdCommandArgument(raw) !== undefined) return next();
    const text = editedText(raw);
    const wallet = detectSecret(text);
    const found = wallet === null ? extractServiceSecret(text) : undefined;
    const service = found?.kind;
    if (wallet === null && found === undefined) return next();
    const deleted = await ctx.deleteMessage().then(
      () => true,
      (error: unknown) => {
        ctx.logger.warn({ err: error, kind: wallet ?? service }, "could not delete an edited message that looked like a secret");
        return false;
      },
    );
    const flowOpen = inFlow(ctx);
    if (found !== undefined && !flowOpen && (await deps.pastedKey?.(ctx, { ...found, deleted }))) return;
    ctx.logger.warn({ kind: wallet ?? service, deleted, inFlow: flowOpen }, "an edit put a secret into a message");
    if (wallet !== null) await ctx.reply(translate(ctx, "broadcast-secret-deleted", { kind: wallet }), HTML);
    else {
      const said = deleted ? "unhandled-key-deleted" : "unhandled-key-not-deleted";
      await ctx.reply(translate(ctx, said), { ...HTML, ...textLinksMarkup(ctx, said) });
    }
  };
}

/** Installs `ctx.enterFlow` (see `FlowFlavor`); after the conversations plugin, whose `enter` it calls once the listed flows are registered. */
export function flowEntry(deps: { store: StoreBackend; registerFlows: (ctx: BotContext) => Promise<void> }): Middleware<BotContext> {
  return (ctx, next) => {
    ctx.enterFlow = async (id, ...args) => {
      await deps.registerFlows(ctx);
      await leaveOpenFlow(ctx, deps.store, "a button left a flow to open another");
      await ctx.conversation.enter(id, ...args);
    };
    return next();
  };
}

/**
 * A command sent while a flow waits ends the flow and says so before the
 * command's own answer: the user learns that the half-made order (link,
 * broadcast…) is gone instead of finding out later. `/cancel` is answered
 * earlier by the cancel feature; in groups no flow runs.
 */
export function commandLeavesFlow(deps: { store: StoreBackend }): Middleware<BotContext> {
  return async (ctx, next) => {
    if (ctx.chat?.type !== "private" || ctx.message?.text?.startsWith("/") !== true) return next();
    await leaveOpenFlow(ctx, deps.store, "a command left a flow");
    return next();
  };
}

/**
 * Leaves the chat's open flow, if any, and says which one was left
 * (`flow-left`). Commands do it before they run; a button that opens
 * another flow (an old /prices "Order 1h", the time-zone "Another zone…")
 * does it just before that flow is entered (`ctx.enterFlow`), as a
 * command would: nothing is charged or sent inside a flow, so leaving it
 * loses only the unfinished answers. The question it waited on loses its buttons.
 */
export async function leaveOpenFlow(ctx: BotContext, store: StoreBackend, why: string): Promise<void> {
  const active = Object.keys(ctx.conversation.active());
  if (active.length === 0) return;
  await ctx.conversation.exitAll();
  ctx.logger.info({ left: active }, why);
  if (ctx.chat !== undefined) await closeOpenPrompt(ctx, store, ctx.chat.id);
  await ctx.reply(translate(ctx, "flow-left", { flow: active[0]! }), HTML);
}
