/**
 * The bot's webhook path as bench/webhook-load.ts measures it, built from
 * this checkout's sources or from another copy of them (`src`, the directory
 * holding `shared/` (or `core/`) and `server/`), so a baseline runs in the same process and
 * rounds. Logs go, at the app's default level (info), to /dev/null: every
 * line the route writes at that level is part of the cost.
 *
 * - handler "app": the whole app as shipped (createApp over SQLite or Redis,
 *   the shipped /hooks rate limits, its inbox → tracker handler, which
 *   re-reads each named order at the simulator and announces changes to the
 *   fake Bot API). The events name real orders of the chat's account in turn.
 * - handler "count": the HTTP server, store and inbox alone, whose handler only
 *   counts: the acknowledgement's cost without the event handling's.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pino } from "pino";
import type * as AppModule from "../src/app.js";
import type * as ConfigModule from "../src/config.js";
import type * as ChatRepository from "../src/shared/chats/chat-repository.js";
import type * as RouteCache from "../src/shared/chats/route-cache.js";
import type * as MetricsModule from "../src/platform/metrics.js";
import type * as ServiceClient from "../src/platform/service/create-service-client.js";
import type * as OpenStore from "../src/platform/store/open-store.js";
import type * as Vault from "../src/shared/vault.js";
import type * as WebhookInbox from "../src/shared/webhooks/create-webhook-inbox.js";
import type * as HttpServer from "../src/server/index.js";
import type { startSimulator } from "../testkit/simulator/index.js";
import { startFakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
const CHAT = 777;
/** Real orders of the chat's account the app's events name in turn (the simulator's service answers its re-reads). */
const REAL_ORDERS = 1_000;

export interface BotTarget {
  origin: string;
  path: string;
  secret: string;
  /** Adds acknowledged deliveries (told by the load generator). */
  acked(n: number): void;
  processed(): number;
  /** Acknowledged, not yet processed. */
  backlog(): number;
  /** What the inbox still holds (processed ones not yet removed included), counted in `heldUnit`. */
  held(): Promise<number>;
  heldUnit: "deliveries" | "jobs" | "deliveries not yet processed";
  /** The orders the events should name (absent: made-up ids). */
  orderIds?: string[];
  /** Resolves once every acknowledged delivery is processed (throws after `timeoutMs`). */
  drained(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const built = new Set<string>();

/**
 * A module of a source tree as production runs it: compiled into its dist/ by its own build (tsx's transform of src/
 * names every function it creates at run time, a cost the compiled code does not have). A module that moved is named
 * by its places, newest first: the tree compared against may be older than this one.
 */
async function load<T>(src: string | undefined, ...paths: [string, ...string[]]): Promise<T> {
  const tree = src === undefined ? fileURLToPath(new URL("..", import.meta.url)) : resolve(src, "..");
  if (!built.has(tree)) {
    execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: tree, stdio: "ignore" });
    built.add(tree);
  }
  const path = paths.find((p) => existsSync(join(tree, "dist", p))) ?? paths[0];
  return (await import(pathToFileURL(join(tree, "dist", path)).href)) as T;
}

export interface BotOptions {
  sim: Sim;
  kind: "sqlite" | "redis";
  handler: "app" | "count";
  redisUrl?: string | undefined;
  src?: string | undefined;
  prefix: string;
  headerPrefix: string;
}

export function startBot(o: BotOptions): Promise<BotTarget> {
  return o.handler === "app" ? startApp(o) : startCountingBot(o);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The whole app, its webhook route and event handling as shipped. */
async function startApp(o: BotOptions): Promise<BotTarget> {
  const [{ createApp }, { parseConfig }, { createChatRepository }, { createServiceClient }, { openStore }, { createVault, parseEncryptionKey }] =
    await Promise.all([
      load<typeof AppModule>(o.src, "app.js"),
      load<typeof ConfigModule>(o.src, "config.js"),
      load<typeof ChatRepository>(o.src, "shared/chats/chat-repository.js", "core/chats/chat-repository.js"),
      load<typeof ServiceClient>(o.src, "platform/service/create-service-client.js", "core/service/create-service-client.js"),
      load<typeof OpenStore>(o.src, "platform/store/open-store.js", "core/store/open-store.js"),
      load<typeof Vault>(o.src, "shared/vault.js", "core/vault.js"),
    ]);
  const logger = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true }));
  const dir = mkdtempSync(join(tmpdir(), "bench-hook-app-"));
  const redis = o.kind === "redis";
  if (redis && !o.redisUrl) throw new Error("startBot: redis needs redisUrl");
  const storeUrl = redis ? o.redisUrl! : `sqlite://${join(dir, "bot.sqlite")}`;
  const encryptionKey = randomBytes(32).toString("base64");
  const account = o.sim.createAccount({ balanceSun: 1e15 });
  const service = createServiceClient({ baseUrl: o.sim.baseUrl, logger });
  const orderIds: string[] = [];
  try {
    for (let at = 0; at < REAL_ORDERS; at += 100) {
      const items = Array.from({ length: 100 }, () => ({
        toAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu",
        amount: 65_000,
        resource: "ENERGY" as const,
        durationSec: 3_600,
      }));
      const { orders } = await service.createOrders(account.apiKey, items, `bench-${o.prefix}-${at}`);
      orderIds.push(...orders.map((x) => x.orderId));
    }
  } finally {
    await service.close();
  }
  const storePrefix = redis ? o.prefix : "";
  const seeding = await openStore(storeUrl, { logger, purgeIntervalMs: 0, prefix: storePrefix });
  let routeId: string;
  try {
    const chats = createChatRepository({ store: seeding, vault: createVault({ key: parseEncryptionKey(encryptionKey) }), logger });
    routeId = (await chats.link(CHAT, { apiKey: account.apiKey, webhookSecret: account.webhookSecret, depositAddress: null })).routeId!;
  } finally {
    await seeding.close();
  }
  const tg = await startFakeTelegram();
  const app = await createApp({
    config: parseConfig({
      BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      SERVICE_BASE_URL: o.sim.baseUrl,
      SERVICE_HEADER_PREFIX: o.headerPrefix,
      ENCRYPTION_KEY: encryptionKey,
      STORAGE_URL: storeUrl,
      ...(redis ? { STORAGE_PREFIX: o.prefix } : {}),
      HTTP_PORT: "0",
      HTTP_HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    }),
    logger,
    overrides: { botInfo: tg.botInfo },
  });
  await app.start();
  let acked = 0;
  let processed = 0;
  // Deliveries done with, whatever the outcome (the inbox counts each once).
  const count = async () => {
    let n = 0;
    for (const outcome of ["processed", "dropped", "failed"]) n += await app.metrics.get("webhooks_total", { outcome });
    processed = n;
  };
  const poll = setInterval(() => void count(), 20);
  return {
    origin: `http://127.0.0.1:${app.httpPort}`,
    path: `/hooks/${routeId}`,
    secret: account.webhookSecret,
    orderIds,
    acked: (n) => void (acked += n),
    processed: () => processed,
    backlog: () => acked - processed,
    held: () => Promise.resolve(acked - processed),
    heldUnit: "deliveries not yet processed",
    async drained(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      await count();
      while (processed < acked) {
        if (Date.now() > deadline) throw new Error(`backlog of ${acked - processed} not drained in ${timeoutMs} ms`);
        await sleep(20);
        await count();
      }
    },
    async stop() {
      clearInterval(poll);
      await app.stop();
      await tg.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The route, store and inbox, with a handler that only counts. */
async function startCountingBot(o: BotOptions): Promise<BotTarget> {
  const [
    { createChatRepository },
    { withRouteCache },
    { createMetrics },
    { createServiceClient },
    { openStore },
    { createVault },
    { createWebhookInbox },
    { createHttpServer },
  ] = await Promise.all([
    load<typeof ChatRepository>(o.src, "shared/chats/chat-repository.js", "core/chats/chat-repository.js"),
    load<typeof RouteCache>(o.src, "shared/chats/route-cache.js", "core/chats/route-cache.js"),
    load<typeof MetricsModule>(o.src, "platform/metrics.js", "core/metrics.js"),
    load<typeof ServiceClient>(o.src, "platform/service/create-service-client.js", "core/service/create-service-client.js"),
    load<typeof OpenStore>(o.src, "platform/store/open-store.js", "core/store/open-store.js"),
    load<typeof Vault>(o.src, "shared/vault.js", "core/vault.js"),
    load<typeof WebhookInbox>(o.src, "shared/webhooks/create-webhook-inbox.js", "core/webhooks/create-webhook-inbox.js"),
    load<typeof HttpServer>(o.src, "server/index.js"),
  ]);
  const logger = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true }));
  const dir = mkdtempSync(join(tmpdir(), "bench-hook-load-"));
  const redis = o.kind === "redis";
  if (redis && !o.redisUrl) throw new Error("startBot: redis needs redisUrl");
  const storeUrl = redis ? o.redisUrl! : `sqlite://${join(dir, "bot.sqlite")}`;
  const store = await openStore(storeUrl, { logger, purgeIntervalMs: 0, prefix: o.prefix });
  const service = createServiceClient({ baseUrl: o.sim.baseUrl, logger });
  const metrics = createMetrics();
  const chats = withRouteCache(createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger }));
  let processed = 0;
  let acked = 0;
  const onEvent = () => {
    processed += 1;
    return Promise.resolve();
  };
  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    onEvent,
    ...(redis ? { queue: "bullmq" as const, redisUrl: o.redisUrl!, name: `${o.prefix}-webhook`, bullPrefix: `${o.prefix}_bull` } : { queue: "local" as const }),
  });
  const server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: o.headerPrefix },
    logger,
    metrics,
    store,
    service,
    chats,
    inbox,
  });
  const secret = randomBytes(24).toString("base64url");
  const record = await chats.link(CHAT, { apiKey: o.sim.createAccount().apiKey, webhookSecret: secret });
  await inbox.start();
  const { port } = await server.start();
  return {
    origin: `http://127.0.0.1:${port}`,
    path: `/hooks/${record.routeId!}`,
    secret,
    acked: (n) => void (acked += n),
    processed: () => processed,
    backlog: () => acked - processed,
    held: () => inbox.size(),
    heldUnit: redis ? "jobs" : "deliveries",
    async drained(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (processed < acked) {
        if (Date.now() > deadline) throw new Error(`backlog of ${acked - processed} not drained in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      await server.stop();
      await inbox.stop();
      await service.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deletes every key of the run (store and queues), which all contain `marker`. */
export async function cleanRedis(url: string, marker: string): Promise<void> {
  const { createClient } = await import("@keyv/redis");
  const client = createClient({ url });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `*${marker}*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}
