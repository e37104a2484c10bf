/**
 * The bot's webhook path as bench/webhook-load.ts measures it: the real HTTP
 * server with its SQLite store and local inbox, or its Redis store and BullMQ
 * inbox, a linked chat with a webhook secret, and a count of the deliveries
 * processed. Built from this checkout's sources or from another copy of them
 * (`src`, the directory holding `core/` and `server/`), so a baseline runs in
 * the same process and rounds. Logs go, at the app's default level (info),
 * to /dev/null: every line the route writes at that level is part of the cost.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pino } from "pino";
import type * as ChatRepository from "../src/core/chats/chat-repository.js";
import type * as RouteCache from "../src/core/chats/route-cache.js";
import type * as MetricsModule from "../src/core/metrics.js";
import type * as ServiceClient from "../src/core/service/create-service-client.js";
import type * as OpenStore from "../src/core/store/open-store.js";
import type * as Vault from "../src/core/vault.js";
import type * as WebhookInbox from "../src/core/webhooks/create-webhook-inbox.js";
import type * as HttpServer from "../src/server/index.js";
import type { startSimulator } from "../src/simulator/index.js";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
/** The route's rate limits lifted: the figures are the acknowledgement's, not the limiter's. */
export const UNLIMITED = { burst: 1_000_000, perSecond: 1_000_000 };
const CHAT = 777;

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
  heldUnit: "deliveries" | "jobs";
  /** Resolves once every acknowledged delivery is processed (throws after `timeoutMs`). */
  drained(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const built = new Set<string>();

/**
 * A module of a source tree as production runs it: compiled into its dist/ by its own build (tsx's transform of src/
 * names every function it creates at run time, a cost the compiled code does not have).
 */
async function load<T>(src: string | undefined, path: string): Promise<T> {
  const tree = src === undefined ? fileURLToPath(new URL("..", import.meta.url)) : resolve(src, "..");
  if (!built.has(tree)) {
    execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: tree, stdio: "ignore" });
    built.add(tree);
  }
  return (await import(pathToFileURL(join(tree, "dist", path)).href)) as T;
}

export async function startBot(o: {
  sim: Sim;
  kind: "sqlite" | "redis";
  redisUrl?: string | undefined;
  src?: string | undefined;
  prefix: string;
  headerPrefix: string;
}): Promise<BotTarget> {
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
    load<typeof ChatRepository>(o.src, "core/chats/chat-repository.js"),
    load<typeof RouteCache>(o.src, "core/chats/route-cache.js"),
    load<typeof MetricsModule>(o.src, "core/metrics.js"),
    load<typeof ServiceClient>(o.src, "core/service/create-service-client.js"),
    load<typeof OpenStore>(o.src, "core/store/open-store.js"),
    load<typeof Vault>(o.src, "core/vault.js"),
    load<typeof WebhookInbox>(o.src, "core/webhooks/create-webhook-inbox.js"),
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
    hooksRateLimits: { global: UNLIMITED, perRoute: UNLIMITED },
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
