import { expect } from "vitest";
import { runPushReplicas } from "../../../testkit/push-replicas.js";

export const REDIS_URL = process.env["TEST_REDIS_URL"];

/**
 * Two processes on one Redis share one Telegram budget: every notification once, no 429, at most 30 a second
 * and 1 per chat. The sends leave at 0.95 of Telegram's rate, with 50 ms of margin for the arrivals' jitter.
 * Beside the whole suite (8 workers on 2 cores) the fake Bot API's own process stalls longer than that, and the
 * arrivals it records crowd. A wider margin keeps this about the one shared budget (two processes not sharing it
 * send twice the rate); `npm run bench` measures the default margin.
 */
export async function expectOneSharedBudget(messages: number, chats: number): Promise<void> {
  const result = await runPushReplicas({ processes: 2, messages, chats, redisUrl: REDIS_URL!, timeoutMs: 90_000, marginMs: 200 });
  expect(result.delivered).toBe(messages);
  expect(result.duplicates).toBe(0);
  expect(result.rateLimited).toBe(0);
  expect(result.peakPerSecond).toBeLessThanOrEqual(30);
  expect(result.peakPerChatPerSecond).toBe(1);
}
