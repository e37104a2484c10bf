import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatRepository } from "../../src/shared/chats/chat-repository.js";
import { createMetrics } from "../../src/platform/metrics.js";
import type { ServiceClient } from "../../src/platform/service/client.js";
import type { WebhookInbox } from "../../src/shared/webhooks/types.js";
import { createHttpServer, type HttpServer } from "../../src/server/index.js";
import { openStore } from "../../src/platform/store/open-store.js";
import { createVault } from "../../src/shared/vault.js";
import { createUpdateInbox, type UpdateAcceptResult, type UpdateLike } from "../../src/platform/telegram/update-inbox.js";
import { captureLogger } from "../platform/service/capture-logger.js";
import { logger, PREFIX } from "./harness.js";

type Chats = Pick<ChatRepository, "findRoute">;
const noChats: Chats = { findRoute: () => Promise.resolve(undefined) };
const noInbox = { accept: () => Promise.reject(new Error("not used")) };
const METRICS_TOKEN = "metrics-token-0123456789";

describe("HTTP server: /healthz, /readyz, /metrics, /telegram", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function start(
    options: {
      storeUp?: boolean;
      serviceUp?: boolean;
      telegramUpdates?: { accept(update: UpdateLike): Promise<UpdateAcceptResult> };
      secretToken?: string;
      headersTimeoutMs?: number;
      log?: ReturnType<typeof captureLogger>;
      chats?: Chats;
      inbox?: Pick<WebhookInbox, "accept">;
      telegramState?: () => "ok" | "down" | "unknown";
    } = {},
  ) {
    let systemCalls = 0;
    const service = {
      getSystem: () => {
        systemCalls += 1;
        return options.serviceUp === false ? Promise.reject(new Error("down")) : Promise.resolve({} as never);
      },
    } satisfies Pick<ServiceClient, "getSystem">;
    const metrics = createMetrics();
    const server: HttpServer = createHttpServer({
      config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: PREFIX, metricsToken: METRICS_TOKEN },
      logger: options.log?.logger ?? logger,
      metrics,
      store: { ping: () => Promise.resolve(options.storeUp !== false) },
      service,
      chats: options.chats ?? noChats,
      inbox: options.inbox ?? noInbox,
      telegramUpdates: options.telegramUpdates,
      telegramSecretToken: options.secretToken,
      ...(options.telegramState ? { telegramState: options.telegramState } : {}),
      ...(options.headersTimeoutMs ? { limits: { headersTimeoutMs: options.headersTimeoutMs, requestTimeoutMs: options.headersTimeoutMs * 2 } } : {}),
    });
    const { port } = await server.start();
    cleanups.push(() => server.stop());
    return { base: `http://127.0.0.1:${port}`, metrics, systemCalls: () => systemCalls };
  }

  async function get(url: string) {
    const res = await request(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return { status: res.statusCode, type: String(res.headers["content-type"]), body: await res.body.text() };
  }

  it("reports healthy and ready with 200 and asks the service at most once per cache period", async () => {
    const s = await start();
    for (let i = 0; i < 5; i += 1) {
      const live = await get(`${s.base}/healthz`);
      expect(live.status).toBe(200);
      expect(JSON.parse(live.body)).toEqual({ status: "ok", store: "ok" });
      const ready = await get(`${s.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.type).toContain("application/json");
      expect(JSON.parse(ready.body)).toEqual({ status: "ready", store: "ok", service: "ok" });
    }
    expect(s.systemCalls()).toBe(1);
  });

  it("/healthz never asks the service: liveness is the process and its own store", async () => {
    const s = await start({ serviceUp: false });
    const live = await get(`${s.base}/healthz`);
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: "ok", store: "ok" });
    expect(s.systemCalls()).toBe(0);
  });

  it.each([
    [{ storeUp: false }, { store: "down", service: "ok" }],
    [{ serviceUp: false }, { store: "ok", service: "down" }],
  ])("/readyz answers 503 when a dependency is down (%o)", async (options, expected) => {
    const s = await start(options);
    const res = await get(`${s.base}/readyz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ status: "not_ready", ...expected });
  });

  it("/healthz answers 503 only when the store is down", async () => {
    const s = await start({ storeUp: false });
    const res = await get(`${s.base}/healthz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ status: "down", store: "down" });
  });

  it("/readyz reports Telegram's state when the app watches it; only a Telegram that is down makes it 503", async () => {
    let telegram: "ok" | "down" | "unknown" = "unknown";
    const s = await start({ telegramState: () => telegram });
    expect(JSON.parse((await get(`${s.base}/readyz`)).body)).toEqual({ status: "ready", store: "ok", service: "ok", telegram: "unknown" });
    telegram = "down";
    const down = await get(`${s.base}/readyz`);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: "not_ready", store: "ok", service: "ok", telegram: "down" });
    expect((await get(`${s.base}/healthz`)).status).toBe(200);
    telegram = "ok";
    expect((await get(`${s.base}/readyz`)).status).toBe(200);
  });

  it("serves Prometheus text on /metrics", async () => {
    const s = await start();
    s.metrics.inc("notifications_total", { outcome: "sent" }, 3);
    const res = await get(`${s.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/plain");
    expect(res.body).toContain("# TYPE notifications_total counter");
    expect(res.body).toContain('notifications_total{outcome="sent"} 3');
  });

  it("publishes every metric family from the first scrape", async () => {
    const s = await start();
    const res = await get(`${s.base}/metrics`);
    for (const [name, type] of [
      ["bot_updates_total", "counter"],
      ["service_calls_total", "counter"],
      ["webhooks_total", "counter"],
      ["notifications_total", "counter"],
      ["tracked_items", "gauge"],
      ["service_call_duration_seconds", "histogram"],
    ]) {
      expect(res.body).toContain(`# TYPE ${name} ${type}`);
    }
  });

  it("drops a client that never finishes its headers (slowloris) with 408", async () => {
    const s = await start({ headersTimeoutMs: 200 });
    const socket = connect(Number(new URL(s.base).port), "127.0.0.1");
    socket.write("POST /hooks/abc HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    await once(socket, "close");
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it("drops a client that sends its headers but never finishes the body with 408 (request timeout)", async () => {
    const s = await start({
      headersTimeoutMs: 200,
      chats: { findRoute: () => Promise.resolve({ chatId: 1, webhookSecret: undefined }) },
    });
    const socket = connect(Number(new URL(s.base).port), "127.0.0.1");
    socket.write(`POST /hooks/${"a".repeat(24)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    await once(socket, "close");
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it("answers a webhook with 503 when the store cannot be read, so the service retries", async () => {
    const s = await start({
      chats: { findRoute: () => Promise.reject(new Error("store down")) },
    });
    const res = await request(`${s.base}/hooks/${"a".repeat(24)}`, { method: "POST", body: "{}" });
    await res.body.dump();
    expect(res.statusCode).toBe(503);
  });

  it("answers a webhook with 503 and Retry-After when the inbox is full, so the service retries later", async () => {
    const s = await start({
      chats: { findRoute: () => Promise.resolve({ chatId: 1, webhookSecret: undefined }) },
      inbox: { accept: () => Promise.resolve("full") },
    });
    const res = await request(`${s.base}/hooks/${"a".repeat(24)}`, { method: "POST", body: "{}" });
    expect(await res.body.json()).toEqual({ error: "inbox full" });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("answers 404 for unknown paths", async () => {
    const s = await start();
    expect((await get(`${s.base}/nope`)).status).toBe(404);
  });

  describe("/telegram in webhook mode", () => {
    async function withUpdates(accept: (update: UpdateLike) => Promise<UpdateAcceptResult>, log?: ReturnType<typeof captureLogger>) {
      const s = await start({ telegramUpdates: { accept }, secretToken: "tg-secret_1", ...(log ? { log } : {}) });
      return async (token: string | undefined, body: string) => {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (token !== undefined) headers["x-telegram-bot-api-secret-token"] = token;
        const res = await request(`${s.base}/telegram`, { method: "POST", headers, body });
        await res.body.dump();
        return res.statusCode;
      };
    }

    it("hands an update with the right secret token on and refuses others before reading them", async () => {
      const accepted: UpdateLike[] = [];
      const post = await withUpdates((update) => {
        accepted.push(update);
        return Promise.resolve("accepted");
      });
      const update = JSON.stringify({ update_id: 41, message: { text: "/ping" } });
      expect(await post(undefined, update)).toBe(401);
      expect(await post("wrong", update)).toBe(401);
      expect(await post("tg-secret_", update)).toBe(401);
      expect(accepted).toEqual([]);
      expect(await post("tg-secret_1", update)).toBe(200);
      expect(accepted).toEqual([{ update_id: 41, message: { text: "/ping" } }]);
    });

    it("answers a redelivered update 200, so Telegram stops delivering it", async () => {
      const post = await withUpdates(() => Promise.resolve("duplicate"));
      expect(await post("tg-secret_1", JSON.stringify({ update_id: 41 }))).toBe(200);
    });

    it.each([["not json"], ["[]"], ["{}"], ['{"update_id":"41"}'], ['{"update_id":-1}'], ['{"update_id":1.5}']])(
      "refuses %s as an update with 400",
      async (body) => {
        const accepted: UpdateLike[] = [];
        const post = await withUpdates((update) => {
          accepted.push(update);
          return Promise.resolve("accepted");
        });
        expect(await post("tg-secret_1", body)).toBe(400);
        expect(accepted).toEqual([]);
      },
    );

    it("acknowledges an update nested 100,000 deep and drops it unread: no 500, no error log, one warning", async () => {
      // The real inbox on a real store: storing such an update is what used to overflow the stack.
      const store = await openStore("sqlite://:memory:", { logger, purgeIntervalMs: 0 });
      cleanups.push(() => store.close());
      const inbox = createUpdateInbox({ store, owner: "test", vault: createVault({ key: randomBytes(32) }), logger });
      const accepted: UpdateLike[] = [];
      const log = captureLogger("info");
      const post = await withUpdates((update) => {
        accepted.push(update);
        return inbox.accept(update);
      }, log);
      const deep = `{"update_id":42,"message":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
      for (let i = 0; i < 3; i += 1) expect(await post("tg-secret_1", deep)).toBe(200);
      expect(accepted).toEqual([]);
      const levels = log.records().map((r) => r["level"]);
      expect(levels.filter((l) => Number(l) >= 50)).toEqual([]);
      expect(levels.filter((l) => l === 40)).toHaveLength(3);
      // A forged one never gets that far: the secret is checked before the body is read.
      const linesBefore = log.lines.length;
      expect(await post("wrong", deep)).toBe(401);
      expect(log.lines).toHaveLength(linesBefore);
      // An ordinary update right after it still goes through.
      expect(await post("tg-secret_1", JSON.stringify({ update_id: 43, message: { text: "/ping" } }))).toBe(200);
      expect(accepted.map((u) => u.update_id)).toEqual([43]);
    });

    it("answers 500 when the update cannot be stored, so Telegram delivers it again", async () => {
      const post = await withUpdates(() => Promise.reject(new Error("store down")));
      expect(await post("tg-secret_1", JSON.stringify({ update_id: 41 }))).toBe(500);
    });
  });
});
