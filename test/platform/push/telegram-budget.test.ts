/**
 * The process's one Telegram budget (src/platform/push/telegram-budget.ts) as the
 * local push queue and the bot's answers share it, on a virtual clock: times
 * below are the clock's, so the pacing is judged exactly on a loaded machine.
 */
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalPushQueue } from "../../../src/platform/push/create-local-push-queue.js";
import { createLocalTelegramBudget, type LocalTelegramBudget } from "../../../src/platform/push/telegram-budget.js";
import { TELEGRAM_LIMITS, type PushJob, type PushQueue } from "../../../src/platform/push/types.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createVirtualClock, type VirtualClock } from "../../support/virtual-clock.js";
import { waitUntil } from "../../support/wait.js";

const logger = pino({ level: "silent" });
const WINDOW_MS = 1_000 + TELEGRAM_LIMITS.marginMs;

interface Sent {
  kind: "push" | "answer";
  chatId: number;
  at: number;
}

/** The most sends within any window of `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[i]! - sorted[j]! >= windowMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const note = (i: number, chatId: number): PushJob => ({ id: `n${i}`, chatId, method: "sendMessage", params: { chat_id: chatId, text: `note ${i}` } });

describe("one Telegram budget for the bot's answers and the push queue", () => {
  const stores: StoreBackend[] = [];
  const queues: PushQueue[] = [];

  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop();
    for (const store of stores.splice(0)) await store.close();
  });

  async function world(): Promise<{
    clock: VirtualClock;
    budget: LocalTelegramBudget;
    queue: PushQueue;
    sent: Sent[];
    answer: (chatId: number) => Promise<void>;
  }> {
    const clock = createVirtualClock();
    const budget = createLocalTelegramBudget({ clock });
    const store = await openStore("sqlite://:memory:", { logger, purgeIntervalMs: 0 });
    stores.push(store);
    const sent: Sent[] = [];
    const queue = createLocalPushQueue({
      store,
      logger,
      clock,
      budget,
      transport: (job) =>
        clock.hold(() => {
          sent.push({ kind: "push", chatId: job.chatId, at: clock.now() });
          return Promise.resolve({});
        }),
    });
    queues.push(queue);
    const answer = async (chatId: number) => {
      await budget.take(chatId);
      sent.push({ kind: "answer", chatId, at: clock.now() });
    };
    return { clock, budget, queue, sent, answer };
  }

  it("gives waiting answers every free slot before the queue's background sends, then lets the queue go on", async () => {
    const { clock, queue, sent, answer } = await world();
    for (let i = 0; i < 90; i += 1) await queue.enqueue(note(i, 5_000 + i));
    await queue.start();
    await waitUntil(() => sent.length >= 10, { timeoutMs: 30_000 });

    const askedAt = clock.now();
    await Promise.all(Array.from({ length: 20 }, (_, i) => answer(9_000 + i)));
    const answers = sent.filter((s) => s.kind === "answer");
    const lastAnswerAt = Math.max(...answers.map((s) => s.at));
    expect(answers).toHaveLength(20);
    expect(
      sent.filter((s) => s.kind === "push" && s.at > askedAt && s.at <= lastAnswerAt),
      "background sends while answers waited",
    ).toEqual([]);

    await waitUntil(() => sent.filter((s) => s.kind === "push").length === 90, { timeoutMs: 30_000 });
    expect(
      busiestWindow(
        sent.map((s) => s.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(TELEGRAM_LIMITS.globalPerSecond);
  });

  it("spaces a chat's answers by its own window, and an answer waiting for its chat holds no one else back", async () => {
    const { clock, queue, sent, answer } = await world();
    // Set up at one instant: the clock does not run ahead to the second answer's turn meanwhile.
    const { second } = await clock.hold(async () => {
      await answer(1);
      await queue.start();
      for (let i = 0; i < 5; i += 1) await queue.enqueue(note(i, 100 + i));
      return { second: answer(1) };
    });
    await second;

    const [first, next] = sent.filter((s) => s.chatId === 1);
    expect(next!.at - first!.at).toBeGreaterThanOrEqual(WINDOW_MS);
    const pushes = sent.filter((s) => s.kind === "push");
    expect(pushes).toHaveLength(5);
    expect(pushes.every((s) => s.at < next!.at)).toBe(true);
  });

  it("paces a chat's answers and its background notices in one window", async () => {
    const { queue, sent, answer } = await world();
    await queue.start();
    await queue.enqueue(note(1, 7));
    await waitUntil(() => sent.length === 1, { timeoutMs: 30_000 });
    await answer(7);
    const [push, reply] = sent;
    expect(reply!.at - push!.at).toBeGreaterThanOrEqual(WINDOW_MS);
  });

  it("after a 429, holds every send, answers and background alike, until its retry_after has passed", async () => {
    const { clock, budget, queue, sent, answer } = await world();
    const limitedAt = clock.now();
    await budget.rateLimited(1, 5);
    await queue.enqueue(note(1, 3));
    await queue.start();
    await Promise.all([answer(1), answer(2)]);
    await waitUntil(() => sent.length === 3, { timeoutMs: 30_000 });

    expect(sent.map((s) => s.chatId).sort()).toEqual([1, 2, 3]);
    for (const send of sent) expect(send.at).toBeGreaterThanOrEqual(limitedAt + 5_000);
  });

  it("an answer given up while it waits (its call aborted) frees the queue", async () => {
    const { budget, queue, sent } = await world();
    await budget.take(1);
    const gone = new AbortController();
    const waiting = budget.take(2, gone.signal);
    gone.abort(new Error("the update's handling ended"));
    await expect(waiting).rejects.toThrow("the update's handling ended");
    await queue.enqueue(note(1, 3));
    await queue.start();
    await waitUntil(() => sent.length === 1, { timeoutMs: 30_000 });
  });
});
