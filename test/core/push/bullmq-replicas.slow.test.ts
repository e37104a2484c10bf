import { describe, expect, it } from "vitest";
import { runPushReplicas } from "../../../testkit/push-replicas.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the two-process BullMQ push test: TEST_REDIS_URL is not set");

// Load-shaped: `npm test` runs the same two processes over 40 notifications to 20 chats (bullmq-replicas.test.ts).
describe.skipIf(!REDIS_URL)("BullMQ push queue in two processes on one Redis (TEST_REDIS_URL), at volume", () => {
  it("shares one Telegram budget: every notification once, no 429, at most 30 a second and 1 per chat", async () => {
    // The sends leave at 0.95 of Telegram's rate, with 50 ms of margin for the arrivals' jitter. Beside the
    // whole suite (8 workers on 2 cores) the fake Bot API's own process stalls longer than that, and the
    // arrivals it records crowd. A wider margin keeps this test about the one shared budget (two processes
    // not sharing it send twice the rate); `npm run bench` measures the default margin.
    const result = await runPushReplicas({ processes: 2, messages: 120, chats: 40, redisUrl: REDIS_URL!, timeoutMs: 90_000, marginMs: 200 });

    expect(result.delivered).toBe(120);
    expect(result.duplicates).toBe(0);
    expect(result.rateLimited).toBe(0);
    expect(result.peakPerSecond).toBeLessThanOrEqual(30);
    expect(result.peakPerChatPerSecond).toBe(1);
  }, 120_000);
});
