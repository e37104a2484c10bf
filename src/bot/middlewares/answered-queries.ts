import type { Transformer } from "grammy";

/**
 * Remembers which callback queries the bot has already answered during the
 * current update, so the error boundary stops a spinner only when nothing
 * answered it yet: Telegram refuses a second answer ("query is too old").
 * Tracked by query id through an API transformer, because a conversation
 * answers through its own `ctx.api`, which the outer context never sees.
 */
export interface AnsweredQueries {
  /** Installed on every API the bot answers through (outer ctx.api and inside conversations). */
  readonly transformer: Transformer;
  has(queryId: string): boolean;
  /** Called once the update is done, so the set never grows. */
  forget(queryId: string): void;
}

export function createAnsweredQueries(): AnsweredQueries {
  const answered = new Set<string>();
  return {
    transformer: (prev, method, payload, signal) => {
      if (method === "answerCallbackQuery") {
        const id = (payload as { callback_query_id?: unknown }).callback_query_id;
        if (typeof id === "string") answered.add(id);
      }
      return prev(method, payload, signal);
    },
    has: (queryId) => answered.has(queryId),
    forget: (queryId) => {
      answered.delete(queryId);
    },
  };
}
