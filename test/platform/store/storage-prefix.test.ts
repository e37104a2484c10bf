/**
 * STORAGE_PREFIX: two deployments on one store (one Redis database, one
 * Postgres table, one SQLite file) never see each other's records, leases or
 * queues; without a prefix every key is where it always was.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, storageScope } from "../../../src/platform/store/open-store.js";
import { createBullmqConnection } from "../../../src/platform/queue/bullmq-connection.js";
import { createPgPool } from "../../../src/platform/store/postgres-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { appendTags, tagRecords } from "./appender.js";
import { captureLogger, collect, runId, withTable } from "./helpers.js";

const log = captureLogger();
const dir = mkdtempSync(join(tmpdir(), "prefix-"));
const redisUrl = process.env["TEST_REDIS_URL"] || undefined;
const pgUrl = process.env["TEST_POSTGRES_URL"] || undefined;
const pgTable = `prefix_${runId()}`;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!pgUrl) return;
  const pool = createPgPool(pgUrl);
  try {
    await pool.query(`DROP TABLE IF EXISTS public.${pgTable}`);
    await pool.query(`DROP TABLE IF EXISTS public.${pgTable}_leases`);
  } finally {
    await pool.end();
  }
});

const targets = [
  { label: "SQLite", url: `sqlite://${join(dir, "bot.sqlite")}` as string | undefined, skip: "never skipped" },
  { label: "Redis", url: redisUrl, skip: "TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)" },
  {
    label: "Postgres",
    url: pgUrl && withTable(pgUrl, pgTable),
    skip: "TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)",
  },
];

async function withStores<T>(url: string, prefixes: string[], fn: (stores: StoreBackend[]) => Promise<T>): Promise<T> {
  const stores = await Promise.all(prefixes.map((prefix) => openStore(url, { logger: log.logger, prefix, purgeIntervalMs: 0 })));
  try {
    return await fn(stores);
  } finally {
    for (const store of stores) await store.close();
  }
}

describe("a storage prefix", () => {
  it("is checked: letters, digits, _ and - only, so it can never reach into another deployment's keys", () => {
    expect(storageScope(undefined)).toBe("");
    expect(storageScope("")).toBe("");
    expect(storageScope("bot-a_1")).toBe("bot-a_1/");
    for (const bad of ["a/b", "a:b", "a*", "-a", "a b"]) expect(() => storageScope(bad)).toThrow(/storage prefix/);
  });

  for (const target of targets) {
    if (!target.url) console.log(`[store] skipping storage prefix on ${target.label}: ${target.skip}`);
    describe.skipIf(!target.url)(`on ${target.label}`, () => {
      const url = target.url!;

      it("keeps two deployments' records, listings, clears and leases apart on one store", async () => {
        const ns = `records-${runId()}`;
        await withStores(url, [`a${runId()}`, `b${runId()}`], async ([a, b]) => {
          const ra = tagRecords(a!.namespace(ns), log.logger);
          const rb = tagRecords(b!.namespace(ns), log.logger);
          await appendTags(ra, "same-id", "a", 3);
          await rb.set("same-id", { tags: ["b"] });
          await rb.set("only-b", { tags: ["b"] });
          expect((await ra.get("same-id"))?.tags.sort()).toEqual(["a-0", "a-1", "a-2"]);
          expect(await ra.get("only-b")).toBeUndefined();
          expect((await collect(ra.list())).map(([id]) => id)).toEqual(["same-id"]);
          expect((await collect(ra.idPages())).flat()).toEqual(["same-id"]);
          await a!.namespace(ns).clear();
          expect(await rb.get("same-id")).toEqual({ tags: ["b"] });
          // The same lease name is a different lease in each deployment.
          expect(await a!.claimLease("plan:1", "owner-a", 60_000)).toBe(true);
          expect(await b!.claimLease("plan:1", "owner-b", 60_000)).toBe(true);
          await a!.releaseLease("plan:1", "owner-a");
          await b!.releaseLease("plan:1", "owner-b");
          await b!.namespace(ns).clear();
        });
      });

      it("reads data written before prefixes existed when none is set", async () => {
        const ns = `legacy-${runId()}`;
        await withStores(url, [""], async ([before]) => {
          await before!.namespace(ns).set("k", "written without a prefix");
        });
        await withStores(url, ["", `c${runId()}`], async ([unprefixed, prefixed]) => {
          expect(await unprefixed!.namespace(ns).get("k")).toBe("written without a prefix");
          expect(await prefixed!.namespace(ns).get("k")).toBeUndefined();
          await unprefixed!.namespace(ns).clear();
        });
      });
    });
  }

  describe.skipIf(!redisUrl)("on Redis, key by key", () => {
    it("starts every key of a prefixed deployment with `<prefix>/` (records, leases, BullMQ) and leaves unprefixed keys as they were", async () => {
      const prefix = `d${runId()}`;
      const ns = `keys-${runId()}`;
      const raw = createClient({ url: redisUrl! });
      await raw.connect();
      const bull = createBullmqConnection({ name: "push", redisUrl: redisUrl!, logger: log.logger, prefix: `${prefix}/bull` });
      try {
        await withStores(redisUrl!, [prefix, ""], async ([scoped, plain]) => {
          await scoped!.namespace(ns).set("k", 1);
          await plain!.namespace(ns).set("k", 2);
          await scoped!.claimLease("plan:1", "me", 60_000);
          await (await bull.queue()).add("job", { n: 1 });
          const keys = (await raw.keys(`${prefix}/*`)).sort();
          expect(keys).toEqual(expect.arrayContaining([`${prefix}/${ns}::k`, `${prefix}/lease:plan:1`, `${prefix}/bull:push:meta`]));
          expect(await raw.exists(`${ns}::k`)).toBe(1);
          await scoped!.releaseLease("plan:1", "me");
          await scoped!.namespace(ns).clear();
          await plain!.namespace(ns).clear();
        });
        await (await bull.queue()).obliterate({ force: true });
        expect(await raw.keys(`${prefix}/*`)).toEqual([]);
      } finally {
        await bull.close();
        await raw.close();
      }
    });
  });
});
