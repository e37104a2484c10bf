import { describe, expect, it } from "vitest";
import { runPushReplicas } from "../../../testkit/push-replicas.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the two-process BullMQ push test: TEST_REDIS_URL is not set");

describe.skipIf(!REDIS_URL)("BullMQ push queue in two processes on one Redis (TEST_REDIS_URL)", () => {
  it("shares one Telegram budget: every notification once, no 429, at most 30 a second and 1 per chat", async () => {
    // The sends leave at 0.95 of Telegram's rate, with 50 ms of margin for the arrivals' jitter. Beside the
    // whole suite (8 workers on 2 cores) the fake Bot API's own process stalls longer than that, and the
    // arrivals it records crowd. A wider margin keeps this test about the one shared budget (two processes
    // not sharing it send twice the rate); `npm run bench` measures the default margin.
    // 40 notifications: two processes that did not share the budget would send them within one second (more than 30).
    // The slow suite sends 120 to 40 chats (bullmq-replicas.slow.test.ts).
    const result = await runPushReplicas({ processes: 2, messages: 40, chats: 20, redisUrl: REDIS_URL!, timeoutMs: 90_000, marginMs: 200 });

    expect(result.delivered).toBe(40);
    expect(result.duplicates).toBe(0);
    expect(result.rateLimited).toBe(0);
    expect(result.peakPerSecond).toBeLessThanOrEqual(30);
    expect(result.peakPerChatPerSecond).toBe(1);
  }, 120_000);
});
