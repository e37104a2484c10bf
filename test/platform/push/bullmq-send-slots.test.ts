import { randomUUID } from "node:crypto";
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSendSlots, type SendSlots, type SlotReservation } from "../../../src/platform/push/bullmq-send-slots.js";
import type { RedisClient } from "../../../src/platform/queue/bullmq-connection.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the shared send slots tests: TEST_REDIS_URL is not set");

/** Long enough that the test's own round trips are a small part of it, even on a loaded machine. */
const SPACING_MS = 20_000;
const CHAT_INTERVAL_MS = 1_050;

const waitOf = (r: SlotReservation): number => {
  if (!("waitMs" in r)) throw new Error(`expected a slot, the chat is busy for ${r.chatBusyMs} ms`);
  return r.waitMs;
};

describe.skipIf(!REDIS_URL)("shared send slots on Redis (TEST_REDIS_URL)", () => {
  let client: RedisClient;
  const prefixes: string[] = [];

  beforeAll(async () => {
    client = createClient({ url: REDIS_URL! });
    await client.connect();
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });

  function slots(): { slots: SendSlots; pace: (chatId: number) => string } {
    const prefix = `slots-${randomUUID()}`;
    prefixes.push(prefix);
    return { slots: createSendSlots(() => Promise.resolve(client), prefix, SPACING_MS), pace: (chatId) => `${prefix}:pace:${chatId}` };
  }

  it("gives the first send its slot now and each next one a spacing after the slot before it, whoever asks", async () => {
    const { slots: a, pace } = slots();
    const started = Date.now();
    const first = waitOf(await a.reserve(pace(1), CHAT_INTERVAL_MS));
    const second = waitOf(await a.reserve(pace(2), CHAT_INTERVAL_MS));
    const third = waitOf(await a.reserve(pace(3), CHAT_INTERVAL_MS));
    const elapsed = Date.now() - started;

    expect(first).toBe(0);
    expect(second).toBeGreaterThanOrEqual(SPACING_MS - elapsed - 1);
    expect(second).toBeLessThanOrEqual(SPACING_MS + 1);
    expect(third).toBeGreaterThanOrEqual(2 * SPACING_MS - elapsed - 1);
    expect(third).toBeLessThanOrEqual(2 * SPACING_MS + 1);
  });

  it("holds the chat's turn until its slot plus its interval, and a busy chat takes no slot", async () => {
    const { slots: s, pace } = slots();
    const started = Date.now();
    waitOf(await s.reserve(pace(1), CHAT_INTERVAL_MS));
    const later = waitOf(await s.reserve(pace(2), CHAT_INTERVAL_MS));
    const busy = await s.reserve(pace(2), CHAT_INTERVAL_MS);
    const next = waitOf(await s.reserve(pace(3), CHAT_INTERVAL_MS));
    const elapsed = Date.now() - started;

    expect(busy).toEqual({ chatBusyMs: expect.any(Number) as number });
    expect((busy as { chatBusyMs: number }).chatBusyMs).toBeGreaterThan(later + CHAT_INTERVAL_MS - elapsed - 2);
    expect(next).toBeLessThanOrEqual(2 * SPACING_MS + 1);
    expect(await client.pTTL(pace(2))).toBeGreaterThan(SPACING_MS);
  });

  it("gives a send that missed its slot a later one, its chat's turn extended to it and not refused as busy", async () => {
    const { slots: s, pace } = slots();
    const started = Date.now();
    waitOf(await s.reserve(pace(1), CHAT_INTERVAL_MS));
    const again = await s.reserveAgain(pace(1), CHAT_INTERVAL_MS);
    const turnLeft = await client.pTTL(pace(1));
    const next = waitOf(await s.reserve(pace(2), CHAT_INTERVAL_MS));
    const elapsed = Date.now() - started;

    expect(again).toBeGreaterThanOrEqual(SPACING_MS - elapsed - 1);
    expect(again).toBeLessThanOrEqual(SPACING_MS + 1);
    expect(turnLeft).toBeGreaterThan(SPACING_MS);
    expect(next).toBeGreaterThanOrEqual(2 * SPACING_MS - elapsed - 1);
  });

  it("puts the slots after a pause, which a shorter pause does not cut short", async () => {
    const { slots: s, pace } = slots();
    const started = Date.now();
    await s.pause(3 * SPACING_MS);
    await s.pause(10);
    const left = await s.pausedFor();
    const wait = waitOf(await s.reserve(pace(1), CHAT_INTERVAL_MS));
    const elapsed = Date.now() - started;

    expect(left).toBeGreaterThan(3 * SPACING_MS - elapsed - 1);
    expect(wait).toBeGreaterThanOrEqual(3 * SPACING_MS - elapsed - 1);
    expect(wait).toBeLessThanOrEqual(3 * SPACING_MS + 1);
  });

  it("reports no pause when none was asked for", async () => {
    const { slots: s } = slots();
    expect(await s.pausedFor()).toBe(0);
  });
});
