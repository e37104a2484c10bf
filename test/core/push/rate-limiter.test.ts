import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../src/core/push/rate-limiter.js";
import { TELEGRAM_LIMITS } from "../../../src/core/push/types.js";

/** Sends to distinct chats as soon as the limiter allows, each `lateMs` after its time (a timer firing late); their times. */
function sendAll(count: number, lateMs: number, start = 0): number[] {
  const limiter = createRateLimiter(TELEGRAM_LIMITS);
  const sent: number[] = [];
  let now = start;
  for (let i = 0; i < count; i += 1) {
    now = Math.max(now, limiter.globalReadyAt(now)) + lateMs;
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
