import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { Logger } from "pino";
import type { ChatRepository } from "../shared/chats/chat-repository.js";
import { routeIdForLog } from "../shared/chats/route-id.js";
import { jsonTooDeep } from "../platform/json-depth.js";
import type { Metrics } from "../platform/metrics.js";
import { rememberParsedBody } from "../shared/webhooks/inbox-item.js";
import type { SignedContent, WebhookInbox } from "../shared/webhooks/types.js";
import { createRateLimiter, DEFAULT_HOOKS_RATE_LIMITS, type HooksRateLimits, type RateLimitDecision } from "../platform/http/rate-limit.js";
import { checkSignatureHeader, matchSignature, type ParsedSignature, SIGNATURE_TOLERANCE_SEC } from "../platform/http/signature.js";

export interface HooksRouteDeps {
  headerPrefix: string;
  logger: Logger;
  metrics: Metrics;
  chats: Pick<ChatRepository, "findRoute">;
  inbox: Pick<WebhookInbox, "accept">;
  rateLimits?: HooksRateLimits;
  now?: () => number;
}

/** Route ids are at least 128 random bits in base64url; anything else cannot exist. */
const ROUTE_ID = /^[A-Za-z0-9_-]{16,128}$/;
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;
/** Long enough for the workers to drain a few thousand deliveries. */
const INBOX_FULL_RETRY_AFTER_SEC = 5;
const EVENT_NAME = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * POST /hooks/:routeId. Order of checks: route (404), signature when the chat
 * stored a secret (401; the header before the body is read, the HMAC after),
 * JSON body no deeper than MAX_JSON_DEPTH (400), then the raw body text is
 * persisted and answered at once; the re-read happens after the answer, from
 * the inbox. A verified delivery carries its signature as `signed`: the inbox
 * answers a replay of it (fresh delivery id, same signed content) as a
 * duplicate, 200, and processes it once.
 *
 * Rate limits (429) apply only to what is not verified: an unknown route, a
 * failed signature, and every delivery to a route without a secret (before its
 * body is read). A verified delivery is never refused for rate: the service
 * sends a batch's events at once, and a refusal only comes back later through
 * its retries. Nothing is refused before the route and the signature are
 * known, because a refusal there would hit the service's deliveries too.
 */
export function createHooksHandler(deps: HooksRouteDeps) {
  const prefix = deps.headerPrefix.toLowerCase();
  const now = deps.now ?? Date.now;
  const limits = deps.rateLimits ?? DEFAULT_HOOKS_RATE_LIMITS;
  const globalLimit = createRateLimiter(limits.global);
  const routeLimit = createRateLimiter(limits.perRoute);
  const count = (outcome: string) => deps.metrics.inc("webhooks_total", { outcome });
  const tooMany = (c: Context, retryAfterSec: number) => {
    count("rate_limited");
    return c.json({ error: "too many requests" }, 429, { "Retry-After": String(retryAfterSec) });
  };
  /** Spends a token of the route's bucket (when the route is known), then of the global one; the refusal when either is empty. */
  const unverifiedBudget = (chatId: number | undefined): RateLimitDecision => {
    const at = now();
    if (chatId !== undefined) {
      const perRoute = routeLimit.take(String(chatId), at);
      if (!perRoute.ok) return perRoute;
    }
    return globalLimit.take("*", at);
  };

  return async (c: Context): Promise<Response> => {
    const routeId = c.req.param("routeId") ?? "";
    let chatId: number | undefined;
    let secret: string | undefined;
    try {
      // Known routes come from the route cache; a made-up one costs one indexed read, then counts against the global budget.
      const target = ROUTE_ID.test(routeId) ? await deps.chats.findRoute(routeId) : undefined;
      chatId = target?.chatId;
      secret = target?.webhookSecret;
    } catch (error) {
      // The store is down: a non-2xx makes the service retry later.
      deps.logger.error({ err: error }, "could not look up a webhook route");
      count("error");
      return c.json({ error: "temporarily unavailable" }, 503);
    }
    if (chatId === undefined) {
      const budget = unverifiedBudget(undefined);
      if (!budget.ok) return tooMany(c, budget.retryAfterSec);
      count("unknown_route");
      return c.json({ error: "not found" }, 404);
    }
    // Fields on each line rather than a child logger: a child per request costs more than the line itself.
    const log = deps.logger;
    const where = { chatId, routeId: routeIdForLog(routeId) };
    /** A refusal of what failed verification: 401 within the budget, 429 past it (and no log line per request of a flood). */
    const unauthorized = (reason: string) => {
      const budget = unverifiedBudget(chatId);
      if (!budget.ok) {
        log.debug({ ...where, reason, retryAfterSec: budget.retryAfterSec }, "webhook refused: bad signature, over the rate limit");
        return tooMany(c, budget.retryAfterSec);
      }
      log.warn({ ...where, reason }, "webhook refused: bad signature");
      count("unauthorized");
      return c.json({ error: "unauthorized" }, 401);
    };
    let header: ParsedSignature | undefined;
    if (secret === undefined) {
      // A hint: nothing proves who sent it, so it is limited before its body is read.
      const budget = unverifiedBudget(chatId);
      if (!budget.ok) {
        log.debug({ ...where, retryAfterSec: budget.retryAfterSec }, "webhook refused: route rate limit");
        return tooMany(c, budget.retryAfterSec);
      }
    } else {
      const check = checkSignatureHeader(c.req.header(`${prefix}-signature`), now());
      if (!check.ok) return unauthorized(check.reason);
      header = check.parsed;
    }
    let rawBody: Uint8Array;
    try {
      rawBody = new Uint8Array(await c.req.arrayBuffer());
    } catch (error) {
      // The sender hung up mid-body; nobody reads this answer, and it is not our fault.
      log.warn({ ...where, err: error }, "webhook body not received: client went away");
      count("aborted");
      return c.json({ error: "body not received" }, 400);
    }
    let verified = false;
    let signed: SignedContent | undefined;
    if (secret !== undefined && header !== undefined) {
      const check = matchSignature(secret, header, rawBody);
      if (!check.ok) return unauthorized(check.reason);
      verified = true;
      // Accepted until `t` is stale (the check floors now to seconds): a replay under another delivery id is a duplicate until then.
      signed = { hash: check.signature, untilMs: (check.timestamp + SIGNATURE_TOLERANCE_SEC + 1) * 1000 };
    }

    // Invalid UTF-8 becomes U+FFFD here; the signature was checked on the bytes.
    const body = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString("utf8");
    if (jsonTooDeep(body)) {
      count("bad_request");
      return c.json({ error: "body nests too deep" }, 400);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      count("bad_request");
      return c.json({ error: "body is not JSON" }, 400);
    }
    const headerId = c.req.header(`${prefix}-delivery-id`);
    if (headerId !== undefined && !DELIVERY_ID.test(headerId)) {
      count("bad_request");
      return c.json({ error: "bad delivery id" }, 400);
    }
    const event = c.req.header(`${prefix}-event`);
    if (event !== undefined && !EVENT_NAME.test(event)) {
      count("bad_request");
      return c.json({ error: "bad event name" }, 400);
    }
    // Without the header, identical bodies are one delivery (a retry repeats the body).
    const deliveryId = headerId ?? `body-${createHash("sha256").update(rawBody).digest("hex")}`;
    try {
      // The text, not the parsed value: a stored string cannot trip the store's serializer.
      const item = { chatId, deliveryId, event, body, verified, receivedAt: now(), ...(signed ? { signed } : {}) };
      // Processed in this process, the item is not parsed a second time.
      rememberParsedBody(item, payload);
      const result = await deps.inbox.accept(item);
      if (result === "duplicate") {
        log.debug({ ...where, deliveryId }, "webhook delivery already handled");
        count("duplicate");
        return c.json({ status: "duplicate" }, 200);
      }
      if (result === "full") {
        log.warn({ ...where, deliveryId }, "webhook refused: inbox full");
        count("inbox_full");
        return c.json({ error: "inbox full" }, 503, { "Retry-After": String(INBOX_FULL_RETRY_AFTER_SEC) });
      }
      // At debug, as each Telegram update is: a line per delivery costs a sixth of a busy route's time, and webhooks_total counts them.
      log.debug({ ...where, deliveryId, event, verified }, verified ? "webhook accepted" : "unsigned webhook accepted as a hint");
      return c.json({ status: "accepted" }, 202);
    } catch (error) {
      // Not stored: a non-2xx makes the service retry later.
      log.error({ ...where, err: error, deliveryId }, "could not persist a webhook");
      count("error");
      return c.json({ error: "temporarily unavailable" }, 503);
    }
  };
}
