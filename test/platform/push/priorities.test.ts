import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMetrics, type Metrics } from "../../../src/platform/metrics.js";
import { createPushQueue } from "../../../src/platform/push/create-push-queue.js";
import { TELEGRAM_LIMITS, type PushJob, type PushPriority, type PushQueue } from "../../../src/platform/push/types.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram, TELEGRAM_RATE_LIMITS, type FakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { createVirtualClock, type VirtualClock } from "../../support/virtual-clock.js";
import { waitUntil } from "../../support/wait.js";

const logger = pino({ level: "silent" });

/**
 * The local push queue over SQLite and the fake Bot API at Telegram's real limits, on a virtual
 * clock (time stands still while a send is on the wire): which job goes next, and edits of one
 * message replacing each other while they wait.
 */
describe("push queue priorities and replaced edits", () => {
  let dir: string;
  let clock: VirtualClock;
  let tg: FakeTelegram;
  let api: Api;
  let store: StoreBackend;
  const queues: PushQueue[] = [];

  const open = () => openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "push-prio-"));
    clock = createVirtualClock();
    // Limits come on once the cards the tests edit exist: they are made at one virtual instant.
    tg = await startFakeTelegram({ now: clock.now });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    store = await open();
  });

  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const toTelegram = (job: PushJob) => api.raw[job.method](job.params as never) as Promise<unknown>;

  function newQueue(metrics?: Metrics, transport = toTelegram): PushQueue {
    const q = createPushQueue({
      store,
      logger,
      clock,
      ...(metrics ? { metrics } : {}),
      limits: TELEGRAM_LIMITS,
      retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 4 },
      transport: (job: PushJob) => clock.hold(() => transport(job)),
    });
    queues.push(q);
    return q;
  }

  async function cardIn(chatId: number, text = "card"): Promise<number> {
    tg.addChat(chatId);
    return (await api.sendMessage(chatId, text)).message_id;
  }

  const note = (id: string, chatId: number, priority?: PushPriority): PushJob => ({
    id,
    chatId,
    method: "sendMessage",
    params: { chat_id: chatId, text: id },
    ...(priority ? { priority } : {}),
  });
  const edit = (id: string, chatId: number, messageId: number, priority: PushPriority = "refresh"): PushJob => ({
    id,
    chatId,
    method: "editMessageText",
    params: { chat_id: chatId, message_id: messageId, text: id },
    priority,
  });

  /** What reached the fake Bot API, in order: the text each successful call carried. */
  const sentTexts = (chatId?: number) =>
    tg.calls.filter((c) => c.ok && c.method !== "getMe" && (chatId === undefined || c.params["chat_id"] === chatId)).map((c) => String(c.params["text"]));
  const settled = async (q: PushQueue) => waitUntil(async () => (await q.size()) === 0, { timeoutMs: 60_000 });

  it("sends a chat's notice first, then its normal jobs, then its refreshes, each in enqueue order", async () => {
    const chat = 4101;
    const card = await cardIn(chat);
    tg.setRateLimits(TELEGRAM_RATE_LIMITS);
    const q = newQueue();
    await q.enqueue(edit("refresh-1", chat, card));
    await q.enqueue(note("normal-1", chat));
    await q.enqueue(note("notice-1", chat, "notice"));
    await q.enqueue(note("normal-2", chat, "normal"));
    await q.enqueue(note("notice-2", chat, "notice"));
    await q.start();
    await settled(q);
    expect(sentTexts(chat).slice(1)).toEqual(["notice-1", "notice-2", "normal-1", "normal-2", "refresh-1"]);
    expect(tg.failedCalls()).toEqual([]);
  });

  it("when the global budget is the limit, every chat's notice takes a slot before any chat's card refresh", async () => {
    // Twice the global budget of each: sent in enqueue order, the refreshes would fill the first two seconds.
    const refreshed = Array.from({ length: 60 }, (_, i) => 5_000 + i);
    const noticed = Array.from({ length: 60 }, (_, i) => 6_000 + i);
    const cards = new Map<number, number>();
    for (const chat of refreshed) cards.set(chat, await cardIn(chat));
    for (const chat of noticed) tg.addChat(chat);
    tg.setRateLimits(TELEGRAM_RATE_LIMITS);
    const q = newQueue();
    for (const chat of refreshed) await q.enqueue(edit(`refresh-${chat}`, chat, cards.get(chat)!));
    for (const chat of noticed) await q.enqueue(note(`notice-${chat}`, chat, "notice"));
    await q.start();
    await settled(q);
    const order = tg.calls.filter((c) => c.method === "sendMessage" || c.method === "editMessageText").slice(refreshed.length);
    expect(order.map((c) => c.method)).toEqual([...noticed.map(() => "sendMessage"), ...refreshed.map(() => "editMessageText")]);
    expect(tg.failedCalls()).toEqual([]);
  });

  it("keeps each job's priority across a restart", async () => {
    const chat = 4102;
    const card = await cardIn(chat);
    tg.setRateLimits(TELEGRAM_RATE_LIMITS);
    const first = newQueue();
    await first.enqueue(edit("refresh-1", chat, card));
    await first.enqueue(note("normal-1", chat));
    await first.enqueue(note("notice-1", chat, "notice"));
    await first.stop();
    await store.close();
    store = await open();
    const second = newQueue();
    await second.start();
    await settled(second);
    expect(sentTexts(chat).slice(1)).toEqual(["notice-1", "normal-1", "refresh-1"]);
  });

  it("a newer edit of a message replaces the one still waiting: only the latest state is sent, and the replaced id never goes", async () => {
    const chat = 4103;
    const card = await cardIn(chat);
    const other = await cardIn(chat, "other card");
    tg.setRateLimits(TELEGRAM_RATE_LIMITS);
    const metrics = createMetrics();
    const q = newQueue(metrics);
    await q.enqueue(edit("card-matching", chat, card));
    await q.enqueue(edit("other-matching", chat, other));
    await q.enqueue(note("notice", chat, "notice"));
    await q.enqueue(edit("card-fulfilled", chat, card));
    expect(await q.size()).toBe(3);
    // The replaced edit counts as delivered: queued again, it is ignored.
    await q.enqueue(edit("card-matching", chat, card));
    await q.start();
    await settled(q);
    expect(sentTexts(chat).slice(2)).toEqual(["notice", "other-matching", "card-fulfilled"]);
    expect(tg.view(chat).find((m) => m.messageId === card)?.text).toBe("card-fulfilled");
    expect(await metrics.get("notifications_total", { outcome: "superseded" })).toBe(1);
    expect(await metrics.get("notifications_total", { outcome: "queued" })).toBe(4);
  });

  for (const [refusal, error] of [
    ["a 429", { error_code: 429, description: "Too Many Requests: retry after 5", parameters: { retry_after: 5 } }],
    ["a 502", { error_code: 502, description: "Bad Gateway" }],
  ] as const) {
    it(`an edit refused with ${refusal} while a newer edit of its message waited is replaced by it, never sent again`, async () => {
      const chat = 4106;
      const card = await cardIn(chat);
      tg.setRateLimits(TELEGRAM_RATE_LIMITS);
      let refuse!: () => void;
      const answered = new Promise<void>((resolve) => (refuse = resolve));
      let onTheWire = false;
      const metrics = createMetrics();
      const q = newQueue(metrics, async (job) => {
        if (job.id !== "card-matching") return toTelegram(job);
        onTheWire = true;
        await answered;
        throw Object.assign(new Error(error.description), error);
      });
      await q.start();
      await q.enqueue(edit("card-matching", chat, card));
      await waitUntil(() => onTheWire);
      // Queued while the older edit is on the wire: too late to replace it there.
      await q.enqueue(edit("card-fulfilled", chat, card));
      refuse();
      await settled(q);
      expect(sentTexts(chat).slice(1)).toEqual(["card-fulfilled"]);
      expect(await metrics.get("notifications_total", { outcome: "superseded" })).toBe(1);
      expect(await metrics.get("notifications_total", { outcome: "retried" })).toBe(0);
    });
  }

  it("an edit queued by a new process before it starts replaces the edit the old one left waiting", async () => {
    const chat = 4104;
    const card = await cardIn(chat);
    tg.setRateLimits(TELEGRAM_RATE_LIMITS);
    const first = newQueue();
    await first.enqueue(edit("card-matching", chat, card));
    await first.stop();
    await store.close();
    store = await open();
    const second = newQueue();
    // Not started yet: it does not know the waiting edit, and both are stored.
    await second.enqueue(edit("card-fulfilled", chat, card));
    await second.start();
    await settled(second);
    // Once more after the replaced one was dropped: it stays done, here and after another restart.
    await second.enqueue(edit("card-matching", chat, card));
    await second.stop();
    await store.close();
    store = await open();
    const third = newQueue();
    await third.enqueue(edit("card-matching", chat, card));
    await third.start();
    await settled(third);
    expect(sentTexts(chat).slice(1)).toEqual(["card-fulfilled"]);
    expect(tg.view(chat).find((m) => m.messageId === card)?.text).toBe("card-fulfilled");
  });
});
