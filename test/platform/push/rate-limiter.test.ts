import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../src/platform/push/rate-limiter.js";
import { TELEGRAM_LIMITS } from "../../../src/platform/push/types.js";

/** Sends to distinct chats as soon as the limiter allows, each `lateMs` after its time (a timer firing late); their times. */
function sendAll(count: number, lateMs: number | ((i: number) => number), start = 0): number[] {
  const limiter = createRateLimiter(TELEGRAM_LIMITS);
  const sent: number[] = [];
  let now = start;
  for (let i = 0; i < count; i += 1) {
    now = Math.max(now, limiter.globalReadyAt(now)) + (typeof lateMs === "number" ? lateMs : lateMs(i));
    limiter.record(1_000 + i, now);
    sent.push(now);
  }
  return sent;
}

/** The most sends within any window of `windowMs`. */
function busiestWindow(sent: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < sent.length; i += 1) {
    while (sent[i]! - sent[j]! >= windowMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("push rate limiter, global pace", () => {
  const { globalPerSecond, marginMs } = TELEGRAM_LIMITS;
  const window = 1_000 + marginMs;

  it("keeps its even cadence when every send leaves a millisecond late", () => {
    const sent = sendAll(600, 1);
    const perSecond = ((sent.length - 1) / (sent.at(-1)! - sent[0]!)) * 1_000;
    // 30 per 1,050 ms is 28.6/s; counting each gap from the late send gave 1,000 / 36 = 27.8/s.
    expect(perSecond).toBeGreaterThan(28.4);
    expect(busiestWindow(sent, window)).toBeLessThanOrEqual(globalPerSecond);
  });

  it("keeps its cadence when some sends leave up to a slot late (the timers of a busy process)", () => {
    for (const late of [10, 20, 30]) {
      const sent = sendAll(600, (i) => (i % 7 === 3 ? late : 1));
      const perSecond = ((sent.length - 1) / (sent.at(-1)! - sent[0]!)) * 1_000;
      expect(perSecond, `${late} ms late`).toBeGreaterThan(28.4);
      expect(busiestWindow(sent, window)).toBeLessThanOrEqual(globalPerSecond);
    }
  });

  it("never lets more than the allowed sends into one window, however late or early the sends are", () => {
    for (const late of [0, 1, 3, 5, 7, 20, 40]) expect(busiestWindow(sendAll(300, late), window)).toBeLessThanOrEqual(globalPerSecond);
  });

  it("after an idle spell, starts the cadence over from the first send instead of bursting to catch up", () => {
    const limiter = createRateLimiter(TELEGRAM_LIMITS);
    limiter.record(1, 0);
    limiter.record(2, limiter.globalReadyAt(0));
    const resumed = 60_000;
    limiter.record(3, resumed);
    expect(limiter.globalReadyAt(resumed)).toBeGreaterThanOrEqual(resumed + window / globalPerSecond - 5);
  });
});

/**
 * Sends to distinct chats as soon as the limiter allows, each reaching Telegram at `arrivalOf(sentAt)`
 * (a loaded machine or network holding some requests) and answered a millisecond after it arrived; when
 * `countFromAnswer`, the limiter is told of each answer. Their arrival times, as Telegram counts them.
 */
function arrivals(count: number, arrivalOf: (sentAt: number) => number, countFromAnswer: boolean): number[] {
  const limiter = createRateLimiter(TELEGRAM_LIMITS);
  const inFlight: { chatId: number; sentAt: number; answerAt: number }[] = [];
  const arrived: number[] = [];
  let now = 0;
  for (let i = 0; i < count;) {
    const nextAnswer = Math.min(...inFlight.map((s) => s.answerAt));
    const ready = limiter.globalReadyAt(now);
    now = Math.max(now, Math.min(ready, nextAnswer));
    for (const send of inFlight.filter((s) => s.answerAt <= now)) {
      inFlight.splice(inFlight.indexOf(send), 1);
      if (countFromAnswer) limiter.answered(send.chatId, send.sentAt, send.answerAt);
    }
    if (limiter.globalReadyAt(now) > now) continue;
    limiter.record(1_000 + i, now);
    arrived.push(arrivalOf(now));
    inFlight.push({ chatId: 1_000 + i, sentAt: now, answerAt: arrivalOf(now) + 1 });
    i += 1;
  }
  return arrived.sort((a, b) => a - b);
}

describe("push rate limiter, sends held on their way", () => {
  const { globalPerSecond } = TELEGRAM_LIMITS;
  // Telegram's side stalls: what leaves in the first 350 ms arrives together at 1 s; the rest takes 2 ms.
  const held = (sentAt: number) => (sentAt < 350 ? 1_000 : sentAt + 2);

  it("counts a send from Telegram's answer, so no second Telegram sees holds more than the limit", () => {
    expect(busiestWindow(arrivals(600, held, true), 1_000)).toBeLessThanOrEqual(globalPerSecond);
  });

  it("counted from departure alone, the same held sends crowd a second past the limit (why the answer counts)", () => {
    expect(busiestWindow(arrivals(600, held, false), 1_000)).toBeGreaterThan(globalPerSecond);
  });

  it("a chat's next send waits a full interval after its previous send was answered", () => {
    const limiter = createRateLimiter(TELEGRAM_LIMITS);
    limiter.record(7, 0);
    limiter.answered(7, 0, 400);
    expect(limiter.readyAt(7, 400)).toBeGreaterThan(400 + 1_000);
  });
});
