import type { Context } from "hono";
import { contentLengthLimit } from "../platform/http/body-limit.js";
import type { Translations } from "../bot/i18n.js";
import { API_HEADERS, type ApiEnv } from "./mini-app-api.js";

/** The forms' JSON bodies are a few hundred bytes; anything near this is not one of them. */
const MAX_BODY_BYTES = 2_048;

/** The body limit of every POST under /app/api. */
export const apiBodyLimit = contentLengthLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: "too_large" }, 413, API_HEADERS) });

/** A request's JSON body when it is an object; anything else (no body, bad JSON, an array) is undefined. */
export async function readJsonObject(c: Context<ApiEnv>): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await c.req.json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The account's screens refuse a caller whose chat has no linked account, with how to link (403). */
export function notLinked(c: Context<ApiEnv>, i18n: Translations): Response {
  return c.json({ error: "not_linked", message: i18n.t(c.get("caller").locale, "mini-app-not-linked") }, 403, API_HEADERS);
}

/** The forms act on the linked account, as the app does: undefined when the caller has one, else the 403. */
export function unlinkedRefusal(deps: { i18n: Translations }) {
  return (c: Context<ApiEnv>): Response | undefined => (c.get("caller").linked === undefined ? notLinked(c, deps.i18n) : undefined);
}
