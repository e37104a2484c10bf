import { describe, it } from "vitest";
import { expectOneSharedBudget, REDIS_URL } from "./bullmq-replicas-spec.js";

if (!REDIS_URL) console.log("skipping the two-process BullMQ push test: TEST_REDIS_URL is not set");

// Load-shaped: `npm test` runs the same two processes over 40 notifications to 20 chats (bullmq-replicas.test.ts).
describe.skipIf(!REDIS_URL)("BullMQ push queue in two processes on one Redis (TEST_REDIS_URL), at volume", () => {
  it("shares one Telegram budget: every notification once, no 429, at most 30 a second and 1 per chat", () => expectOneSharedBudget(120, 40), 120_000);
});
