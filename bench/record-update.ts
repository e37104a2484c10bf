/**
 * What an atomic record update costs: `RecordStore.update` (read with its
 * stored state, compare-and-set write) against the plain read + write the
 * update used to be, one id, one at a time, on SQLite and, when their URLs are
 * set, Redis and Postgres (a table of the bench's own, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { z } from "zod";
import { openStore } from "../src/platform/store/open-store.js";
import { createPgPool } from "../src/platform/store/postgres-store.js";
import { createRecordStore } from "../src/platform/store/record-store.js";
import { measureAsync } from "./throughput.js";

const schema = z.object({ entries: z.array(z.object({ id: z.string(), status: z.string(), costSun: z.string() })) });
/** About the size of a busy chat's history page. */
const VALUE = { entries: Array.from({ length: 50 }, (_, i) => ({ id: `order-${i}-${"x".repeat(16)}`, status: "fulfilled", costSun: "9750000" })) };

async function benchOne(label: string, url: string, ops: number): Promise<void> {
  const logger = pino({ level: "silent" });
  const store = await openStore(url, { logger, purgeIntervalMs: 0 });
  const namespace = `bench-${randomBytes(4).toString("hex")}`;
  try {
    const kv = store.namespace(namespace);
    const records = createRecordStore({ kv, schema, version: 1, logger, name: "bench" });
    await records.set("r", VALUE);
    const baseline = `${label}: read + write (update before)`;
    await measureAsync("records", baseline, ops, 1, async () => {
      await kv.get("r");
      await kv.set("r", { v: 1, data: VALUE });
    });
    await measureAsync("records", `${label}: update (compare-and-set)`, ops, 1, () => records.update("r", (current) => current), baseline);
    await kv.clear();
  } finally {
    await store.close();
  }
}

export async function benchRecordUpdates(options: { ops: number; redisUrl: string | undefined; postgresUrl: string | undefined }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-records-"));
  try {
    await benchOne("sqlite", `sqlite://${join(dir, "bot.sqlite")}`, options.ops);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (options.redisUrl) await benchOne("redis", options.redisUrl, options.ops);
  if (options.postgresUrl) {
    const table = `bench_records_${randomBytes(4).toString("hex")}`;
    const url = new URL(options.postgresUrl);
    url.searchParams.set("table", table);
    try {
      await benchOne("postgres", url.toString(), options.ops);
    } finally {
      const pool = createPgPool(options.postgresUrl);
      await pool.query(`DROP TABLE IF EXISTS public.${table}`);
      await pool.query(`DROP TABLE IF EXISTS public.${table}_leases`);
      await pool.end();
    }
  }
}
