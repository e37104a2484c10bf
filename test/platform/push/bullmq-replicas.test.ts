import { describe, it } from "vitest";
import { expectOneSharedBudget, REDIS_URL } from "./bullmq-replicas-spec.js";

if (!REDIS_URL) console.log("skipping the two-process BullMQ push test: TEST_REDIS_URL is not set");

describe.skipIf(!REDIS_URL)("BullMQ push queue in two processes on one Redis (TEST_REDIS_URL)", () => {
  // 40 notifications: two processes that did not share the budget would send them within one second (more than 30).
  // The slow suite sends 120 to 40 chats (bullmq-replicas.slow.test.ts).
  it("shares one Telegram budget: every notification once, no 429, at most 30 a second and 1 per chat", () => expectOneSharedBudget(40, 20), 120_000);
});
