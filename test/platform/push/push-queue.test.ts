import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMetrics } from "../../../src/platform/metrics.js";
import { createPushQueue } from "../../../src/platform/push/create-push-queue.js";
import { REAL_CLOCK, type PushClock, type PushJob, type PushQueue } from "../../../src/platform/push/types.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "../../support/wait.js";
import { deliverAcrossRestart } from "./deliver-across-restart.js";

const logger = pino({ level: "silent" });
/** Faster than Telegram so the suite stays short; the shape of the limits is the same. */
const TEST_LIMITS = { globalPerSecond: 300, perChatPerSecond: 1, perGroupPerMinute: 20, marginMs: 40 };
const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 4 };

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 40_000): Promise<void> {
  await waitUntil(check, { timeoutMs });
}

function message(id: string, chatId: number): PushJob {
  return { id, chatId, method: "sendMessage", params: { chat_id: chatId, text: `note ${id}` } };
}

describe("push queue over SQLite and the fake Bot API", () => {
  let dir: string;
  let tg: FakeTelegram;
  let api: Api;
  let store: StoreBackend;
  const queues: PushQueue[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "push-"));
    tg = await startFakeTelegram({ rateLimits: TEST_LIMITS });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  });

  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function newQueue(extra: Partial<Parameters<typeof createPushQueue>[0]> = {}): PushQueue {
    const q = createPushQueue({
      store,
      logger,
      transport: (job) => api.raw[job.method](job.params as never),
      limits: TEST_LIMITS,
      retry: FAST_RETRY,
      ...extra,
    });
    queues.push(q);
    return q;
  }

  const delivered = () =>
    tg
      .callsOf("sendMessage")
      .filter((c) => c.ok)
      .map((c) => String(c.params["text"]));
  const rateLimited = () => tg.calls.filter((c) => c.errorCode === 429);

  // 2,000 notifications to 500 chats is the slow suite's (push-queue.slow.test.ts).
  it("delivers 200 notifications to 50 chats exactly once within Telegram's limits, across a restart", async () => {
    await deliverAcrossRestart(50);
  });

  it("retries a job that was in flight when the process died, and never resends a delivered one", async () => {
    tg.addChat(31);
    let release!: () => void;
    const hanging = new Promise<void>((r) => (release = r));
    let calls = 0;
    // The first process sends "done" and dies while "inflight" is on the wire.
    const dying = newQueue({
      transport: async (job) => {
        calls += 1;
        if (job.id === "inflight") await hanging;
        return api.raw[job.method](job.params as never);
      },
      limits: { ...TEST_LIMITS, perChatPerSecond: 100 },
    });
    await dying.start();
    await dying.enqueue(message("done", 31));
    await dying.enqueue(message("inflight", 31));
    await until(() => calls === 2);
    // A new process over the same store (the dead one never finished or cleaned up).
    const next = newQueue();
    await next.start();
    await until(() => delivered().includes("note inflight"));
    expect(delivered().filter((t) => t === "note done")).toHaveLength(1);
    release();
  });

  it("honours retry_after: the chat waits as told and no second 429 follows", async () => {
    tg.addChat(42);
    // Someone else (a direct reply) used this second's allowance.
    await api.sendMessage(42, "reply to a command");
    const q = newQueue();
    await q.start();
    await q.enqueue(message("a", 42));
    await q.enqueue(message("b", 42));
    await until(() => delivered().filter((t) => t.startsWith("note")).length === 2);
    expect(rateLimited()).toHaveLength(1);
    expect(tg.botMessages(42).map((m) => m.text)).toEqual(["reply to a command", "note a", "note b"]);
  });

  it("retries transient failures with backoff and counts them", async () => {
    tg.addChat(7);
    let failures = 2;
    const metrics = createMetrics();
    const q = newQueue({
      metrics,
      transport: async (job) => {
        if (failures-- > 0) throw Object.assign(new Error("Internal"), { error_code: 502, description: "Bad Gateway" });
        return api.raw[job.method](job.params as never);
      },
    });
    await q.start();
    await q.enqueue(message("x", 7));
    // The queue counts a send after Telegram answered: wait for the count, not for the chat.
    await until(async () => (await metrics.get("notifications_total", { outcome: "sent" })) >= 1);
    expect(delivered()).toHaveLength(1);
    expect(await metrics.get("notifications_total", { outcome: "retried" })).toBe(2);
    expect(await metrics.get("notifications_total", { outcome: "sent" })).toBe(1);
  });

  it('drops a permanent 400 but counts "message is not modified" as delivered', async () => {
    tg.addChat(8);
    const sent = (await api.sendMessage(8, "card")) as { message_id: number };
    const metrics = createMetrics();
    const q = newQueue({ metrics });
    await q.start();
    await q.enqueue({ id: "same", chatId: 8, method: "editMessageText", params: { chat_id: 8, message_id: sent.message_id, text: "card" } });
    await q.enqueue({ id: "gone", chatId: 8, method: "editMessageText", params: { chat_id: 8, message_id: 999, text: "x" } });
    await q.enqueue(message("after", 8));
    const counted = async () =>
      (await metrics.get("notifications_total", { outcome: "sent" })) + (await metrics.get("notifications_total", { outcome: "failed" }));
    await until(async () => (await q.size()) === 0 && (await counted()) >= 3);
    expect(await metrics.get("notifications_total", { outcome: "sent" })).toBe(2);
    expect(await metrics.get("notifications_total", { outcome: "failed" })).toBe(1);
    expect(tg.botMessages(8).map((m) => m.text)).toEqual(["card", "note after"]);
  });

  it("on 403 reports the chat unreachable once and drops its pending jobs", async () => {
    tg.addChat(9);
    tg.addChat(10);
    tg.blockChat(9);
    const unreachable: number[] = [];
    const q = newQueue({ onChatUnreachable: (id) => void unreachable.push(id) });
    for (const n of [1, 2, 3]) await q.enqueue(message(`b${n}`, 9));
    await q.enqueue(message("ok", 10));
    await q.start();
    await until(async () => (await q.size()) === 0);
    expect(unreachable).toEqual([9]);
    expect(tg.callsOf("sendMessage").filter((c) => Number(c.params["chat_id"]) === 9)).toHaveLength(1);
    expect(tg.botMessages(10).map((m) => m.text)).toEqual(["note ok"]);
  });

  it("sends a job once when its id is queued again while its delivery is being recorded", async () => {
    const id = "again:1";
    const chatId = 901;
    tg.addChat(chatId);
    let secondEnqueue: Promise<void> | undefined;
    // The second enqueue's first read has answered (or the enqueue is done): the delivery's writes may go on.
    let firstReadDone!: () => void;
    const firstRead = new Promise<void>((resolve) => (firstReadDone = resolve));
    let jobDeleted!: () => void;
    const jobGone = new Promise<void>((resolve) => (jobDeleted = resolve));
    const inner = store;
    // The store as the queue sees it, with the two writes that record a delivery held at the worst moment for a
    // second enqueue of the same id: it starts between them, and its reads answer only after both writes landed.
    const racing: StoreBackend = Object.create(inner) as StoreBackend;
    racing.namespace = (name: string) => {
      const kv = inner.namespace(name);
      if (name === "push-delivered") {
        return Object.assign(Object.create(kv) as typeof kv, {
          get: async <T>(key: string) => {
            const value = await kv.get<T>(key);
            if (key === id && secondEnqueue) {
              firstReadDone();
              await jobGone;
            }
            return value;
          },
          set: async (key: string, value: unknown, ttlMs?: number) => {
            if (key === id && !secondEnqueue) {
              secondEnqueue = q.enqueue(message(id, chatId));
              await Promise.race([firstRead, secondEnqueue]);
            }
            return kv.set(key, value, ttlMs);
          },
        });
      }
      if (name === "push-jobs") {
        return Object.assign(Object.create(kv) as typeof kv, {
          get: async <T>(key: string) => {
            const value = await kv.get<T>(key);
            if (key === id && secondEnqueue) firstReadDone();
            return value;
          },
          delete: async (key: string) => {
            const deleted = await kv.delete(key);
            if (key === id) jobDeleted();
            return deleted;
          },
        });
      }
      return kv;
    };
    const q = newQueue({ store: racing });
    await q.start();
    await q.enqueue(message(id, chatId));
    await until(() => secondEnqueue !== undefined);
    await secondEnqueue;
    await until(async () => (await q.size()) === 0);
    expect(tg.callsOf("sendMessage").filter((c) => c.params["text"] === `note ${id}`)).toHaveLength(1);
  });

  it("sends a notice at once while a held refresh of the same chat waits for its hold", async () => {
    const chatId = 902;
    tg.addChat(chatId);
    // Held far longer than the wait below: the notice can only go first if its enqueue wakes the queue.
    const holdMs = 120_000;
    const wakes: number[] = [];
    const clock: PushClock = { now: () => REAL_CLOCK.now(), after: (ms, fn) => (wakes.push(ms), REAL_CLOCK.after(ms, fn)) };
    const q = newQueue({ refreshHoldMs: holdMs, clock });
    await q.start();
    await q.enqueue({ ...message("held:refresh", chatId), priority: "refresh" });
    // The queue has planned its next wake for the refresh's hold, and sleeps until then.
    await until(() => wakes.some((ms) => ms > holdMs / 2));
    await q.enqueue({ ...message("held:notice", chatId), priority: "notice" });
    const sentText = (id: string) => tg.callsOf("sendMessage").some((c) => c.ok && c.params["text"] === `note ${id}`);
    await until(() => sentText("held:notice"), 30_000);
    expect(sentText("held:refresh")).toBe(false);
  });

  it("resolves a second enqueue of an id only once the first has queued the job", async () => {
    const id = "twice:1";
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let storedNow = false;
    const inner = store;
    // The first enqueue's write of the job waits for the gate: the second enqueue comes while it is storing.
    const slowWrite: StoreBackend = Object.create(inner) as StoreBackend;
    slowWrite.namespace = (name: string) => {
      const kv = inner.namespace(name);
      if (name !== "push-jobs") return kv;
      return Object.assign(Object.create(kv) as typeof kv, {
        set: async (key: string, value: unknown, ttlMs?: number) => {
          if (key === id) await gate;
          await kv.set(key, value, ttlMs);
          if (key === id) storedNow = true;
        },
      });
    };
    const q = newQueue({ store: slowWrite });
    const first = q.enqueue(message(id, 903));
    const second = q.enqueue(message(id, 903));
    const storedWhenSecondResolved = second.then(() => storedNow);
    release();
    await first;
    expect(await storedWhenSecondResolved).toBe(true);
    expect(await q.size()).toBe(1);
  });
});
