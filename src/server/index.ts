import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { webhookCallback, type Bot, type Context as GrammyContext } from "grammy";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { ChatRepository } from "../core/chats/chat-repository.js";
import type { Metrics } from "../core/metrics.js";
import type { ServiceClient } from "../core/service/client.js";
import type { StoreBackend } from "../core/store/types.js";
import type { WebhookInbox } from "../core/webhooks/types.js";
import { createHealthCheck } from "./health.js";
import { createHooksHandler } from "./hooks-route.js";

export const MAX_BODY_BYTES = 1_048_576;

export interface HttpServerLimits {
  bodyBytes: number;
  /** Time to receive all request headers (slowloris). */
  headersTimeoutMs: number;
  /** Time to receive the whole request. */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpServerLimits = {
  bodyBytes: MAX_BODY_BYTES,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

export interface HttpServerDeps<C extends GrammyContext = GrammyContext> {
  config: Pick<Config, "httpPort" | "httpHost" | "serviceHeaderPrefix">;
  logger: Logger;
  metrics: Metrics;
  store: Pick<StoreBackend, "ping">;
  service: Pick<ServiceClient, "getSystem">;
  chats: Pick<ChatRepository, "findChatByRouteId" | "getWebhookSecret">;
  inbox: Pick<WebhookInbox, "accept">;
  /** BOT_MODE=webhook: Telegram posts updates to /telegram. */
  bot?: Bot<C> | undefined;
  telegramSecretToken?: string | undefined;
  limits?: Partial<HttpServerLimits>;
  healthCacheMs?: number;
  now?: () => number;
}

export interface HttpServer {
  start(): Promise<{ port: number }>;
  /** Stops accepting, lets requests in flight finish (up to a few seconds). Idempotent. */
  stop(): Promise<void>;
  app: Hono;
}

export function createHttpServer<C extends GrammyContext = GrammyContext>(deps: HttpServerDeps<C>): HttpServer {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...deps.limits };
  const log = deps.logger.child({ component: "http" });
  const app = new Hono();
  const tooLarge = bodyLimit({
    maxSize: limits.bodyBytes,
    onError: (c) => {
      deps.metrics.inc("webhooks_total", { outcome: "too_large" });
      // The rest of the body is never read, so this connection cannot carry another request.
      return c.json({ error: "payload too large" }, 413, { Connection: "close" });
    },
  });
  const health = createHealthCheck({
    store: deps.store,
    service: deps.service,
    logger: log,
    ...(deps.healthCacheMs !== undefined ? { serviceCacheMs: deps.healthCacheMs } : {}),
  });

  app.post(
    "/hooks/:routeId",
    tooLarge,
    createHooksHandler({
      headerPrefix: deps.config.serviceHeaderPrefix,
      logger: log,
      metrics: deps.metrics,
      chats: deps.chats,
      inbox: deps.inbox,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  );
  app.all("/hooks/:routeId", (c) => c.json({ error: "method not allowed" }, 405, { Allow: "POST" }));

  app.get("/healthz", async (c) => {
    const report = await health();
    return c.json(report, report.status === "ok" ? 200 : 503);
  });

  app.get("/metrics", (c) => c.text(deps.metrics.render(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }));

  if (deps.bot) {
    app.post("/telegram", tooLarge, webhookCallback(deps.bot, "hono", { secretToken: deps.telegramSecretToken }));
  }

  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      log.info({ status: error.status, path: c.req.path }, error.message);
      return error.getResponse();
    }
    log.error({ err: error, path: c.req.path }, "http handler failed");
    return c.json({ error: "internal error" }, 500);
  });

  let server: Server | undefined;
  let stopping: Promise<void> | undefined;

  return {
    app,
    start() {
      if (server) return Promise.resolve({ port: (server.address() as AddressInfo).port });
      return new Promise((resolve, reject) => {
        const s = serve(
          {
            fetch: app.fetch,
            port: deps.config.httpPort,
            hostname: deps.config.httpHost,
            serverOptions: {
              headersTimeout: limits.headersTimeoutMs,
              requestTimeout: limits.requestTimeoutMs,
              keepAliveTimeout: limits.keepAliveTimeoutMs,
              // Node checks the two timeouts above only this often (default 30 s).
              connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 2))),
            },
          },
          (info) => {
            log.info({ port: info.port, host: deps.config.httpHost }, "http server listening");
            resolve({ port: info.port });
          },
        ) as Server;
        s.once("error", reject);
        server = s;
      });
    },
    stop() {
      stopping ??= (async () => {
        const s = server;
        if (!s) return;
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => s.closeAllConnections(), 5_000);
          s.close(() => {
            clearTimeout(force);
            resolve();
          });
          s.closeIdleConnections();
        });
        log.info("http server stopped");
      })();
      return stopping;
    },
  };
}
