/**
 * test/app-telegram-limits.test.ts at 1,000 chats (half a minute of answers at Telegram's pace), and over Redis, where
 * the answers take their slots from the BullMQ push queue's shared cadence.
 */
import { describe } from "vitest";
import { redisTarget } from "./app-harness.js";
import { appBurst } from "./app-burst.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];

describe("the whole app under Telegram's send limits, 1,000 chats", () => {
  appBurst(1_000, 820_000);
});

describe.skipIf(!REDIS_URL)("the whole app on Redis under Telegram's send limits, 300 chats (TEST_REDIS_URL)", () => {
  appBurst(300, 830_000, () => redisTarget(REDIS_URL!));
});
