import { connect } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatRepository } from "../../src/shared/chats/chat-repository.js";
import { createMetrics } from "../../src/platform/metrics.js";
import type { InboxItem } from "../../src/shared/webhooks/types.js";
import { createHttpServer } from "../../src/server/index.js";
import type { HooksRateLimits } from "../../src/platform/http/rate-limit.js";
import { captureLogger } from "../platform/service/capture-logger.js";
import { logger, PREFIX } from "./harness.js";

const ROUTE = "r".repeat(24);
const OTHER_ROUTE = "o".repeat(24);
type Chats = Pick<ChatRepository, "findRoute">;
const twoChats: Chats = {
  findRoute: (id) =>
    Promise.resolve(id === ROUTE ? { chatId: 1, webhookSecret: undefined } : id === OTHER_ROUTE ? { chatId: 2, webhookSecret: undefined } : undefined),
};
const service = { getSystem: () => Promise.resolve({} as never) };

describe("HTTP server hardening", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function start(
    options: { metricsToken?: string; metricsPort?: number; rateLimits?: HooksRateLimits; log?: ReturnType<typeof captureLogger>; chats?: Chats } = {},
  ) {
    const stored: InboxItem[] = [];
    const metrics = createMetrics();
    const server = createHttpServer({
      config: {
        httpPort: 0,
        httpHost: "127.0.0.1",
        serviceHeaderPrefix: PREFIX,
        metricsToken: options.metricsToken,
        metricsPort: options.metricsPort,
        metricsHost: "127.0.0.1",
      },
      logger: options.log?.logger ?? logger,
      metrics,
      store: { ping: () => Promise.resolve(true) },
      service,
      chats: options.chats ?? twoChats,
      inbox: { accept: (item) => Promise.resolve(void stored.push(item)).then(() => "accepted" as const) },
      ...(options.rateLimits ? { hooksRateLimits: options.rateLimits } : {}),
    });
    const ports = await server.start();
    cleanups.push(() => server.stop());
    return { ...ports, base: `http://127.0.0.1:${ports.port}`, stored, metrics };
  }

  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await request(url, { headers });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  }

  it("refuses to serve /telegram without a secret token", () => {
    const telegramUpdates = { accept: () => Promise.resolve("accepted" as const) };
    expect(() =>
      createHttpServer({
        config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: PREFIX },
        logger,
        metrics: createMetrics(),
        store: { ping: () => Promise.resolve(true) },
        service,
        chats: twoChats,
        inbox: { accept: () => Promise.resolve("accepted" as const) },
        telegramUpdates,
      }),
    ).toThrow(/telegramSecretToken/);
  });

  it("does not serve /metrics on the public port when neither METRICS_TOKEN nor METRICS_PORT is set, and says at start how to", async () => {
    const log = captureLogger("info");
    const s = await start({ log });
    expect(s.metricsPort).toBeUndefined();
    const res = await get(`${s.base}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain("webhooks_total");
    const off = log.records().filter((r) => String(r["msg"]).startsWith("/metrics is off"));
    expect(off).toHaveLength(1);
    expect(String(off[0]!["msg"])).toMatch(/METRICS_PORT.*METRICS_TOKEN/);
  });

  it("answers /metrics only with the bearer token when METRICS_TOKEN is set", async () => {
    const token = "metrics-token-0123456789";
    const s = await start({ metricsToken: token });
    expect((await get(`${s.base}/metrics`)).status).toBe(401);
    expect((await get(`${s.base}/metrics`, { authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    expect((await get(`${s.base}/metrics`, { authorization: token })).status).toBe(401);
    const ok = await get(`${s.base}/metrics`, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("# TYPE webhooks_total counter");
  });

  it("serves /metrics on its own listener when METRICS_PORT is set, and not on the public port", async () => {
    const s = await start({ metricsPort: 0 });
    expect(s.metricsPort).toBeGreaterThan(0);
    expect(s.metricsPort).not.toBe(s.port);
    expect((await get(`${s.base}/metrics`)).status).toBe(404);
    const own = await get(`http://127.0.0.1:${s.metricsPort}/metrics`);
    expect(own.status).toBe(200);
    expect(own.body).toContain("# TYPE webhooks_total counter");
    expect((await get(`http://127.0.0.1:${s.metricsPort}/healthz`)).status).toBe(404);
  });

  const post = (base: string, route: string, body = "{}") =>
    request(`${base}/hooks/${route}`, { method: "POST", headers: { "content-type": "application/json" }, body }).then(async (res) => {
      await res.body.dump();
      return { status: res.statusCode, retryAfter: res.headers["retry-after"] };
    });

  it("limits each route: past its burst a route gets 429 with Retry-After while another route still gets through", async () => {
    const s = await start({ rateLimits: { global: { burst: 1_000, perSecond: 1_000 }, perRoute: { burst: 3, perSecond: 0.1 } } });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push(await post(s.base, ROUTE, `{"n":${i}}`));
    expect(statuses.map((r) => r.status)).toEqual([202, 202, 202, 429, 429]);
    expect(Number(statuses[3]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await post(s.base, OTHER_ROUTE)).status).toBe(202);
    expect(s.stored).toHaveLength(4);
    expect(await s.metrics.get("webhooks_total", { outcome: "rate_limited" })).toBe(2);
  });

  it("limits all routes together: unknown routes spend the global budget too", async () => {
    const s = await start({ rateLimits: { global: { burst: 4, perSecond: 0.1 }, perRoute: { burst: 100, perSecond: 100 } } });
    const statuses = [];
    for (const route of ["x".repeat(24), "y".repeat(24), ROUTE, OTHER_ROUTE, ROUTE]) statuses.push(await post(s.base, route));
    expect(statuses.map((r) => r.status)).toEqual([404, 404, 202, 202, 429]);
    expect(Number(statuses[4]!.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it("refuses JSON nested deeper than 32 levels with 400 and stores the body as text", async () => {
    const s = await start();
    expect((await post(s.base, ROUTE, `${"[".repeat(33)}${"]".repeat(33)}`)).status).toBe(400);
    expect((await post(s.base, ROUTE, `${"[".repeat(4_000)}${"]".repeat(4_000)}`)).status).toBe(400);
    expect((await post(s.base, ROUTE, `{"a":"${"[".repeat(100)}"}`)).status).toBe(202);
    expect((await post(s.base, ROUTE, `${"[".repeat(32)}${"]".repeat(32)}`)).status).toBe(202);
    expect((await post(s.base, ROUTE, `{"toJSON":1}`)).status).toBe(202);
    expect(s.stored.map((i) => i.body)).toContain(`{"toJSON":1}`);
  });

  it("logs a client that hangs up mid-body at warn, never at error, and never a whole route id", async () => {
    const log = captureLogger("debug");
    let looked = false;
    const chats: Chats = {
      findRoute: (id) => {
        looked = true;
        return twoChats.findRoute(id);
      },
    };
    const s = await start({ log, chats });
    const socket = connect(s.port, "127.0.0.1");
    socket.write(`POST /hooks/${ROUTE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
    // The route has found the chat and goes on to read the body; the client goes away.
    await vi.waitFor(() => expect(looked).toBe(true), { timeout: 10_000 });
    socket.destroy();
    await vi.waitFor(() => expect(log.records().filter((r) => r["level"] === 40).length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(log.records().filter((r) => Number(r["level"]) >= 50)).toEqual([]);
    expect(
      log
        .records()
        .filter((r) => r["level"] === 40)
        .map((r) => r["msg"]),
    ).toContain("webhook body not received: client went away");
    expect(log.lines.join("\n")).not.toContain(ROUTE);
  });
});
