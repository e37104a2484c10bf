import { randomUUID } from "node:crypto";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import type { PushJob } from "../../../src/platform/push/types.js";
import { createMetrics } from "../../../src/platform/metrics.js";
import { waitUntil } from "../../support/wait.js";
import { LIMITS, REDIS_URL, until, useBullmqPush } from "./bullmq-world.js";

describe.skipIf(!REDIS_URL)("BullMQ mode (TEST_REDIS_URL)", () => {
  const w = useBullmqPush();
  it("never resends a delivered job when onDelivered throws", async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    w.tg.addChat(910_001);
    const metrics = createMetrics();
    let delivered = 0;
    const q = w.pushQueue(name, {
      metrics,
      onDelivered: () => {
        delivered += 1;
        throw new Error("the card store is down");
      },
    });
    await q.start();
    await q.enqueue({ id: "once", chatId: 910_001, method: "sendMessage", params: { chat_id: 910_001, text: "exactly once" } });
    await q.enqueue({ id: "once", chatId: 910_001, method: "sendMessage", params: { chat_id: 910_001, text: "exactly once" } });
    await until(() => delivered === 1);
    await until(async () => (await q.size()) === 0);
    expect(w.tg.botMessages(910_001).map((m) => m.text)).toEqual(["exactly once"]);
    expect(await metrics.get("notifications_total", { outcome: "queued" })).toBe(1);
    expect(await metrics.get("notifications_total", { outcome: "sent" })).toBe(1);
  });

  it("never lets an older edit of a message land after a newer one: a retry that comes back late is dropped unsent", { timeout: 60_000 }, async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    const chatId = 930_001;
    w.tg.addChat(chatId);
    const api = new Api(w.tg.token, { apiRoot: w.tg.apiRoot });
    const sentEdit = (status: string) => w.tg.callsOf("editMessageText").some((c) => c.ok && c.params["text"] === `Status: ${status}`);
    const olderAttempts: { newerSentBefore: boolean }[] = [];
    const q = w.pushQueue(name, {
      // A retry comes back 4-6 s after a failure, the newer edit goes out at the chat's next slot (1 s):
      // the retry cannot compete with it for that slot, whatever the load, so each round ends the same way.
      retry: { baseDelayMs: 5_000, maxDelayMs: 5_000, maxAttempts: 5 },
      // The older edit fails (a 5xx on its way) for as long as the newer one has not gone out.
      transport: async (job) => {
        if (job.id === "card-executing") {
          olderAttempts.push({ newerSentBefore: sentEdit("fulfilled") });
          if (!sentEdit("fulfilled")) throw Object.assign(new Error("Bad Gateway"), { error_code: 502, description: "Bad Gateway" });
        }
        return api.raw[job.method](job.params as never);
      },
    });
    await q.start();
    await q.enqueue({ id: "card", chatId, method: "sendMessage", params: { chat_id: chatId, text: "Status: pending" } });
    const card = await waitUntil(() => w.tg.botMessages(chatId)[0], { what: "the card" });
    const edit = (status: string) => ({
      id: `card-${status}`,
      chatId,
      method: "editMessageText" as const,
      params: { chat_id: chatId, message_id: card.messageId, text: `Status: ${status}` },
    });
    await q.enqueue(edit("executing"));
    // The newer edit is enqueued once the older one has failed: BullMQ's workers may otherwise take the two in either order.
    await until(() => olderAttempts.length === 1);
    await q.enqueue(edit("fulfilled"));
    await until(() => sentEdit("fulfilled"));
    await until(async () => (await q.size()) === 0);
    // Its retries after the newer edit went out never reached Telegram: the queue dropped them before sending.
    expect(olderAttempts.filter((a) => a.newerSentBefore)).toEqual([]);
    expect(sentEdit("executing")).toBe(false);
    expect(w.tg.view(chatId).find((m) => m.messageId === card.messageId)?.text).toBe("Status: fulfilled");
  });

  it("takes a chat's notice before its waiting edits, and a newer edit of a message makes the waiting one complete unsent", { timeout: 60_000 }, async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    const chatId = 930_002;
    w.tg.addChat(chatId);
    const api = new Api(w.tg.token, { apiRoot: w.tg.apiRoot });
    const card = await api.sendMessage(chatId, "Status: pending");
    const from = w.tg.calls.length;
    const metrics = createMetrics();
    const q = w.pushQueue(name, { metrics });
    const edit = (status: string): PushJob => ({
      id: `card-${status}`,
      chatId,
      method: "editMessageText",
      params: { chat_id: chatId, message_id: card.message_id, text: `Status: ${status}` },
      priority: "refresh",
    });
    // Queued before any worker runs: all three wait together.
    await q.enqueue(edit("matching"));
    await q.enqueue({ id: "notice", chatId, method: "sendMessage", params: { chat_id: chatId, text: "fulfilled!" }, priority: "notice" });
    await q.enqueue(edit("fulfilled"));
    await q.start();
    await until(async () => (await q.size()) === 0);
    const sent = w.tg.calls.slice(from).filter((c) => c.ok && Number(c.params["chat_id"]) === chatId);
    expect(sent.map((c) => String(c.params["text"]))).toEqual(["fulfilled!", "Status: fulfilled"]);
    expect(await metrics.get("notifications_total", { outcome: "superseded" })).toBe(1);
    // Its BullMQ job is kept completed: queued again, it is not sent.
    await q.enqueue(edit("matching"));
    expect(await metrics.get("notifications_total", { outcome: "queued" })).toBe(3);
  });

  it("a 429 pauses every send, those already waiting for their slot too, and each job is still delivered once", async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    const chats = Array.from({ length: 40 }, (_, i) => 940_000 + i);
    for (const id of chats) w.tg.addChat(id);
    const api = new Api(w.tg.token, { apiRoot: w.tg.apiRoot });
    let calls = 0;
    let refusedAt: number | undefined;
    const q = w.pushQueue(name, {
      // A slot every 52 ms, fetched a little ahead: by the 25th send a few are waiting for their slots.
      limits: { ...LIMITS, globalPerSecond: 20 },
      transport: (job) => {
        calls += 1;
        if (calls === 25) {
          refusedAt = Date.now();
          return Promise.reject(
            Object.assign(new Error("Too Many Requests"), { error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } }),
          );
        }
        return api.raw[job.method](job.params as never);
      },
    });
    for (const chatId of chats) await q.enqueue({ id: `p${chatId}`, chatId, method: "sendMessage", params: { chat_id: chatId, text: `paused ${chatId}` } });
    await q.start();
    await until(async () => (await q.size()) === 0);

    const sent = w.tg.callsOf("sendMessage").filter((c) => c.ok && chats.includes(Number(c.params["chat_id"])));
    expect(refusedAt).toBeDefined();
    expect(sent).toHaveLength(40);
    expect(new Set(sent.map((c) => c.params["text"])).size).toBe(40);
    // At most the one send whose slot came while the 429 was being recorded; without the pause, nearly all of them.
    expect(sent.filter((c) => c.at >= refusedAt! && c.at < refusedAt! + 1_000).length).toBeLessThanOrEqual(1);
  });

  it("on 403 reports the chat unreachable and drops the chat's older jobs without sending them", async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    w.tg.addChat(920_001);
    w.tg.addChat(920_002);
    w.tg.blockChat(920_001);
    const unreachable: number[] = [];
    const q = w.pushQueue(name, { onChatUnreachable: (id) => void unreachable.push(id) });
    for (const n of [1, 2, 3]) await q.enqueue({ id: `blk${n}`, chatId: 920_001, method: "sendMessage", params: { chat_id: 920_001, text: `b${n}` } });
    await q.enqueue({ id: "fine", chatId: 920_002, method: "sendMessage", params: { chat_id: 920_002, text: "fine" } });
    await q.start();
    await until(async () => (await q.size()) === 0);
    expect(unreachable).toEqual([920_001]);
    expect(w.tg.callsOf("sendMessage").filter((c) => Number(c.params["chat_id"]) === 920_001)).toHaveLength(1);
    expect(w.tg.botMessages(920_002).map((m) => m.text)).toEqual(["fine"]);
  });
});
