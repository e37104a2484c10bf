/**
 * The webhook path over loopback, wired as the app wires it: storage
 * (SQLite in a temp dir), service access, and delivery (test/support/delivery.ts:
 * push queue with 403 → chat inactive + tracking stopped, the real tracker
 * whose `hint` is the inbox's event handler, the real notifiers, the webhook
 * inbox), against the service simulator and the fake Bot API; plus the HTTP
 * server under test.
 */
import type { AppEvents } from "../../src/shared/events.js";
import { createEvents } from "../../src/platform/events.js";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { request } from "undici";
import { createTestDelivery } from "../support/delivery.js";
import { createServiceAccess } from "../../src/platform/service/service-access.js";
import { createStorage } from "../../src/shared/storage.js";
import { chatStoredLocale, createI18n } from "../../src/bot/i18n.js";
import type { ChatRepository } from "../../src/shared/chats/chat-repository.js";
import { createMetrics, type Metrics } from "../../src/platform/metrics.js";
import type { PushQueue } from "../../src/platform/push/types.js";
import type { ServiceClient } from "../../src/platform/service/client.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import type { Tracker } from "../../src/shared/tracking/tracker.js";
import type { WebhookInbox, WebhookNotice } from "../../src/shared/webhooks/types.js";
import { createHttpServer, type HttpServer } from "../../src/server/index.js";
import type { HooksRateLimits } from "../../src/platform/http/rate-limit.js";
import { signatureHeader, startSimulator, type Simulator, type SimulatorOptions } from "../../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../../testkit/fake-telegram/fake-telegram.js";
import { randomAddress } from "../../testkit/tron-sign.js";
import { waitUntil } from "../support/wait.js";

export const PREFIX = "X-Service";
/** /metrics on the harness's port answers only this bearer token. */
export const METRICS_TOKEN = "harness-metrics-token-0123";
export const logger = pino({ level: "silent" });

export interface HarnessOptions extends SimulatorOptions {
  /** The tracker's own polling; long by default so only webhooks cause re-reads. */
  trackerMinDelayMs?: number;
  /** Where the records live; a SQLite file in a temp dir by default. */
  storageUrl?: string;
  /** The route's rate limits, when a test sends more than their bursts. */
  hooksRateLimits?: HooksRateLimits;
  /** Deliveries the webhook inbox holds in memory before the rest wait in the store. */
  inboxMaxInMemory?: number;
  /** The bot's service client bounds (default 2 s an attempt, 4 s in all: a hanging service is given up on quickly). */
  serviceTimeouts?: { attemptTimeoutMs: number; totalTimeoutMs: number };
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
  const { trackerMinDelayMs = 60_000, storageUrl, hooksRateLimits, inboxMaxInMemory, serviceTimeouts, ...simOptions } = options;
  const dir = mkdtempSync(join(tmpdir(), "hooks-"));
  const sim = await startSimulator({ headerPrefix: PREFIX, orderStepMs: 60_000, broadcastStepMs: 60_000, webhookRetryBaseMs: 50, ...simOptions });
  const tg = await startFakeTelegram();
  const metrics = createMetrics();
  const storage = await createStorage({
    config: { storageUrl: storageUrl ?? `sqlite://${join(dir, "bot.sqlite")}`, encryptionKey: randomBytes(32) },
    logger,
    purgeIntervalMs: 0,
  });
  const { store, chats } = storage;
  const { service } = createServiceAccess({
    baseUrl: sim.baseUrl,
    logger,
    metrics,
    tuning: { attemptTimeoutMs: 2_000, totalTimeoutMs: 4_000, ...serviceTimeouts, backoffBaseMs: 20 },
  });
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const notices: WebhookNotice[] = [];
  const events = createEvents<AppEvents>();
  // Subscribed before the tracker: a notice is recorded as it arrives, whatever the tracker makes of it.
  events.on("webhook.received", (notice) => void notices.push(notice));
  const delivery = createTestDelivery({
    storage,
    service,
    events,
    i18n: createI18n({ defaultLocale: "en", storedLocale: chatStoredLocale(chats), logger }),
    defaultLocale: "en",
    logger,
    metrics,
    transport: (job) => api.raw[job.method](job.params as never),
    tuning: {
      push: {
        limits: { globalPerSecond: 200, perChatPerSecond: 50, perGroupPerMinute: 600, marginMs: 0 },
        retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 4 },
      },
      tracker: { minDelayMs: trackerMinDelayMs, maxDelayMs: Math.max(trackerMinDelayMs, 60_000) },
      inbox: { baseDelayMs: 20, ...(inboxMaxInMemory !== undefined ? { maxInMemory: inboxMaxInMemory } : {}) },
    },
  });
  const { push, tracker, inbox } = delivery;
  const server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: simOptions.headerPrefix ?? PREFIX, metricsToken: METRICS_TOKEN },
    logger,
    metrics,
    store,
    service,
    chats,
    inbox,
    healthCacheMs: 0,
    ...(hooksRateLimits ? { hooksRateLimits } : {}),
  });
  await delivery.start();
  const { port } = await server.start();
  return {
    sim,
    tg,
    store,
    chats,
    service,
    push,
    tracker,
    inbox,
    server,
    metrics,
    notices,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await server.stop();
      await delivery.stop();
      await sim.stop();
      await tg.close();
      await service.close();
      await storage.close();
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

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await waitUntil(check, { timeoutMs, intervalMs: 10 });
}

/** Lets queued background work (inbox, push) run; used before asserting that nothing happened. */
export async function settle(h: Harness): Promise<void> {
  await until(async () => (await h.inbox.size()) === 0 && (await h.push.size()) === 0);
  await new Promise((r) => setTimeout(r, 50));
}
