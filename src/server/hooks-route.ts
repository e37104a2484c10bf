import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { Logger } from "pino";
import type { ChatRepository } from "../core/chats/chat-repository.js";
import type { Metrics } from "../core/metrics.js";
import type { WebhookInbox } from "../core/webhooks/types.js";
import { verifySignature } from "./signature.js";

export interface HooksRouteDeps {
  headerPrefix: string;
  logger: Logger;
  metrics: Metrics;
  chats: Pick<ChatRepository, "findChatByRouteId" | "getWebhookSecret">;
  inbox: Pick<WebhookInbox, "accept">;
  now?: () => number;
}

/** Route ids are at least 128 random bits in base64url; anything else cannot exist. */
const ROUTE_ID = /^[A-Za-z0-9_-]{16,128}$/;
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * POST /hooks/:routeId. Order of checks: route (404), signature when the chat
 * stored a secret (401), JSON body (400), then the delivery is persisted and
 * answered at once; the re-read happens after the answer, from the inbox.
 */
export function createHooksHandler(deps: HooksRouteDeps) {
  const prefix = deps.headerPrefix.toLowerCase();
  const now = deps.now ?? Date.now;
  const count = (outcome: string) => deps.metrics.inc("webhooks_total", { outcome });

  return async (c: Context): Promise<Response> => {
    const routeId = c.req.param("routeId") ?? "";
    let chatId: number | undefined;
    let secret: string | undefined;
    try {
      chatId = ROUTE_ID.test(routeId) ? await deps.chats.findChatByRouteId(routeId) : undefined;
      if (chatId !== undefined) secret = await deps.chats.getWebhookSecret(chatId);
    } catch (error) {
      // The store is down: a non-2xx makes the service retry later.
      deps.logger.error({ err: error }, "could not look up a webhook route");
      count("error");
      return c.json({ error: "temporarily unavailable" }, 503);
    }
    if (chatId === undefined) {
      count("unknown_route");
      return c.json({ error: "not found" }, 404);
    }
    const log = deps.logger.child({ chatId, routeId: `${routeId.slice(0, 6)}…` });
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    let verified = false;
    if (secret !== undefined) {
      const check = verifySignature({ secret, header: c.req.header(`${prefix}-signature`), rawBody, nowMs: now() });
      if (!check.ok) {
        log.warn({ reason: check.reason }, "webhook refused: bad signature");
        count("unauthorized");
        return c.json({ error: "unauthorized" }, 401);
      }
      verified = true;
    }

    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(rawBody).toString("utf8")) as unknown;
    } catch {
      count("bad_request");
      return c.json({ error: "body is not JSON" }, 400);
    }
    const headerId = c.req.header(`${prefix}-delivery-id`);
    if (headerId !== undefined && !DELIVERY_ID.test(headerId)) {
      count("bad_request");
      return c.json({ error: "bad delivery id" }, 400);
    }
    // Without the header, identical bodies are one delivery (a retry repeats the body).
    const deliveryId = headerId ?? `body-${createHash("sha256").update(rawBody).digest("hex")}`;
    const event = c.req.header(`${prefix}-event`);
    try {
      const result = await deps.inbox.accept({ chatId, deliveryId, event, payload, verified, receivedAt: now() });
      if (result === "duplicate") {
        log.debug({ deliveryId }, "webhook delivery already handled");
        count("duplicate");
        return c.json({ status: "duplicate" }, 200);
      }
      log.info({ deliveryId, event, verified }, verified ? "webhook accepted" : "unsigned webhook accepted as a hint");
      return c.json({ status: "accepted" }, 202);
    } catch (error) {
      // Not stored: a non-2xx makes the service retry later.
      log.error({ err: error, deliveryId }, "could not persist a webhook");
      count("error");
      return c.json({ error: "temporarily unavailable" }, 503);
    }
  };
}
