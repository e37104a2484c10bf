/**
 * The Telegram budget of processes sharing one Redis (BullMQ mode): the bot's
 * answers take their slots from the cadence the BullMQ push queue's sends take
 * (bullmq-send-slots.ts, under the push queue's keys), so every process
 * together stays within Telegram's limits.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@keyv/redis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSendSlots } from "../../../src/platform/push/bullmq-send-slots.js";
import { createSharedTelegramBudget, type TelegramBudget } from "../../../src/platform/push/telegram-budget.js";
import type { RedisClient } from "../../../src/platform/queue/bullmq-connection.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the shared Telegram budget tests: TEST_REDIS_URL is not set");

const logger = pino({ level: "silent" });
/** One send per 10 s over all processes: long beside the test's own round trips on a loaded machine. */
const LIMITS = { globalPerSecond: 0.1, marginMs: 0 };
const SPACING_MS = 10_000;

describe.skipIf(!REDIS_URL)("the Telegram budget shared over Redis (TEST_REDIS_URL)", () => {
  let client: RedisClient;
  const prefixes: string[] = [];
  const budgets: TelegramBudget[] = [];

  beforeAll(async () => {
    client = createClient({ url: REDIS_URL! });
    await client.connect();
  });
  afterAll(async () => {
    for (const budget of budgets) await budget.close();
    for (const prefix of prefixes) {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });

  /** A budget, and the push queue's slots of another process, on one queue's keys. */
  function world() {
    const bullPrefix = `budget-${randomUUID()}`;
    prefixes.push(bullPrefix);
    const budget = createSharedTelegramBudget({ redisUrl: REDIS_URL!, bullPrefix, name: "push", limits: LIMITS, logger });
    budgets.push(budget);
    const queueSlots = createSendSlots(() => Promise.resolve(client), `${bullPrefix}:push`, SPACING_MS);
    return { budget, queueSlots, pace: (chatId: number) => `${bullPrefix}:push:pace:${chatId}` };
  }

  it("an answer takes the cadence's slot: the push queue's next send gets the one after it", async () => {
    const { budget, queueSlots, pace } = world();
    await budget.take(1);
    const next = await queueSlots.reserve(pace(2), 1_050);
    expect("waitMs" in next && next.waitMs).toBeGreaterThan(SPACING_MS / 2);
  });

  it("an answer holds its chat's turn: the push queue's send to that chat waits for it", async () => {
    const { budget, queueSlots, pace } = world();
    await budget.answered(3, await budget.take(3));
    const next = await queueSlots.reserve(pace(3), 1_050);
    expect("chatBusyMs" in next && next.chatBusyMs).toBeGreaterThan(0);
  });

  it("a 429 an answer met pauses every process's sends", async () => {
    const { budget, queueSlots } = world();
    await budget.rateLimited(4, 30);
    expect(await queueSlots.pausedFor()).toBeGreaterThan(20_000);
  });

  it("an answer waits for a pause another process's 429 set, and goes after it", async () => {
    const { budget, queueSlots } = world();
    await queueSlots.pause(300);
    await budget.take(5);
    expect(await queueSlots.pausedFor()).toBe(0);
  });
});
