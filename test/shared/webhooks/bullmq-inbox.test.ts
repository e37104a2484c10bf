/**
 * The webhook inbox on BullMQ (Redis mode): deliveries accepted together are
 * one job, each delivery is processed once however many jobs carry it (the
 * first job to run claims its id), a held id is answered as a duplicate, a
 * queue holding its bound of pending jobs refuses deliveries as full, only
 * the failed deliveries of a job are tried again, and jobs of the earlier
 * one-delivery layout still run.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@keyv/redis";
import { createNodeRedisClient, Queue, type IRedisClient } from "bullmq";
import { pino } from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { toBullJobId } from "../../../src/platform/queue/bullmq-connection.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { inboxKey } from "../../../src/shared/webhooks/create-local-inbox.js";
import { createWebhookInbox } from "../../../src/shared/webhooks/create-webhook-inbox.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps, WebhookNotice } from "../../../src/shared/webhooks/types.js";
import { waitUntil } from "../../support/wait.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the BullMQ webhook inbox tests: TEST_REDIS_URL is not set");

const logger = pino({ level: "silent" });
/** BullMQ keeps its data in Redis; the store is only asked for its kind. */
const store = {
  kind: "redis",
  namespace: () => {
    throw new Error("unused");
  },
  ping: () => Promise.resolve(true),
  close: () => Promise.resolve(),
} as unknown as StoreBackend;

function item(deliveryId: string, orderId: string, chatId = 5): InboxItem {
  return { chatId, deliveryId, event: "order.created", body: JSON.stringify({ data: { order: { orderId } } }), verified: true, receivedAt: Date.now() };
}
const order = (n: number) => n.toString(16).padStart(24, "0");

describe.skipIf(!REDIS_URL)("webhook inbox on BullMQ (TEST_REDIS_URL)", () => {
  const names: string[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  const redis = createClient({ url: REDIS_URL ?? "redis://unused" });

  afterEach(async () => {
    for (const stop of stoppers.splice(0)) await stop();
  });
  afterAll(async () => {
    if (!redis.isOpen) return;
    for (const name of names) {
      for await (const keys of redis.scanIterator({ MATCH: `bull:${name}:*`, COUNT: 500 })) {
        if (keys.length > 0) await redis.del(keys);
      }
    }
    await redis.close();
  });

  function newName(): string {
    const name = `hooks-${randomUUID()}`;
    names.push(name);
    return name;
  }

  function inbox(name: string, onEvent: WebhookInboxDeps["onEvent"], extra: Partial<WebhookInboxDeps> = {}): WebhookInbox {
    const i = createWebhookInbox({ store, logger, queue: "bullmq", redisUrl: REDIS_URL!, name, onEvent, baseDelayMs: 10, ...extra });
    stoppers.push(() => i.stop());
    return i;
  }

  /** BullMQ's one wrapper of the client: wrapped anew per queue, each wrapper would stay on the client's events. */
  let bullView: IRedisClient | undefined;

  /** BullMQ's own view of the queue. */
  async function withQueue<T>(name: string, use: (q: Queue) => Promise<T>): Promise<T> {
    if (!redis.isOpen) await redis.connect();
    bullView ??= createNodeRedisClient(redis);
    const q = new Queue(name, { connection: bullView });
    try {
      return await use(q);
    } finally {
      await q.close();
    }
  }

  it("processes a delivery once however many processes stored it, and answers it as a duplicate once a job holds it", async () => {
    const name = newName();
    const seen: WebhookNotice[] = [];
    const onEvent = (n: WebhookNotice) => Promise.resolve(void seen.push(n));
    const [a, b] = [inbox(name, onEvent), inbox(name, onEvent)];
    const delivery = item("dup-1", order(1));
    // Nothing has run yet: each process stores its copy (a's two in one group, the second a duplicate of the first).
    expect(await Promise.all([a.accept(delivery), b.accept(delivery), a.accept(delivery)])).toEqual(["accepted", "accepted", "duplicate"]);
    await a.start();
    await b.start();
    await waitUntil(async () => (await a.size()) === 0 && seen.length >= 1);
    expect(await b.accept(delivery)).toBe("duplicate");
    await waitUntil(async () => (await a.size()) === 0);
    expect(seen.map((n) => n.id)).toEqual([order(1)]);
  });

  it("stores deliveries accepted together as one job, and processes each of them", async () => {
    const name = newName();
    const seen: string[] = [];
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)));
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => i.accept(item(`together-${String(n)}`, order(n)))));
    expect(results).toEqual(Array(5).fill("accepted"));
    const waiting = await withQueue(name, (q) => q.getWaiting());
    expect(waiting).toHaveLength(1);
    expect((waiting[0]!.data as { items: InboxItem[] }).items.map((x) => x.deliveryId)).toEqual([1, 2, 3, 4, 5].map((n) => `together-${String(n)}`));
    await i.start();
    await waitUntil(() => seen.length === 5);
    expect(seen.toSorted()).toEqual([1, 2, 3, 4, 5].map(order));
    // Done jobs are removed at once: the claims, not the jobs, remember the delivery ids.
    await waitUntil(() => withQueue(name, async (q) => (await q.getJobCounts("completed"))["completed"] === 0 && (await q.count()) === 0));
  });

  it("refuses deliveries as full, adding no job, once the jobs pending over every process reach the bound, and takes them once they are done", async () => {
    const name = newName();
    const seen: string[] = [];
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)), { maxPendingJobs: 2 });
    // Left by other processes: the bound counts every job of the queue, not this process's.
    await withQueue(name, (q) => Promise.all([1, 2, 3].map((n) => q.add("webhooks", { items: [item(`other-${String(n)}`, order(20 + n))] }))));
    // The count is read beside the first group's add: that group is not refused yet.
    expect(await i.accept(item("first", order(30)))).toBe("accepted");
    const refused = item("refused", order(31));
    expect(await i.accept(refused)).toBe("full");
    expect(await i.accept(item("refused too", order(32)))).toBe("full");
    expect(await withQueue(name, (q) => q.count())).toBe(4);
    await i.start();
    await waitUntil(() => seen.length === 4);
    // The service's retry of a refused delivery goes through once the queue has room.
    await waitUntil(async () => (await i.accept(refused)) === "accepted", { what: "the retry accepted" });
    await waitUntil(() => seen.length === 5);
    expect(seen.toSorted()).toEqual([21, 22, 23, 30, 31].map(order));
  });

  it("processes a delivery sent twice within one group once, and answers the second as a duplicate", async () => {
    const name = newName();
    const seen: string[] = [];
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)));
    const twice = item("twice", order(7));
    expect(await Promise.all([i.accept(twice), i.accept(twice)])).toEqual(["accepted", "duplicate"]);
    await i.start();
    await waitUntil(async () => seen.length === 1 && (await i.size()) === 0);
    expect(seen).toEqual([order(7)]);
  });

  it("processes a job stored by a process that died before answering, once, and takes the service's retry for a duplicate", async () => {
    const name = newName();
    const seen: string[] = [];
    const orphan = item("orphan-1", order(9));
    // What a process leaves when it dies right after storing the job: the job alone.
    await withQueue(name, (q) => q.add("webhooks", { items: [orphan] }, { jobId: "w_orphan" }));
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)));
    await i.start();
    await waitUntil(async () => seen.length === 1 && (await i.size()) === 0);
    expect(await i.accept(orphan)).toBe("duplicate");
    expect(await redis.get(`bull:${name}:seen:${inboxKey(orphan.chatId, orphan.deliveryId)}`)).toBe("w_orphan");
  });

  it("skips, when a job runs, its copy of a delivery another job claimed", async () => {
    const name = newName();
    const seen: string[] = [];
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)));
    const delivery = item("claimed-elsewhere", order(10));
    expect(await i.accept(delivery)).toBe("accepted");
    // A second job holding the same delivery, as a retry stored by a process that died before its claims would leave.
    await withQueue(name, (q) => q.add("webhooks", { items: [delivery, item("fresh", order(11))] }, { jobId: "w_second" }));
    await i.start();
    await waitUntil(async () => seen.length === 2 && (await i.size()) === 0);
    expect(seen.toSorted()).toEqual([order(10), order(11)]);
  });

  it("tries again only the deliveries of a job that failed", async () => {
    const name = newName();
    const calls: string[] = [];
    let failuresLeft = 2;
    const i = inbox(name, (n) => {
      calls.push(n.id);
      if (n.id === order(22) && failuresLeft > 0) {
        failuresLeft -= 1;
        return Promise.reject(new Error("service down"));
      }
      return Promise.resolve();
    });
    await Promise.all([21, 22, 23].map((n) => i.accept(item(`partly-${String(n)}`, order(n)))));
    await i.start();
    await waitUntil(async () => calls.filter((id) => id === order(22)).length === 3 && (await i.size()) === 0);
    expect(calls.filter((id) => id === order(21))).toHaveLength(1);
    expect(calls.filter((id) => id === order(23))).toHaveLength(1);
    expect(await withQueue(name, (q) => q.getJobCounts("failed"))).toEqual({ failed: 0 });
  });

  it("gives a failing delivery up after its attempts, keeping the failed job for a day", async () => {
    const name = newName();
    const i = inbox(name, () => Promise.reject(new Error("service down")), { maxAttempts: 2 });
    await i.accept(item("hopeless", order(30)));
    await i.start();
    await waitUntil(() => withQueue(name, async (q) => (await q.getJobCounts("failed"))["failed"] === 1));
    const [failed] = await withQueue(name, (q) => q.getFailed());
    expect(failed!.attemptsMade).toBe(2);
    // Kept to be looked at, then removed by BullMQ: a day, in seconds.
    expect(failed!.opts.removeOnFail).toEqual({ age: 86_400 });
  });

  it("still processes a job of the earlier layout, one delivery whose id was claimed before it was added", async () => {
    const name = newName();
    const seen: string[] = [];
    const earlier = item("earlier-1", order(40));
    const key = inboxKey(earlier.chatId, earlier.deliveryId);
    if (!redis.isOpen) await redis.connect();
    await redis.set(`bull:${name}:seen:${key}`, String(earlier.receivedAt), { expiration: { type: "PX", value: 60_000 } });
    await withQueue(name, (q) => q.add("webhook", earlier, { jobId: toBullJobId(key) }));
    const i = inbox(name, (n) => Promise.resolve(void seen.push(n.id)));
    await i.start();
    await waitUntil(async () => seen.length === 1 && (await i.size()) === 0);
    expect(seen).toEqual([order(40)]);
    expect(await i.accept(earlier)).toBe("duplicate");
  });

  it("does not remember a delivery that could not be stored, so the service's retry goes through", async () => {
    const name = newName();
    const i = inbox(name, () => Promise.resolve());
    const delivery = item("unstorable-1", order(50), 6);
    // A BigInt (smuggled past the types) cannot be serialized: BullMQ refuses to add the job.
    await expect(i.accept({ ...delivery, body: { n: 1n } as unknown as string })).rejects.toThrow();
    expect(await i.accept(delivery)).toBe("accepted");
  });
});
