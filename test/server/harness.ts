/**
 * Wires the webhook path exactly as src/app.ts does, over loopback: the
 * service simulator, the fake Bot API, a SQLite store, the chat repository,
 * the push queue (403 → chat inactive + tracking stopped), the order history,
 * the real tracker (its `hint` is the inbox's `onEvent`, so webhooks and the
 * poller share one announced-(id, status) memory), the real tracking
 * notifier, the webhook inbox and the HTTP server.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { request } from "undici";
import { createTrackingNotifier } from "../../src/bot/features/tracking-notifier.js";
import { createChatRepository, type ChatRepository } from "../../src/core/chats/chat-repository.js";
import { createMetrics, type Metrics } from "../../src/core/metrics.js";
import { createOrderHistory } from "../../src/core/orders/order-history.js";
import { createPushQueue } from "../../src/core/push/create-push-queue.js";
import type { PushQueue } from "../../src/core/push/types.js";
import type { ServiceClient } from "../../src/core/service/client.js";
import { createServiceClient } from "../../src/core/service/create-service-client.js";
import { openStore } from "../../src/core/store/open-store.js";
import type { StoreBackend } from "../../src/core/store/types.js";
import { createTracker, type Tracker } from "../../src/core/tracking/tracker.js";
import { createVault } from "../../src/core/vault.js";
import { createWebhookInbox } from "../../src/core/webhooks/create-webhook-inbox.js";
import type { WebhookInbox, WebhookNotice } from "../../src/core/webhooks/types.js";
import { createHttpServer, type HttpServer } from "../../src/server/index.js";
import { signatureHeader, startSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.js";
import { randomAddress } from "../support/tron-sign.js";
import { waitUntil } from "../support/wait.js";

export const PREFIX = "X-Service";
export const logger = pino({ level: "silent" });

export interface HarnessOptions extends SimulatorOptions {
  /** The tracker's own polling; long by default so only webhooks cause re-reads. */
  trackerMinDelayMs?: number;
}

export interface Harness {
  sim: Simulator;
  tg: FakeTelegram;
  store: StoreBackend;
  chats: ChatRepository;
  service: ServiceClient;
  push: PushQueue;
  tracker: Tracker;
  inbox: WebhookInbox;
  server: HttpServer;
  metrics: Metrics;
  baseUrl: string;
  /** What the inbox passed to the tracker's hint. */
  notices: WebhookNotice[];
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { trackerMinDelayMs = 60_000, ...simOptions } = options;
  const dir = mkdtempSync(join(tmpdir(), "hooks-"));
  const sim = await startSimulator({ headerPrefix: PREFIX, orderStepMs: 60_000, broadcastStepMs: 60_000, webhookRetryBaseMs: 50, ...simOptions });
  const tg = await startFakeTelegram();
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  const metrics = createMetrics();
  const chats = createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger });
  const service = createServiceClient({
    baseUrl: sim.baseUrl,
    logger,
    attemptTimeoutMs: 2_000,
    totalTimeoutMs: 4_000,
    backoffBaseMs: 20,
    onCall: ({ endpoint, outcome }) => metrics.inc("service_calls_total", { endpoint, outcome }),
  });
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const push = createPushQueue({
    store,
    logger,
    metrics,
    transport: (job) => api.raw[job.method](job.params as never),
    limits: { globalPerSecond: 200, perChatPerSecond: 50, perGroupPerMinute: 600, marginMs: 0 },
    retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 4 },
    onChatUnreachable: async (chatId) => {
      await chats.markInactive(chatId);
      // Called only once the queue runs, after `tracker` below exists (as in src/app.ts).
      await tracker.stopChat(chatId);
    },
  });
  const history = createOrderHistory({ store, logger });
  const notifier = createTrackingNotifier({ push, chats, defaultLocale: "en", logger });
  const tracker = createTracker({
    store,
    service,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    onChange: (change) => notifier.onChange(change),
    onGiveUp: (event) => notifier.onGiveUp(event),
    history,
    logger,
    metrics,
    minDelayMs: trackerMinDelayMs,
    maxDelayMs: Math.max(trackerMinDelayMs, 60_000),
  });
  const notices: WebhookNotice[] = [];
  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    baseDelayMs: 20,
    onEvent: async (notice) => {
      notices.push(notice);
      await tracker.hint(notice);
    },
    resolveTxId: async (chatId, txId) => (await history.findBroadcastByTxId(chatId, txId))?.id,
  });
  const server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: simOptions.headerPrefix ?? PREFIX },
    logger,
    metrics,
    store,
    service,
    chats,
    inbox,
    healthCacheMs: 0,
  });
  await push.start();
  await inbox.start();
  await tracker.start();
  const { port } = await server.start();
  return {
    sim, tg, store, chats, service, push, tracker, inbox, server, metrics, notices,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await server.stop();
      await inbox.stop();
      await tracker.stop();
      await push.stop();
      await sim.stop();
      await tg.close();
      await service.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A linked chat whose key belongs to a fresh simulator account with money. */
export async function linkChat(h: Harness, chatId: number, options: { withSecret?: boolean; callback?: boolean } = {}) {
  const account = h.sim.createAccount({ balanceSun: 100_000_000_000 });
  h.tg.addChat(chatId);
  const record = await h.chats.link(chatId, { apiKey: account.apiKey, webhookSecret: options.withSecret === false ? undefined : account.webhookSecret });
  const routeId = record.routeId!;
  if (options.callback) h.sim.setCallbackUrl(account.apiKey, `${h.baseUrl}/hooks/${routeId}`);
  return { ...account, routeId };
}

export async function createOrder(h: Harness, apiKey: string): Promise<string> {
  const { orders } = await h.service.createOrders(apiKey, [{ toAddress: randomAddress(), amount: 60_000, resource: "ENERGY", durationSec: 300 }], randomUUID());
  return orders[0]!.orderId;
}

export interface PostOptions {
  secret?: string;
  t?: number;
  deliveryId?: string | null;
  event?: string | null;
  signature?: string | null;
  method?: "POST" | "GET" | "PUT";
}

export async function postHook(h: Harness, routeId: string, body: string, o: PostOptions = {}) {
  const t = o.t ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const deliveryId = o.deliveryId === undefined ? randomUUID() : o.deliveryId;
  if (deliveryId !== null) headers[`${PREFIX}-Delivery-Id`] = deliveryId;
  if (o.event !== null) headers[`${PREFIX}-Event`] = o.event ?? "order.created";
  const signature = o.signature === undefined ? (o.secret ? signatureHeader(o.secret, t, body) : null) : o.signature;
  if (signature !== null) headers[`${PREFIX}-Signature`] = signature;
  const res = await request(`${h.baseUrl}/hooks/${routeId}`, { method: o.method ?? "POST", headers, ...(o.method === "GET" ? {} : { body }) });
  const text = await res.body.text();
  return { status: res.statusCode, body: text, deliveryId };
}

/** GET requests for one record that reached the simulator: the re-reads. */
export function reReads(h: Harness, id: string): number {
  return h.sim.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/${id}`)).length;
}

/** What the bot told the chat, as plain text. */
export function texts(h: Harness, chatId: number): string[] {
  return h.tg.botMessages(chatId).map((m) => m.text);
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await waitUntil(check, { timeoutMs, intervalMs: 10 });
}

/** Lets queued background work (inbox, push) run; used before asserting that nothing happened. */
export async function settle(h: Harness): Promise<void> {
  await until(async () => (await h.inbox.size()) === 0 && (await h.push.size()) === 0);
  await new Promise((r) => setTimeout(r, 50));
}
