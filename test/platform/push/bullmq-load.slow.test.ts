/** The BullMQ push queue at load: 300 notifications to 100 chats across a restart (the contract itself: bullmq.test.ts). */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PushJob } from "../../../src/platform/push/types.js";
import { REDIS_URL, until, useBullmqPush } from "./bullmq-world.js";

describe.skipIf(!REDIS_URL)("BullMQ mode at load (TEST_REDIS_URL)", () => {
  const w = useBullmqPush();

  it("delivers 300 notifications to 100 chats exactly once across a restart, without a second 429", async () => {
    const name = `push-${randomUUID()}`;
    w.names.push(name);
    const chats = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? -(900_000 + i) : 900_000 + i));
    for (const id of chats) w.tg.addChat(id);
    const jobs: PushJob[] = chats.flatMap((chatId) =>
      [0, 1, 2].map((n) => ({ id: `b${n}:${chatId}`, chatId, method: "sendMessage" as const, params: { chat_id: chatId, text: `bull ${n} ${chatId}` } })),
    );
    const first = w.pushQueue(name);
    await first.start();
    for (const job of jobs) await first.enqueue(job);
    const sent = () => w.tg.callsOf("sendMessage").filter((c) => c.ok && String(c.params["text"]).startsWith("bull "));
    await until(() => sent().length >= 100);
    await first.stop();

    const second = w.pushQueue(name);
    for (const job of jobs) await second.enqueue(job); // dedup by jobId: nothing resent
    await second.start();
    await until(() => sent().length >= 300);
    await until(async () => (await second.size()) === 0);
    const texts = sent().map((c) => String(c.params["text"]));
    expect(texts).toHaveLength(300);
    expect(new Set(texts).size).toBe(300);
    expect(w.tg.calls.filter((c) => c.errorCode === 429).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
