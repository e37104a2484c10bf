/**
 * A captured signed webhook sent again under fresh delivery ids, while its
 * signature is still inside the 300 s tolerance: acknowledged every time (2xx,
 * so the service has nothing to retry) and processed once, one re-read with
 * the chat's key, on SQLite and Postgres (local inbox) and across two app
 * instances on one Redis (BullMQ inbox).
 */
import { randomUUID } from "node:crypto";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import type { App } from "../../src/app.js";
import { createBullmqConnection } from "../../src/platform/queue/bullmq-connection.js";
import { signatureHeader } from "../../testkit/simulator/index.js";
import { postgresTarget, redisTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../app-harness.js";
import { createOrder, linkChat, postHook, reReads, settle, startHarness, type Harness } from "./harness.js";

const POSTGRES_URL = process.env["TEST_POSTGRES_URL"];
const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!POSTGRES_URL) console.log("skipping the webhook replay test on Postgres: TEST_POSTGRES_URL is not set");
if (!REDIS_URL) console.log("skipping the webhook replay test on two instances over Redis: TEST_REDIS_URL is not set");

/** Far above the bursts here: what is under test is the deduplication, not the route's rate limit. */
const UNLIMITED = { global: { burst: 10_000, perSecond: 10_000 }, perRoute: { burst: 10_000, perSecond: 10_000 } };
const REPLAYS = 200;

const backends: [string, () => StoreTarget | undefined][] = [
  ["SQLite", () => undefined],
  ["Postgres", () => (POSTGRES_URL ? postgresTarget(POSTGRES_URL) : undefined)],
];

describe.each(backends)("a replayed signed webhook on %s", (backend, target) => {
  let h: Harness | undefined;
  let store: StoreTarget | undefined;
  afterEach(async () => {
    await h?.close();
    await store?.cleanup();
    h = undefined;
    store = undefined;
  });

  it.skipIf(backend === "Postgres" && !POSTGRES_URL)("is processed once and acknowledged each time, sent one after the other and all at once", async () => {
    store = target();
    h = await startHarness({ hooksRateLimits: UNLIMITED, ...(store ? { storageUrl: store.url } : {}) });
    const link = await linkChat(h, 7301);
    const orderId = await createOrder(h, link.apiKey);
    const body = JSON.stringify({ event: "order.created", data: { order: { orderId } } });
    const t = Math.floor(Date.now() / 1000);
    const captured = { secret: link.webhookSecret, t, event: "order.created" };

    // A burst before the first copy is processed, then replays after it was.
    const burst = await Promise.all(Array.from({ length: 50 }, () => postHook(h!, link.routeId, body, captured)));
    expect(burst.filter((r) => r.status === 202)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 200)).toHaveLength(49);
    await settle(h);
    for (let i = 0; i < REPLAYS; i++) {
      const replay = await postHook(h, link.routeId, body, captured);
      expect(replay.status).toBe(200);
      expect(replay.body).toContain("duplicate");
    }
    await settle(h);
    expect(reReads(h, orderId)).toBe(1);

    // Other signed content (a later event about the same order) is still processed.
    const later = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId } } });
    expect((await postHook(h, link.routeId, later, { ...captured, event: "order.fulfilled" })).status).toBe(202);
    await settle(h);
    expect(reReads(h, orderId)).toBe(2);
  });
});

describe.skipIf(!REDIS_URL)("a replayed signed webhook across two app instances on one Redis (TEST_REDIS_URL)", () => {
  const CHAT = 7311;
  let target: StoreTarget | undefined;
  let w: AppWorld;
  let a: App;
  let b: App;

  beforeAll(async () => {
    target = await redisTarget(REDIS_URL!);
    w = await startAppWorld();
    a = await w.startApp(target);
    b = await w.startApp(target, { BOT_MODE: "worker" });
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
  }, 60_000);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("is processed once by the two together and acknowledged by each every time", async () => {
    const routeId = await w.routeIdOf(CHAT);
    w.sim.control.pauseLifecycles(true);
    const orderId = await w.orderBehindTheBotsBack(`replay-${randomUUID()}`);
    // Finished before the first copy arrives: its one re-read ends the tracking, so any later GET would be a replay's.
    w.sim.control.setOrderStatus(orderId, "fulfilled");
    const reads = () => w.sim.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/${orderId}`)).length;
    const body = JSON.stringify({ event: "order.fulfilled", data: { order: { orderId } } });
    const signature = signatureHeader(w.demo.webhookSecret, Math.floor(Date.now() / 1000), body);
    const post = async (app: App) => {
      const res = await request(`http://127.0.0.1:${app.httpPort}/hooks/${routeId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-service-event": "order.fulfilled",
          "x-service-delivery-id": randomUUID(),
          "x-service-signature": signature,
        },
        body,
      });
      await res.body.text();
      return res.statusCode;
    };

    // Both instances at once (their jobs may run before either claim exists), then one after the other; under the route's burst of 60 each.
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? a : b)));
    for (let i = 0; i < 40; i++) statuses.push(await post(i % 2 === 0 ? b : a));
    expect(statuses.every((s) => s === 200 || s === 202)).toBe(true);
    const accepted = (await a.metrics.get("webhooks_total", { outcome: "accepted" })) + (await b.metrics.get("webhooks_total", { outcome: "accepted" }));
    expect(accepted).toBe(statuses.filter((s) => s === 202).length);
    await waitFor(async () => pending(await queueCounts(target!)) === 0, "the inbox's jobs done");
    expect(reads()).toBe(1);
    // The notice leaves through the push queue after the inbox's job that enqueued it is done.
    const fulfilled = () => w.botTexts(CHAT, new RegExp(`Order ${orderId} is fulfilled`));
    await waitFor(() => fulfilled().length > 0, "the fulfilled notice");
    expect(fulfilled()).toHaveLength(1);
    w.sim.control.pauseLifecycles(false);
  });
});

const quiet = pino({ level: "silent" });

async function queueCounts(target: StoreTarget): Promise<Record<string, number>> {
  const bull = createBullmqConnection({ name: "webhook", redisUrl: target.url, logger: quiet, prefix: `${target.prefix!}/bull` });
  try {
    return await (await bull.queue()).getJobCounts("waiting", "delayed", "active", "prioritized");
  } finally {
    await bull.close();
  }
}

const pending = (c: Record<string, number>) => (c["waiting"] ?? 0) + (c["delayed"] ?? 0) + (c["active"] ?? 0) + (c["prioritized"] ?? 0);
