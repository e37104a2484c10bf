import type { Context, Middleware, Transformer } from "grammy";
import type { Message } from "grammy/types";

/** Calls that change a message in place: none of them can reach a message the bot no longer has. */
const EDITS: ReadonlySet<string> = new Set(["editMessageText", "editMessageReplyMarkup", "editMessageCaption", "editMessageMedia"]);

/** What an edit of the text says, as a new message says it (the fields both methods share). */
function sendPayload(edit: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { chat_id: edit["chat_id"], text: edit["text"] };
  for (const key of ["parse_mode", "entities", "link_preview_options", "reply_markup"]) if (edit[key] !== undefined) out[key] = edit[key];
  return out;
}

/**
 * A button under a message Telegram no longer lets the bot see (too old or deleted: the callback's
 * `message` is an InaccessibleMessage, `date` 0) is answered with a new message, never an edit of
 * the old one. Every handler keeps its usual `ctx.editMessageText`: for this update the first edit of
 * that message is sent as a new message instead, and the callback's `message` becomes the new one,
 * so later edits (a card redrawn, its buttons taken off) and the id a card is tracked by are the new
 * message's. Taking the buttons off a message that is gone is nothing to do. Installed on the bot's
 * updates and on the conversations' own contexts (their `ctx.api` is their own).
 */
export function inaccessibleMessageAnswers<C extends Context>(): Middleware<C> {
  return (ctx, next) => {
    const query = ctx.callbackQuery;
    const gone = query?.message;
    if (query === undefined || gone === undefined || gone.date !== 0) return next();
    let replacement: Message | undefined;
    const transformer: Transformer = async (prev, method, payload, signal) => {
      const p = payload as Record<string, unknown>;
      if (!EDITS.has(method) || p["chat_id"] !== gone.chat.id || p["message_id"] !== gone.message_id) return prev(method, payload, signal);
      if (replacement !== undefined) return prev(method, { ...p, message_id: replacement.message_id } as typeof payload, signal);
      if (method !== "editMessageText") return { ok: true, result: true } as never;
      const sent: { ok: true; result: Message } | { ok: false } = await prev("sendMessage", sendPayload(p) as never, signal);
      if (sent.ok) {
        replacement = sent.result;
        query.message = replacement;
      }
      return sent as never;
    };
    ctx.api.config.use(transformer);
    return next();
  };
}
