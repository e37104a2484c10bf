import { timingSafeEqual } from "node:crypto";
import type { Context, Handler } from "hono";
import type { Logger } from "pino";
import { jsonTooDeep, MAX_JSON_DEPTH } from "../platform/json-depth.js";
import type { UpdateAcceptResult, UpdateLike } from "../platform/telegram/update-inbox.js";

export const TELEGRAM_SECRET_HEADER = "x-telegram-bot-api-secret-token";

export interface TelegramRouteDeps {
  /** The `secret_token` given to setWebhook; an update without it is refused (401). */
  secretToken: string;
  /** Stores the update (and drops a redelivery); resolves before the answer, never waits for the handling. */
  updates: { accept(update: UpdateLike): Promise<UpdateAcceptResult> };
  logger: Logger;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readUpdate(body: unknown): UpdateLike | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const id = (body as { update_id?: unknown }).update_id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? (body as UpdateLike) : undefined;
}

/**
 * POST /telegram (BOT_MODE=webhook). Answers as soon as the update is stored:
 * Telegram waits for the answer only so long, and a late or failed one makes
 * it deliver the update again. The handling runs in the background (see the
 * update inbox); a redelivered update_id is answered 200 and dropped, and so
 * is an update nested deeper than MAX_JSON_DEPTH (with a warning), which is
 * never parsed.
 */
export function createTelegramHandler(deps: TelegramRouteDeps): Handler {
  const log = deps.logger.child({ route: "telegram" });
  return async (c: Context) => {
    if (!sameSecret(c.req.header(TELEGRAM_SECRET_HEADER), deps.secretToken)) {
      return c.json({ error: "unauthorized" }, 401);
    }
    const text = await c.req.text();
    if (jsonTooDeep(text)) {
      // No real update nests this deep, and storing one would overflow the stack. It passed the secret,
      // so it came through Telegram: a non-2xx would only make Telegram send it again and again.
      log.warn({ bytes: text.length, maxDepth: MAX_JSON_DEPTH }, "update nested too deep; acknowledged and dropped unread");
      return c.json({ ok: true, result: "dropped" });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return c.json({ error: "body is not JSON" }, 400);
    }
    const update = readUpdate(body);
    if (update === undefined) return c.json({ error: "not a Telegram update" }, 400);
    // A store failure throws to the server's error handler: 500, and Telegram delivers again later.
    const result = await deps.updates.accept(update);
    if (result === "duplicate") log.info({ updateId: update.update_id }, "update delivered again; already taken");
    return c.json({ ok: true, result });
  };
}
