/**
 * The README's promise "scales out on Redis", at the app level:
 * STORAGE_URL=redis://… puts the records in Redis and runs the push queue and
 * the webhook inbox on BullMQ. Each suite runs under a key prefix of its own
 * (STORAGE_PREFIX) in TEST_REDIS_URL's database, whose keys alone are deleted
 * afterwards, so concurrent runs never meet.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.js";
import { createBullmqConnection } from "../src/platform/queue/bullmq-connection.js";
import { redisTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";
import { appJourney } from "./app-journey.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the app-on-Redis tests: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");

const quiet = pino({ level: "silent" });

/** BullMQ's own view of one of the app's queues (shared by every process of the run's prefix). */
async function queueCounts(target: StoreTarget, name: "push" | "webhook"): Promise<Record<string, number>> {
  const bull = createBullmqConnection({ name, redisUrl: target.url, logger: quiet, prefix: `${target.prefix!}/bull` });
  try {
    return await (await bull.queue()).getJobCounts("completed", "failed", "waiting", "delayed", "active", "prioritized");
  } finally {
    await bull.close();
  }
}

const pending = (c: Record<string, number>) => (c["waiting"] ?? 0) + (c["delayed"] ?? 0) + (c["active"] ?? 0) + (c["prioritized"] ?? 0);

describe.skipIf(!REDIS_URL)("the whole app on Redis, queues on BullMQ (TEST_REDIS_URL)", () => {
  appJourney(() => redisTarget(REDIS_URL!), {
    queueState: async (target) => ({ push: await queueCounts(target, "push"), webhook: await queueCounts(target, "webhook") }),
    afterPushes: async (target) => {
      expect((await queueCounts(target, "push"))["completed"]).toBeGreaterThanOrEqual(2);
    },
    // The relayed order reached the chat, so its delivery was processed; a finished inbox job is removed at once.
    afterWebhook: async (target) => {
      const counts = await waitFor(async () => {
        const c = await queueCounts(target, "webhook");
        return pending(c) === 0 && c;
      }, "the inbox's jobs done");
      expect(counts).toMatchObject({ completed: 0, failed: 0 });
    },
  });
});

describe.skipIf(!REDIS_URL)("two app processes over one Redis: one polls Telegram, one is BOT_MODE=worker (TEST_REDIS_URL)", () => {
  const CHAT = 5151;
  let target: StoreTarget | undefined;
  let w: AppWorld;
  let a: App;
  let b: App;

  beforeAll(async () => {
    target = await redisTarget(REDIS_URL!);
    w = await startAppWorld();
    a = await w.startApp(target);
    b = await w.startApp(target, { BOT_MODE: "worker" });
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("only the polling instance takes Telegram intake", async () => {
    const linked = await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    expect(linked.text).toContain("TRX");
    expect(w.tg.callsOf("deleteWebhook")).toHaveLength(1);
    expect(w.tg.callsOf("setWebhook")).toHaveLength(0);
    const handledUpdates = /bot_updates_total\{[^}]*\} [1-9]/;
    // Counted once the handler has returned, a moment after the reply.
    await waitFor(async () => handledUpdates.test(await a.metrics.render()), "instance A counting the update");
    expect(await b.metrics.render()).not.toMatch(handledUpdates);
  });

  it("delivers a webhook posted to the worker instance to the chat exactly once", async () => {
    const routeId = await w.routeIdOf(CHAT);
    const hookUrl = `http://127.0.0.1:${b.httpPort}/hooks/${routeId}`;
    w.sim.setCallbackUrl(w.demo.apiKey, hookUrl);
    // Held unfinished until the chat is told: an order first seen already fulfilled gets only its final message.
    w.sim.control.pauseLifecycles(true);
    const orderId = await w.orderBehindTheBotsBack(`scale-out-${Date.now()}`);

    const seen = () => w.botTexts(CHAT, /^New on your account/).filter((t) => t.includes(orderId));
    const finals = () => w.botTexts(CHAT, new RegExp(`^✅ Order ${orderId} is fulfilled`));
    await waitFor(() => seen().length > 0, "the chat being told about the order");
    w.sim.control.pauseLifecycles(false);
    await waitFor(() => finals().length > 0, "the chat being told about its end");
    // Everything the service sent about this order was accepted by B, and both queues have drained.
    await waitFor(
      () => w.sim.webhookDeliveries.some((d) => d.event === "order.fulfilled" && d.body.includes(orderId) && d.status === 202),
      "the order.fulfilled delivery",
    );
    await waitFor(
      async () => pending(await queueCounts(target!, "webhook")) === 0 && pending(await queueCounts(target!, "push")) === 0,
      "both queues to drain",
    );

    const deliveries = w.sim.webhookDeliveries.filter((d) => d.body.includes(orderId));
    expect(deliveries.every((d) => d.url === hookUrl)).toBe(true);
    expect(await b.metrics.get("webhooks_total", { outcome: "accepted" })).toBeGreaterThanOrEqual(2);
    expect(await a.metrics.get("webhooks_total", { outcome: "accepted" })).toBe(0);
    expect(seen()).toHaveLength(1);
    expect(finals()).toHaveLength(1);
    const sends = w.tg.callsOf("sendMessage").filter((c) => c.ok && String(c.params["text"]).includes(orderId));
    expect(sends).toHaveLength(2);
    expect(w.logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
