import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { ChatRepository } from "../shared/chats/chat-repository.js";
import { routeIdForLog } from "../shared/chats/route-id.js";
import type { Metrics } from "../platform/metrics.js";
import type { ServiceClient } from "../platform/service/client.js";
import type { StoreBackend } from "../platform/store/types.js";
import type { UpdateAcceptResult, UpdateLike } from "../platform/telegram/update-inbox.js";
import type { WebhookInbox } from "../shared/webhooks/types.js";
import { contentLengthLimit } from "../platform/http/body-limit.js";
import { createHealthCheck } from "../platform/http/health.js";
import { createHooksHandler } from "./hooks-route.js";
import { createMetricsHandler } from "../platform/http/metrics-route.js";
import type { HooksRateLimits } from "../platform/http/rate-limit.js";
import { createTelegramHandler } from "./telegram-route.js";

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

export interface HttpServerDeps {
  config: Pick<Config, "httpPort" | "httpHost" | "serviceHeaderPrefix"> & Partial<Pick<Config, "metricsToken" | "metricsPort" | "metricsHost">>;
  logger: Logger;
  metrics: Metrics;
  store: Pick<StoreBackend, "ping">;
  service: Pick<ServiceClient, "getSystem">;
  /** Telegram's state for /readyz, from the outcome of the bot's own calls. */
  telegramState?: () => "ok" | "down" | "unknown";
  /** Whether the store came back without its data (shown in /readyz). */
  storeDataLost?: () => boolean;
  chats: Pick<ChatRepository, "findRoute">;
  inbox: Pick<WebhookInbox, "accept">;
  /** BOT_MODE=webhook: Telegram posts updates to /telegram; they are stored here and handled in the background. */
  telegramUpdates?: { accept(update: UpdateLike): Promise<UpdateAcceptResult> } | undefined;
  telegramSecretToken?: string | undefined;
  limits?: Partial<HttpServerLimits>;
  hooksRateLimits?: HooksRateLimits;
  healthCacheMs?: number;
  now?: () => number;
  /** Pages of features (the signing page), mounted on the public port. */
  routes?: readonly ((app: Hono) => void)[];
}

export interface HttpServer {
  /** `metricsPort` is set when /metrics has a listener of its own. */
  start(): Promise<{ port: number; metricsPort?: number }>;
  /** Stops accepting, lets requests in flight finish (up to a few seconds). Idempotent. */
  stop(): Promise<void>;
  app: Hono;
}

/** /hooks/<routeId> with the route id shortened: a full one in a log would let its reader post to the chat's route. */
function pathForLog(path: string): string {
  const m = /^\/hooks\/([^/]*)/.exec(path);
  return m ? `/hooks/${routeIdForLog(m[1] ?? "")}` : path.slice(0, 200);
}

/** The client hung up before its request was read: nothing to fix on our side. */
function isClientAbort(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; message?: unknown } | undefined;
  return (
    e?.name === "AbortError" ||
    e?.code === "ECONNRESET" ||
    e?.code === "ERR_STREAM_PREMATURE_CLOSE" ||
    (typeof e?.message === "string" && /aborted|premature close/i.test(e.message))
  );
}

export function createHttpServer(deps: HttpServerDeps): HttpServer {
  if (deps.telegramUpdates && !deps.telegramSecretToken) {
    // Without a secret, anyone who reaches /telegram can post updates as any chat.
    throw new Error("createHttpServer: a bot on /telegram needs telegramSecretToken");
  }
  const limits = { ...DEFAULT_HTTP_LIMITS, ...deps.limits };
  const log = deps.logger.child({ component: "http" });
  const app = new Hono();
  const tooLarge = contentLengthLimit({
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
    ...(deps.telegramState ? { telegram: deps.telegramState } : {}),
    ...(deps.storeDataLost ? { storeDataLost: deps.storeDataLost } : {}),
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
      ...(deps.hooksRateLimits ? { rateLimits: deps.hooksRateLimits } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  );
  app.all("/hooks/:routeId", (c) => c.json({ error: "method not allowed" }, 405, { Allow: "POST" }));

  // Liveness (a container's HEALTHCHECK, a restart policy): the process and its store only.
  app.get("/healthz", async (c) => {
    const report = await health.liveness();
    return c.json(report, report.status === "ok" ? 200 : 503);
  });
  // Readiness (a load balancer, an alert): the service and Telegram too. An outage there never restarts us.
  app.get("/readyz", async (c) => {
    const report = await health.readiness();
    return c.json(report, report.status === "ready" ? 200 : 503);
  });

  const metricsPort = deps.config.metricsPort;
  const metricsHandler = createMetricsHandler({ metrics: deps.metrics, token: deps.config.metricsToken });
  // The public port serves /metrics only behind a token: the figures (chats, orders, errors) are nobody else's business.
  // With a listener of its own (an internal interface), /metrics is never on the public port.
  const metricsOnPublicPort = metricsPort === undefined && deps.config.metricsToken !== undefined;
  if (metricsOnPublicPort) app.get("/metrics", metricsHandler);

  if (deps.telegramUpdates && deps.telegramSecretToken) {
    app.post("/telegram", tooLarge, createTelegramHandler({ secretToken: deps.telegramSecretToken, updates: deps.telegramUpdates, logger: log }));
  }

  for (const mount of deps.routes ?? []) mount(app);

  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((error, c) => {
    const path = pathForLog(c.req.path);
    if (error instanceof HTTPException && error.status < 500) {
      log.info({ status: error.status, path }, error.message);
      return error.getResponse();
    }
    if (isClientAbort(error)) {
      log.warn({ err: error, path }, "client went away before the request was read");
      return c.json({ error: "request aborted" }, 400);
    }
    log.error({ err: error, path }, "http handler failed");
    return c.json({ error: "internal error" }, 500);
  });

  let server: Server | undefined;
  let metricsServer: Server | undefined;
  let stopping: Promise<void> | undefined;

  return {
    app,
    async start() {
      const main = await startMain();
      if (metricsPort === undefined) return main;
      metricsServer ??= await listenMetrics(metricsPort, deps.config.metricsHost ?? "127.0.0.1");
      return { ...main, metricsPort: (metricsServer.address() as AddressInfo).port };
    },
    stop() {
      stopping ??= (async () => {
        await Promise.all([closeServer(server), closeServer(metricsServer)]);
        if (server) log.info("http server stopped");
      })();
      return stopping;
    },
  };

  function startMain(): Promise<{ port: number }> {
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
          if (metricsPort === undefined && !metricsOnPublicPort) {
            log.info(
              "/metrics is off: set METRICS_PORT (a listener of its own on METRICS_HOST, default 127.0.0.1) or METRICS_TOKEN (on HTTP_PORT, behind that bearer token)",
            );
          }
          resolve({ port: info.port });
        },
      ) as Server;
      s.once("error", reject);
      server = s;
    });
  }

  function listenMetrics(port: number, hostname: string): Promise<Server> {
    const metricsApp = new Hono();
    metricsApp.get("/metrics", metricsHandler);
    metricsApp.notFound((c) => c.json({ error: "not found" }, 404));
    return new Promise((resolve, reject) => {
      const s = serve({ fetch: metricsApp.fetch, port, hostname }, (info) => {
        log.info({ port: info.port, host: hostname }, "metrics server listening");
        resolve(s);
      }) as Server;
      s.once("error", reject);
    });
  }

  async function closeServer(s: Server | undefined): Promise<void> {
    if (!s) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => s.closeAllConnections(), 5_000);
      s.close(() => {
        clearTimeout(force);
        resolve();
      });
      s.closeIdleConnections();
    });
  }
}
