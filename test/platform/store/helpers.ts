import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createPgPool, leaseTableOf } from "../../../src/platform/store/postgres-store.js";
import { pino, type Logger } from "pino";
import type { KeyValue } from "../../../src/platform/store/types.js";
import { waitUntil } from "../../support/wait.js";

export interface CapturedLogger {
  logger: Logger;
  records(): Array<Record<string, unknown>>;
}

/** A real pino logger writing synchronously into an array. */
export function captureLogger(level = "debug"): CapturedLogger {
  const lines: string[] = [];
  const logger = pino(
    { level },
    {
      write(chunk: string) {
        for (const line of chunk.split("\n")) if (line) lines.push(line);
      },
    },
  );
  return { logger, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A prefix unique to this test run, so parallel runs on a shared server never meet. */
export function runId(): string {
  return `t${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
}

/** Waits until `check` returns true; fails after `timeoutMs` (a deadline, not a timing assertion). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  await waitUntil(check, { timeoutMs });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** `base` (a Postgres URL) with a table of its own. */
export function withTable(base: string, table: string): string {
  const parsed = new URL(base);
  parsed.searchParams.set("table", table);
  return parsed.toString();
}

export interface StoreTargetUrl {
  label: "SQLite" | "Redis" | "Postgres";
  /** Undefined when its TEST_*_URL is not set: the suite skips it. */
  url: string | undefined;
  skip: string;
  /** Drops what the run created (Postgres: its table and lease table). */
  cleanup?: () => Promise<void>;
}

/**
 * The three backends a store test runs on: a SQLite file in a temporary
 * folder (removed after the file's tests), the Redis of TEST_REDIS_URL, and a
 * Postgres table named `<name>_<run>` of its own.
 */
export function storeTargets(name: string): StoreTargetUrl[] {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pgUrl = process.env["TEST_POSTGRES_URL"] || undefined;
  const pgTable = `${name.replace(/-/g, "_")}_${runId()}`;
  return [
    { label: "SQLite", url: `sqlite://${join(dir, "bot.sqlite")}`, skip: "never skipped" },
    { label: "Redis", url: process.env["TEST_REDIS_URL"] || undefined, skip: "TEST_REDIS_URL is not set" },
    {
      label: "Postgres",
      url: pgUrl === undefined ? undefined : withTable(pgUrl, pgTable),
      skip: "TEST_POSTGRES_URL is not set",
      cleanup: async () => {
        const pool = createPgPool(pgUrl!);
        try {
          await pool.query(`DROP TABLE IF EXISTS public.${pgTable}`);
          await pool.query(`DROP TABLE IF EXISTS public.${leaseTableOf(pgTable)}`);
        } finally {
          await pool.end();
        }
      },
    },
  ];
}

/** The namespace with each read (`get`, `getVersioned`) told to `onRead`: what an operation costs the store. */
export function countingReads(kv: KeyValue, onRead: () => void): KeyValue {
  return {
    ...kv,
    get: (key) => {
      onRead();
      return kv.get(key);
    },
    getVersioned: (key) => {
      onRead();
      return kv.getVersioned(key);
    },
    set: (key, value, ttl) => kv.set(key, value, ttl),
    delete: (key) => kv.delete(key),
    entries: () => kv.entries(),
    clear: () => kv.clear(),
  };
}
