import type { Transformer } from "grammy";
import type { TelegramBudget } from "../../platform/push/telegram-budget.js";

/**
 * The Bot API methods that put a message in a chat or change one there: what
 * Telegram's send limits (30/s overall, about 1/s per private chat, 20/min
 * per group) count. Edits are counted too: Telegram answers a burst of them
 * with 429 like a burst of sends. Not counted: chat actions ("typing"),
 * answers to callback and inline queries, deletions, and reads.
 */
export const MESSAGE_METHODS: ReadonlySet<string> = new Set([
  "sendMessage",
  "sendPhoto",
  "sendDocument",
  "sendVideo",
  "sendAnimation",
  "sendAudio",
  "sendVoice",
  "sendVideoNote",
  "sendSticker",
  "sendLocation",
  "sendVenue",
  "sendContact",
  "sendPoll",
  "sendDice",
  "sendInvoice",
  "sendMediaGroup",
  "copyMessage",
  "copyMessages",
  "forwardMessage",
  "forwardMessages",
  "editMessageText",
  "editMessageCaption",
  "editMessageMedia",
  "editMessageReplyMarkup",
  "editMessageLiveLocation",
  "stopMessageLiveLocation",
  "stopPoll",
]);

/**
 * The longest 429 an answer waits out (the budget paused for everyone
 * meanwhile). Telegram asks for seconds, or for a minute or so after a real
 * burst; a longer retry_after is passed on as the error it is.
 */
export const MAX_PACED_RETRY_AFTER_SECONDS = 60;

/** How many messages one call puts in the chat: an album or a batch copy is one message per item. */
function messagesOf(method: string, payload: Record<string, unknown>): number {
  const items = method === "sendMediaGroup" ? payload["media"] : method === "copyMessages" || method === "forwardMessages" ? payload["message_ids"] : undefined;
  return Array.isArray(items) && items.length > 0 ? items.length : 1;
}

/** The chat the limits count the message in; none for an inline message (or a channel named by @username). */
function chatOf(payload: Record<string, unknown>): number | undefined {
  const chatId = payload["chat_id"];
  if (typeof chatId === "number") return chatId;
  if (typeof chatId === "string" && /^-?\d+$/.test(chatId)) return Number(chatId);
  return undefined;
}

/**
 * Paces the bot's own messages by the process's Telegram budget, before they
 * leave: an answer waits for its chat's turn and a global slot (ahead of the
 * push queue's background sends) instead of drawing a 429. A 429 that comes
 * anyway (another sender, Telegram's own judgement) pauses the budget for
 * everyone and the message is sent again after it: it arrives late, never as
 * an error, unless Telegram asks for more than MAX_PACED_RETRY_AFTER_SECONDS.
 * Installed inside auto-retry, so a send repeated after a lost connection or
 * a 5xx is counted again.
 */
export function telegramPacing(budget: TelegramBudget): Transformer {
  return async (prev, method, payload, apiSignal) => {
    if (!MESSAGE_METHODS.has(method)) return prev(method, payload, apiSignal);
    const signal = apiSignal as unknown as AbortSignal | undefined;
    const fields = payload as Record<string, unknown>;
    const chatId = chatOf(fields);
    const count = messagesOf(method, fields);
    for (;;) {
      const taken: number[] = [];
      for (let i = 0; i < count; i += 1) taken.push(await budget.take(chatId, signal));
      const result = await prev(method, payload, apiSignal);
      for (const takenAt of taken) await budget.answered(chatId, takenAt);
      if (result.ok || result.error_code !== 429) return result;
      const retryAfter = result.parameters?.retry_after;
      if (retryAfter === undefined || retryAfter > MAX_PACED_RETRY_AFTER_SECONDS) return result;
      await budget.rateLimited(chatId, retryAfter);
    }
  };
}
