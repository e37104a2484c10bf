/**
 * How long the service waits for our 2xx: a signed POST /hooks/:routeId on
 * the real HTTP server (route lookup, secret opened by the vault, HMAC check,
 * item and dedup marker persisted in SQLite before the answer) against
 * GET /healthz on the same server (liveness: a SQLite ping), one
 * request at a time over a keep-alive connection. The /hooks rate limits are
 * the shipped ones; the event handling is lifted (the inbox's handler does
 * nothing), so the figure is the acknowledgement's alone, as its label says.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Pool } from "undici";
import { createChatRepository } from "../src/shared/chats/chat-repository.js";
import { createMetrics } from "../src/platform/metrics.js";
import { createServiceClient } from "../src/platform/service/create-service-client.js";
import { openStore } from "../src/platform/store/open-store.js";
import { createVault } from "../src/shared/vault.js";
import { createWebhookInbox } from "../src/shared/webhooks/create-webhook-inbox.js";
import { createHttpServer } from "../src/server/index.js";
import { signatureHeader, startSimulator } from "../testkit/simulator/index.js";
import { measureLatency } from "./latency.js";

const PREFIX = "X-Service";
const CHAT = 777;

export async function benchWebhookAck(limits: { maxOps: number; maxMs: number }): Promise<void> {
  const logger = pino({ level: "silent" });
  const dir = mkdtempSync(join(tmpdir(), "bench-hooks-"));
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  const service = createServiceClient({ baseUrl: sim.baseUrl, logger });
  const metrics = createMetrics();
  const chats = createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger });
  // Processing runs after the answer (setImmediate) and stays in the figure's process, as in the app.
  const inbox = createWebhookInbox({ store, logger, metrics, queue: "local", onEvent: () => Promise.resolve() });
  const server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: PREFIX },
    logger,
    metrics,
    store,
    service,
    chats,
    inbox,
  });
  const secret = randomBytes(24).toString("base64url");
  const record = await chats.link(CHAT, { apiKey: sim.createAccount().apiKey, webhookSecret: secret });
  await inbox.start();
  const { port } = await server.start();
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1, pipelining: 1 });
  const run = randomBytes(4).toString("hex");

  const hook = (i: number) => {
    const orderId = randomBytes(12).toString("hex");
    const body = JSON.stringify({
      id: `evt_${run}_${i}`,
      event: "order.created",
      createdAt: new Date().toISOString(),
      data: {
        order: {
          id: orderId,
          status: "pending",
          toAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu",
          amount: 65_000,
          resource: "ENERGY",
          durationSec: 3600,
          costSun: 9_750_000,
        },
      },
    });
    return {
      body,
      headers: {
        "content-type": "application/json",
        [`${PREFIX}-Event`]: "order.created",
        [`${PREFIX}-Delivery-Id`]: `dlv_${run}_${i}`,
        [`${PREFIX}-Signature`]: signatureHeader(secret, Math.floor(Date.now() / 1000), body),
      },
    };
  };

  async function send(method: "GET" | "POST", path: string, expected: number, init: { body?: string; headers?: Record<string, string> } = {}): Promise<void> {
    const res = await pool.request({ method, path, ...init });
    await res.body.text();
    if (res.statusCode !== expected) throw new Error(`${method} ${path}: ${res.statusCode}, expected ${expected}`);
  }

  try {
    await measureLatency("webhooks", "GET /healthz (same server)", limits, () => send("GET", "/healthz", 200));
    await measureLatency(
      "webhooks",
      "signed POST /hooks/:routeId -> 202 (SQLite; handler lifted)",
      limits,
      ({ body, headers }) => send("POST", `/hooks/${record.routeId!}`, 202, { body, headers }),
      // Signing is the sender's work: done outside the timed call.
      { baseline: "GET /healthz (same server)", prepare: hook },
    );
    if ((await metrics.get("webhooks_total", { outcome: "accepted" })) === 0) throw new Error("no webhook was accepted");
  } finally {
    await pool.close();
    await server.stop();
    await inbox.stop();
    await service.close();
    await store.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
