/**
 * Where the repositories' reads are saved: a process that alone writes its store (SQLite, Postgres) keeps the
 * records it wrote across units of work and has no memo; on Redis, where other processes write too, every unit
 * reads the store again (once per unit, through the memo).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStorage, type Storage } from "../../src/shared/storage.js";
import { captureLogger, runId } from "../platform/store/helpers.js";

const RECEIVER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const log = captureLogger();
const redisUrl = process.env["TEST_REDIS_URL"] || undefined;
if (!redisUrl) console.log("skipping the Redis case of storage-reads: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");

const open = (storageUrl: string, storagePrefix?: string): Promise<Storage> =>
  createStorage({
    config: { storageUrl, encryptionKey: randomBytes(32), ...(storagePrefix === undefined ? {} : { storagePrefix }) },
    logger: log.logger,
    purgeIntervalMs: 0,
  });

describe("a sole writer (SQLite)", () => {
  it("keeps the address book and the spend limits it wrote across units, with no memo", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storage-reads-"));
    const url = `sqlite://${join(dir, "bot.sqlite")}`;
    const bot = await open(url);
    const behindItsBack = await open(url);
    try {
      expect(bot.memo).toBeUndefined();
      await bot.addressBook.add(1, RECEIVER, "home", 1);
      await bot.limitSettings.update(1, (settings) => ({ ...settings, timeZone: "Asia/Tokyo" }));
      await behindItsBack.store.namespace("address-book").delete("1");
      await behindItsBack.store.namespace("spend-limits").delete("1");

      expect(await behindItsBack.addressBook.list(1)).toEqual([]);
      expect((await bot.addressBook.list(1)).map((e) => e.label)).toEqual(["home"]);
      expect((await bot.limitSettings.get(1)).timeZone).toBe("Asia/Tokyo");
    } finally {
      await behindItsBack.close();
      await bot.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!redisUrl)("processes sharing a store (Redis)", () => {
  it("read the store again in each unit: what another process wrote is seen by the next unit, not by the one under way", async () => {
    const prefix = `storage-reads-${runId()}`;
    const bot = await open(redisUrl!, prefix);
    const other = await open(redisUrl!, prefix);
    try {
      const memo = bot.memo;
      expect(memo).toBeDefined();
      await bot.addressBook.add(1, RECEIVER, "home", 1);
      await memo!.run(async () => {
        expect(await bot.addressBook.labelOf(1, RECEIVER)).toBe("home");
        await other.addressBook.rename(1, RECEIVER, "office");
        expect(await bot.addressBook.labelOf(1, RECEIVER)).toBe("home");
      });
      expect(await bot.addressBook.labelOf(1, RECEIVER)).toBe("office");
    } finally {
      await other.addressBook.delete(1, RECEIVER);
      await other.close();
      await bot.close();
    }
  });
});
