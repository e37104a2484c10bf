import type { Context } from "hono";
import type { ChatRepository } from "../../core/chats/chat-repository.js";
import type { Translations } from "../../bot/i18n.js";
import { API_HEADERS, type ApiEnv } from "./mini-app-api.js";

/** A request's JSON body when it is an object; anything else (no body, bad JSON, an array) is undefined. */
export async function readJsonObject(c: Context<ApiEnv>): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await c.req.json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The forms act on the linked account, as the app does: a caller whose chat has none gets 403 with how to
 * link, and the route goes no further.
 */
export function unlinkedRefusal(deps: { chats: Pick<ChatRepository, "open">; i18n: Translations }) {
  return async (c: Context<ApiEnv>): Promise<Response | undefined> => {
    const { chatId, locale } = c.get("caller");
    if ((await deps.chats.open(chatId)) !== undefined) return undefined;
    return c.json({ error: "not_linked", message: deps.i18n.t(locale, "mini-app-not-linked") }, 403, API_HEADERS);
  };
}
