import { InlineKeyboard, type Middleware } from "grammy";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import { findOwnIds, type OwnIdMatch } from "../../shared/orders/own-ids.js";
import { trackRefreshData } from "../callback-data/orders.js";
import type { BotContext } from "../context.js";
import { code, HTML, translate } from "../helpers/html.js";
import { inFlow } from "../helpers/flow-instance.js";

export interface OwnIdGuardDeps {
  /** The chat's order history. */
  history: Pick<OrderHistory, "get" | "findBroadcastByTxId">;
}

/** Commands that take secrets on purpose: their argument is theirs to judge. */
const KEY_COMMANDS: ReadonlySet<string> = new Set(["link", "webhook"]);
const COMMAND = /^\/([A-Za-z0-9_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/;
const MAX_SHOWN = 3;

/** What to look at: a plain text whole; a command's argument only when it holds a transaction id (a 24-hex id after /track is /track's). */
function candidate(text: string): { text: string; command: boolean } | undefined {
  if (!text.startsWith("/")) return { text, command: false };
  const m = COMMAND.exec(text);
  if (!m || KEY_COMMANDS.has(m[1]!.toLowerCase()) || !m[2]) return undefined;
  return { text: m[2], command: true };
}

function matchLine(ctx: BotContext, m: OwnIdMatch): string {
  if (m.txId !== undefined) return translate(ctx, "paste-own-txid", { txId: code(m.txId), broadcastId: code(m.id) });
  return translate(ctx, "paste-own-id", { kind: m.kind, id: code(m.id) });
}

/**
 * A transaction, order or broadcast id this chat's history knows, pasted as
 * a message (or edited into one, or after a flow command), is answered with
 * a Track button, in any state: outside flows and inside them, where it is
 * not an answer to the step and the step keeps waiting. Installed before the
 * conversation builders and before every secret check, so a known 64-hex
 * transaction id is never deleted as a private key. Unknown 64-hex values
 * pass on to the wallet-secret checks.
 */
export function ownIdGuard(deps: OwnIdGuardDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    const { history } = deps;
    const chatId = ctx.chat?.id;
    // The user's own message or edit only (ctx.msg would also be the message under a pressed button).
    const msg = ctx.message ?? ctx.editedMessage;
    const text = msg?.text ?? msg?.caption;
    if (chatId === undefined || ctx.chat?.type !== "private" || text === undefined) return next();
    const looked = candidate(text);
    if (!looked) return next();
    const found = await findOwnIds(history, chatId, looked.text);
    if (!found || (looked.command && !found.some((m) => m.txId !== undefined))) return next();
    const shown = found.slice(0, MAX_SHOWN);
    const keyboard = new InlineKeyboard();
    for (const [i, m] of shown.entries()) {
      if (i > 0) keyboard.row();
      keyboard.text(ctx.t("paste-track-button", { id: m.id.slice(-6) }), trackRefreshData.pack({ kind: m.kind === "order" ? "o" : "b", id: m.id }));
    }
    const flowOpen = inFlow(ctx);
    const lines = [...shown.map((m) => matchLine(ctx, m)), translate(ctx, "paste-track-hint")];
    if (flowOpen) lines.push(translate(ctx, "paste-flow-still-waiting"));
    ctx.logger.info({ ids: shown.length, inFlow: flowOpen }, "a pasted id of this chat's history: offered tracking");
    await ctx.reply(lines.join("\n"), { ...HTML, reply_markup: keyboard });
  };
}
