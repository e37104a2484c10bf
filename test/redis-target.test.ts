/**
 * The Redis target of the app tests (test/app-harness.ts) stays inside its
 * own key prefix of TEST_REDIS_URL's database: its cleanup deletes the
 * prefix's keys (records, leases, BullMQ) and nothing else, and it fails the
 * run when a key outside the prefix was touched meanwhile.
 */
import { createClient } from "@keyv/redis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBullmqConnection, type RedisClient } from "../src/platform/queue/bullmq-connection.js";
import { openStore } from "../src/platform/store/open-store.js";
import { deleteRedisKeys, redisTarget } from "./app-harness.js";

const REDIS_URL = process.env["TEST_REDIS_URL"] || undefined;
if (!REDIS_URL) console.log("[redis-target] skipped: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");

const quiet = pino({ level: "silent" });

describe.skipIf(!REDIS_URL)("the app tests' Redis target (TEST_REDIS_URL)", () => {
  let raw: RedisClient;
  const others: string[] = [];

  beforeAll(async () => {
    raw = createClient({ url: REDIS_URL! });
    await raw.connect();
  });

  afterAll(async () => {
    if (others.length > 0) await raw.del(others);
    await raw.close();
  });

  /** A key of someone else's in the same database, outside any test prefix (unprefixed app keys look like this). */
  async function someoneElses(): Promise<string> {
    const key = `chats::other-${Math.random().toString(36).slice(2)}`;
    others.push(key);
    await raw.set(key, "not the test's", { expiration: { type: "EX", value: 600 } });
    return key;
  }

  it("uses the database of the URL as given, and its cleanup deletes only the prefix's keys", async () => {
    const other = await someoneElses();
    const target = await redisTarget(REDIS_URL!);
    expect(target.url).toBe(REDIS_URL);
    expect(target.env).toEqual({ STORAGE_PREFIX: target.prefix });
    const store = await openStore(target.url, { logger: quiet, prefix: target.prefix, purgeIntervalMs: 0 });
    const bull = createBullmqConnection({ name: "push", redisUrl: target.url, logger: quiet, prefix: `${target.prefix}/bull` });
    try {
      await store.namespace("chats").set("1", { linked: true });
      await store.claimLease("plan:1", "me", 60_000);
      await (await bull.queue()).add("job", { n: 1 });
    } finally {
      await bull.close();
      await store.close();
    }
    const mine = async () => {
      const keys: string[] = [];
      for await (const page of raw.scanIterator({ MATCH: `${target.prefix}/*`, COUNT: 500 })) keys.push(...page);
      return keys;
    };
    expect(await mine()).toEqual(expect.arrayContaining([`${target.prefix}/chats::1`, `${target.prefix}/lease:plan:1`, `${target.prefix}/bull:push:meta`]));

    await target.cleanup();
    expect(await mine()).toEqual([]);
    expect(await raw.get(other)).toBe("not the test's");
  });

  it("fails the run when a key outside its prefix was deleted meanwhile (as a FLUSHDB would)", async () => {
    const target = await redisTarget(REDIS_URL!);
    // The sentinel is the one key of the run outside its prefix; losing it stands for any outside key lost.
    const sentinels: string[] = [];
    for await (const page of raw.scanIterator({ MATCH: `tron-energy-bot-test:sentinel:${target.prefix}`, COUNT: 500 })) sentinels.push(...page);
    expect(sentinels).toHaveLength(1);
    await deleteRedisKeys(raw, sentinels[0]!);
    await expect(target.cleanup()).rejects.toThrow(/outside the test's prefix/);
  });
});
