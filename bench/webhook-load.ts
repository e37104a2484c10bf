/**
 * Goal 1 of the performance issue: signed webhooks offered at 3,000/s (open
 * loop) and as fast as 16 connections go (closed loop), on the bot's real
 * POST /hooks/:routeId (SQLite store, route cache, inbox, workers) next to a
 * bare node:http server that only verifies the same HMAC, in the same run.
 * The load comes from a worker thread; the servers share the main thread as
 * the bot's server shares its process. The per-route and global rate limits
 * are lifted: they would answer 429 long before 3,000/s.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { pino } from "pino";
import { createChatRepository } from "../src/core/chats/chat-repository.js";
import { withRouteCache } from "../src/core/chats/route-cache.js";
import { createMetrics } from "../src/core/metrics.js";
import { createServiceClient } from "../src/core/service/create-service-client.js";
import { openStore } from "../src/core/store/open-store.js";
import { createVault } from "../src/core/vault.js";
import { createWebhookInbox } from "../src/core/webhooks/create-webhook-inbox.js";
import { createHttpServer } from "../src/server/index.js";
import { verifySignature } from "../src/server/signature.js";
import { signatureHeader, startSimulator } from "../src/simulator/index.js";
import type { LoadJob, LoadRequest, LoadResult } from "./load-worker.js";

const PREFIX = "X-Service";
const CHAT = 777;
const UNLIMITED = { burst: 1_000_000, perSecond: 1_000_000 };

export interface WebhookLoadOptions {
  rounds: number;
  rate: number;
  openSeconds: number;
  closedSeconds: number;
  connections: number;
}

function load(origin: string, requests: LoadRequest[], mode: "open" | "closed", o: WebhookLoadOptions): Promise<LoadResult> {
  const job: LoadJob = { origin, requests, mode, rate: o.rate, connections: mode === "open" ? 256 : o.connections, durationMs: o.closedSeconds * 1000, timeoutMs: 60_000 };
  // A worker's entry file is loaded before any --import hook runs: register tsx first, then import the TypeScript file.
  const entry = JSON.stringify(new URL("./load-worker.ts", import.meta.url).href);
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${entry}); });`;
  const worker = new Worker(boot, { eval: true, workerData: job });
  return new Promise((resolve, reject) => {
    worker.once("message", (r: LoadResult) => resolve(r));
    worker.once("error", reject);
  });
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(xs: number[]): number {
  return quantile([...xs].sort((a, b) => a - b), 0.5);
}

function spread(xs: number[], digits = 1): string {
  return `median ${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
}

function startBareVerifier(secret: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const header = req.headers[`${PREFIX.toLowerCase()}-signature`];
      const check = verifySignature({ secret, header: typeof header === "string" ? header : undefined, rawBody: new Uint8Array(Buffer.concat(chunks)), nowMs: Date.now() });
      res.writeHead(check.ok ? 202 : 401, { "content-type": "application/json" }).end(check.ok ? '{"status":"accepted"}' : '{"error":"unauthorized"}');
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export async function benchWebhookLoad(o: WebhookLoadOptions): Promise<void> {
  const logger = pino({ level: "silent" });
  const dir = mkdtempSync(join(tmpdir(), "bench-hook-load-"));
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  const service = createServiceClient({ baseUrl: sim.baseUrl, logger });
  const metrics = createMetrics();
  const chats = withRouteCache(createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger }));
  const inbox = createWebhookInbox({ store, logger, metrics, queue: "local", onEvent: () => Promise.resolve() });
  const server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: PREFIX },
    logger, metrics, store, service, chats, inbox,
    hooksRateLimits: { global: UNLIMITED, perRoute: UNLIMITED },
  });
  const secret = randomBytes(24).toString("base64url");
  const record = await chats.link(CHAT, { apiKey: sim.createAccount().apiKey, webhookSecret: secret });
  await inbox.start();
  const { port } = await server.start();
  const bare = await startBareVerifier(secret);
  const bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const botOrigin = `http://127.0.0.1:${port}`;
  const path = `/hooks/${record.routeId!}`;
  let seq = 0;
  const run = randomBytes(4).toString("hex");
  const requests = (n: number): LoadRequest[] =>
    Array.from({ length: n }, () => {
      seq += 1;
      const body = JSON.stringify({ id: `evt_${run}_${seq}`, event: "order.created", data: { order: { id: randomBytes(12).toString("hex"), status: "pending" } } });
      const headers = {
        "content-type": "application/json",
        [`${PREFIX}-Event`]: "order.created",
        [`${PREFIX}-Delivery-Id`]: `dlv_${run}_${seq}`,
        [`${PREFIX}-Signature`]: signatureHeader(secret, Math.floor(Date.now() / 1000), body),
      };
      return { path, body, headers };
    });
  async function drained(): Promise<number> {
    const t0 = performance.now();
    const before = await inbox.size();
    while ((await inbox.size()) > 0) await new Promise((r) => setTimeout(r, 100));
    const s = (performance.now() - t0) / 1000;
    return before === 0 ? Number.NaN : before / Math.max(s, 0.1);
  }

  const figures = { bareP50: [] as number[], bareP99: [] as number[], bareRate: [] as number[], botP50: [] as number[], botP99: [] as number[], botRate: [] as number[], botAcked: [] as number[], bareClosed: [] as number[], botClosed: [] as number[], drain: [] as number[] };
  const offered = o.rate * o.openSeconds;
  try {
    for (let round = 1; round <= o.rounds; round += 1) {
      for (const [who, origin] of [["bare", bareOrigin], ["bot", botOrigin]] as const) {
        const r = await load(origin, requests(offered), "open", o);
        const sorted = r.latencies.sort((a, b) => a - b);
        figures[`${who}P50`].push(quantile(sorted, 0.5));
        figures[`${who}P99`].push(quantile(sorted, 0.99));
        figures[`${who}Rate`].push(r.latencies.length / (r.elapsedMs / 1000));
        if (who === "bot") figures.botAcked.push(r.latencies.length);
        console.log(`webhooks round ${round} open ${o.rate}/s ${who}: ${r.latencies.length}/${offered} acknowledged, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, statuses ${JSON.stringify(r.statuses)}`);
      }
      const drain = await drained();
      figures.drain.push(drain);
      for (const [who, origin, n] of [["bare", bareOrigin, 150_000], ["bot", botOrigin, 40_000]] as const) {
        const r = await load(origin, requests(n), "closed", o);
        const rate = (r.done ?? 0) / (r.elapsedMs / 1000);
        figures[`${who}Closed`].push(rate);
        console.log(`webhooks round ${round} closed ${o.connections} conns ${who}: ${rate.toFixed(0)}/s, statuses ${JSON.stringify(r.statuses)}`);
      }
      await drained();
    }
  } finally {
    await server.stop();
    await inbox.stop();
    await new Promise((r) => bare.close(r));
    await service.close();
    await store.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const ratios = figures.botClosed.map((b, i) => b / figures.bareClosed[i]!);
  const allAcked = figures.botAcked.every((n) => n === offered);
  const p99Ok = median(figures.botP99) < 25;
  console.log("");
  console.log(`webhook acknowledgement, ${o.rounds} rounds, SQLite, median (min–max):`);
  console.log(`  open ${o.rate}/s for ${o.openSeconds} s  bare verifier: p50 ${spread(figures.bareP50)} ms, p99 ${spread(figures.bareP99)} ms, acknowledged ${spread(figures.bareRate, 0)}/s`);
  console.log(`  open ${o.rate}/s for ${o.openSeconds} s  bot /hooks:    p50 ${spread(figures.botP50)} ms, p99 ${spread(figures.botP99)} ms, acknowledged ${spread(figures.botRate, 0)}/s`);
  console.log(`  closed loop ${o.connections} conns     bare ${spread(figures.bareClosed, 0)}/s, bot ${spread(figures.botClosed, 0)}/s, bot/bare ${spread(ratios, 3)}`);
  const drains = figures.drain.filter((d) => !Number.isNaN(d));
  console.log(`  backlog after each burst: ${drains.length === 0 ? "none left when the burst ended (processing kept up)" : `drained at ${spread(drains, 0)}/s`}`);
  console.log(`  goal 1 (all acknowledged, p99 < 25 ms at ${o.rate}/s): ${allAcked && p99Ok ? "PASS" : "FALLS SHORT"}`);
  console.log(`  goal 1 (closed loop >= 0.25 of bare): ${median(ratios) >= 0.25 ? "PASS" : "FALLS SHORT"} (${median(ratios).toFixed(3)})`);
}
