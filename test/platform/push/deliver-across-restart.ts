import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { expect } from "vitest";
import { createMetrics } from "../../../src/platform/metrics.js";
import { createPushQueue } from "../../../src/platform/push/create-push-queue.js";
import { TELEGRAM_LIMITS, type PushJob, type PushQueue } from "../../../src/platform/push/types.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { TELEGRAM_RATE_LIMITS } from "../../../testkit/fake-telegram/fake-telegram-state.js";
import { createVirtualClock } from "../../support/virtual-clock.js";
import { waitUntil } from "../../support/wait.js";

const logger = pino({ level: "silent" });

/**
 * Four notifications to each of `chats` chats (every tenth a group) through the push queue over SQLite
 * and the fake Bot API at Telegram's real limits, the process restarted once 30% of them are delivered
 * and a fifth of them enqueued again after the restart: each arrives exactly once, in order per chat,
 * and no send is refused with 429.
 *
 * The queue and the fake Bot API share a virtual clock: time stands still while a send is on the wire,
 * so a send arrives at the instant it left and the pacing is judged exactly, however loaded the machine.
 * The same run on the real clock is `npm run bench` (bench/push-soak.ts).
 */
export async function deliverAcrossRestart(chatCount: number): Promise<void> {
  const total = chatCount * 4;
  const dir = mkdtempSync(join(tmpdir(), "push-restart-"));
  const clock = createVirtualClock();
  const tg = await startFakeTelegram({ rateLimits: TELEGRAM_RATE_LIMITS, now: clock.now });
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const open = () => openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  let store: StoreBackend = await open();
  const queues: PushQueue[] = [];
  const newQueue = (metrics = createMetrics()) => {
    const q = createPushQueue({
      store,
      logger,
      metrics,
      clock,
      limits: TELEGRAM_LIMITS,
      retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 4 },
      transport: (job: PushJob) => clock.hold<unknown>(() => api.raw[job.method](job.params as never)),
    });
    queues.push(q);
    return q;
  };
  const delivered = () =>
    tg
      .callsOf("sendMessage")
      .filter((c) => c.ok)
      .map((c) => String(c.params["text"]));
  try {
    const chats = Array.from({ length: chatCount }, (_, i) => (i % 10 === 0 ? -(1_000 + i) : 1_000 + i));
    for (const id of chats) tg.addChat(id);
    const jobs = chats.flatMap((chatId) =>
      [0, 1, 2, 3].map((n): PushJob => ({ id: `n${n}-c${chatId}`, chatId, method: "sendMessage", params: { chat_id: chatId, text: `note n${n}-c${chatId}` } })),
    );
    const metrics = createMetrics();
    const first = newQueue(metrics);
    await first.start();
    for (const job of jobs) await first.enqueue(job);
    // Enqueueing the same ids again is a no-op.
    for (const job of jobs.slice(0, Math.ceil(total / 40))) await first.enqueue(job);
    expect(await metrics.get("notifications_total", { outcome: "queued" })).toBe(total);

    await waitUntil(() => delivered().length >= Math.floor(total * 0.3), { timeoutMs: 120_000 });
    await first.stop();
    await store.close();

    store = await open();
    const second = newQueue();
    // Re-enqueueing after the restart must not resend what was delivered.
    for (const job of jobs.slice(0, total / 5)) await second.enqueue(job);
    await second.start();
    await waitUntil(async () => (await second.size()) === 0, { timeoutMs: 150_000 });

    const texts = delivered();
    expect(texts).toHaveLength(total);
    expect(new Set(texts).size).toBe(total);
    expect(tg.calls.filter((c) => c.errorCode === 429)).toEqual([]);
    for (const chatId of chats) {
      expect(tg.botMessages(chatId).map((m) => m.text)).toEqual([0, 1, 2, 3].map((n) => `note n${n}-c${chatId}`));
    }
  } finally {
    for (const q of queues) await q.stop();
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
