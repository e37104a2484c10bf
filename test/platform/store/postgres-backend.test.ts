import { describe, expect, it } from "vitest";
import { createPgPool, leaseTableOf } from "../../../src/platform/store/postgres-store.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { captureLogger, eventually, runId, withTable } from "./helpers.js";
import { describeStoreContract } from "./store-contract.js";

const url = process.env["TEST_POSTGRES_URL"];

// A table of its own per run: parallel runs on the shared server never meet, and cleanup is one DROP.
const table = `kv_${runId()}`;

describeStoreContract(
  "Postgres store backend",
  url
    ? {
        kind: "postgres",
        url: withTable(url, table),
        open: () => openStore(withTable(url, table), { logger: captureLogger().logger }),
        cleanup: async () => {
          const pool = createPgPool(url);
          try {
            await pool.query(`DROP TABLE IF EXISTS public.${table}`);
            await pool.query(`DROP TABLE IF EXISTS public.${table}_leases`);
          } finally {
            await pool.end();
          }
        },
      }
    : undefined,
  "TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)",
);

describe.skipIf(!url)("Postgres store start", () => {
  it("opens in every process that starts at once on a table none of them has created yet", async () => {
    const pool = createPgPool(url!);
    try {
      // Several rounds: which error the losers of the creation race see depends on the timing.
      for (let round = 0; round < 5; round += 1) {
        const fresh = `kv_race_${runId()}_${round}`;
        try {
          const opened = await Promise.allSettled(
            Array.from({ length: 8 }, () => openStore(withTable(url!, fresh), { logger: captureLogger().logger, purgeIntervalMs: 0 })),
          );
          const failures = opened.filter((r) => r.status === "rejected").map((r) => String((r.reason as Error).cause ?? r.reason));
          for (const r of opened) if (r.status === "fulfilled") await r.value.close();
          expect(failures).toEqual([]);
        } finally {
          await pool.query(`DROP TABLE IF EXISTS public.${fresh}`);
          await pool.query(`DROP TABLE IF EXISTS public.${fresh}_leases`);
        }
      }
    } finally {
      await pool.end();
    }
  });
});

describe.skipIf(!url)("Postgres store purge", () => {
  it("deletes expired rows on its timer and never a live value that merely mentions expires", async () => {
    const purgeTable = `kv_purge_${runId()}`;
    const pool = createPgPool(url!);
    const backend = await openStore(withTable(url!, purgeTable), { logger: captureLogger().logger, purgeIntervalMs: 20 });
    try {
      const kv = backend.namespace("p");
      await kv.set("short", "x", 30);
      await kv.set("nested", { expires: 5 });
      await kv.set("text", '"expires":5}');
      await kv.set("long", { n: 1 }, 600_000);
      const keys = async () => (await pool.query(`SELECT key FROM public.${purgeTable} ORDER BY key`)).rows.map((row) => row["key"]);
      await eventually(async () => (await keys()).length === 3);
      expect(await keys()).toEqual(["p:long", "p:nested", "p:text"]);
    } finally {
      await backend.close();
      await pool.query(`DROP TABLE IF EXISTS public.${purgeTable}`);
      await pool.end();
    }
  });

  it("deletes expired leases on the same timer and keeps live ones", async () => {
    const purgeTable = `kv_purge_${runId()}`;
    const pool = createPgPool(url!);
    const backend = await openStore(withTable(url!, purgeTable), { logger: captureLogger().logger, purgeIntervalMs: 20 });
    try {
      expect(await backend.claimLease("one-off", "mark", 30)).toBe(true);
      expect(await backend.claimLease("held", "owner", 600_000)).toBe(true);
      const keys = async () => (await pool.query(`SELECT key FROM public.${leaseTableOf(purgeTable)} ORDER BY key`)).rows.map((row) => row["key"]);
      await eventually(async () => (await keys()).length === 1);
      expect(await keys()).toEqual(["held"]);
    } finally {
      await backend.close();
      await pool.query(`DROP TABLE IF EXISTS public.${purgeTable}`);
      await pool.query(`DROP TABLE IF EXISTS public.${leaseTableOf(purgeTable)}`);
      await pool.end();
    }
  });
});
