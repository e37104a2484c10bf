import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import KeyvPostgres from "@keyv/postgres";
import type { RawCas } from "./raw-cas.js";

/**
 * @keyv/postgres 2.2.3 keeps ONE module-global pg pool keyed by URI and its
 * `disconnect()` ends whichever pool is current, so two backends in one
 * process (a test reopening the store, two apps in one test) would close or
 * orphan each other's pool. Here every backend owns its pool and the stores
 * borrow it. `pg` is resolved from @keyv/postgres itself so we use the very
 * copy it was built against (pg is not a direct dependency).
 */

interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

export interface PgPool extends PgQueryable {
  /** A connection of one's own, out of the pool until released. */
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

interface PgPoolClient extends PgQueryable {
  /** `true` closes the connection instead of returning it to the pool. */
  release(destroy?: boolean): void;
  on(event: "error" | "end", listener: (error?: Error) => void): unknown;
}

interface PgModule {
  Pool: new (config: {
    connectionString: string;
    max?: number;
    connectionTimeoutMillis?: number;
    idleTimeoutMillis?: number;
    application_name?: string;
  }) => PgPool;
}

export function createPgPool(connectionString: string): PgPool {
  const require = createRequire(import.meta.url);
  const pg = createRequire(require.resolve("@keyv/postgres"))("pg") as PgModule;
  // The bot's sessions are named in pg_stat_activity; `?application_name=` in the URL names them otherwise.
  return new pg.Pool({ connectionString, max: 5, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, application_name: "tron-energy-bot" });
}

export const DEFAULT_POSTGRES_TABLE = "keyv_store";
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function isValidPostgresTable(name: string): boolean {
  return TABLE_NAME.test(name);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/**
 * Deletes rows whose keyv envelope has expired. Keyv serializes
 * `{"value":…,"expires":<ms>}` with `expires` last; the anchored pattern can
 * only match that top-level field because no JSON value ends in `<digits>`
 * followed by a single closing brace of the envelope.
 */
export async function purgeExpiredPostgres(pool: PgPool, table: string, now = Date.now()): Promise<number> {
  const pattern = '"expires":([0-9]{1,16})}$';
  const result = await pool.query(`DELETE FROM public.${table} WHERE value ~ $1 AND substring(value from $1)::bigint <= $2`, [pattern, now]);
  // Expired claims are free anyway; without this, one-off keys (a webhook update's seen mark) pile up.
  const leases = await pool.query(`DELETE FROM public.${leaseTableOf(table)} WHERE expires_at <= $1`, [now]);
  return (result.rowCount ?? 0) + (leases.rowCount ?? 0);
}

/** The leases of a store table live in `<table>_leases`; created with the table. */
export const leaseTableOf = (table: string): string => `${table}_leases`;

export function createLeaseTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS public.${leaseTableOf(table)} (key VARCHAR(512) PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)`;
}

/**
 * One upsert: its WHERE makes "free, expired or mine" and the write a single
 * atomic step. Time is the server's clock, the same for every process.
 */
export async function claimPostgresLease(pool: PgPool, table: string, key: string, owner: string, ttlMs: number): Promise<boolean> {
  const t = leaseTableOf(table);
  const result = await pool.query(
    `WITH now_ms AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
     INSERT INTO public.${t} (key, owner, expires_at) SELECT $1, $2, ms + $3 FROM now_ms
     ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
     WHERE ${t}.owner = EXCLUDED.owner OR ${t}.expires_at <= (SELECT ms FROM now_ms)`,
    [key, owner, Math.max(1, Math.trunc(ttlMs))],
  );
  return result.rowCount === 1;
}

/**
 * `claimPostgresLease` for many keys in one statement. The keys go in sorted
 * and once each, so two processes renewing overlapping sets lock rows in the
 * same order (no deadlock) and no row is upserted twice.
 */
export async function claimPostgresLeases(pool: PgPool, table: string, keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
  const t = leaseTableOf(table);
  const unique = [...new Set(keys)].sort();
  if (unique.length === 0) return new Set();
  const result = await pool.query(
    `WITH now_ms AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
     INSERT INTO public.${t} (key, owner, expires_at) SELECT k, $2, ms + $3 FROM unnest($1::text[]) WITH ORDINALITY AS u(k, n), now_ms ORDER BY n
     ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
     WHERE ${t}.owner = EXCLUDED.owner OR ${t}.expires_at <= (SELECT ms FROM now_ms)
     RETURNING key`,
    [unique, owner, Math.max(1, Math.trunc(ttlMs))],
  );
  return new Set(result.rows.map((row) => String(row["key"])));
}

export async function releasePostgresLease(pool: PgPool, table: string, key: string, owner: string): Promise<void> {
  await pool.query(`DELETE FROM public.${leaseTableOf(table)} WHERE key = $1 AND owner = $2`, [key, owner]);
}

/** `releasePostgresLease` for many keys in one statement. */
export async function releasePostgresLeases(pool: PgPool, table: string, keys: readonly string[], owner: string): Promise<void> {
  if (keys.length === 0) return;
  await pool.query(`DELETE FROM public.${leaseTableOf(table)} WHERE key = ANY($1::text[]) AND owner = $2`, [[...keys], owner]);
}

/** A lock name as the 64-bit key Postgres advisory locks take (first 8 bytes of its SHA-256, signed). */
function advisoryKey(name: string): string {
  return createHash("sha256").update(name).digest().readBigInt64BE(0).toString();
}

/** A session advisory lock: held by the connection, so a crashed or killed holder loses it at once. */
export interface SessionLock {
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock `name` on a connection of its own, kept out
 * of the pool (an idle pooled connection would be closed, and the lock with
 * it). Undefined when another session holds it. `onLost` hears when that
 * connection breaks: the lock is gone from then on.
 */
export async function holdPostgresSessionLock(pool: PgPool, name: string, onLost: (error: Error) => void): Promise<SessionLock | undefined> {
  const client = await pool.connect();
  let released = false;
  const lost = (error?: Error) => {
    if (released) return;
    released = true;
    // Back to the pool as broken: kept out, it would hold one of the pool's few places for good.
    client.release(true);
    onLost(error ?? new Error("the Postgres connection holding the lock closed"));
  };
  client.on("error", lost);
  client.on("end", lost);
  const key = advisoryKey(name);
  let held: unknown;
  try {
    held = (await client.query("SELECT pg_try_advisory_lock($1::bigint) AS held", [key])).rows[0]?.["held"];
  } catch (error) {
    released = true;
    client.release(true);
    throw error;
  }
  if (held !== true) {
    released = true;
    client.release(true);
    return undefined;
  }
  return {
    release: () => {
      if (released) return Promise.resolve();
      released = true;
      // Closing the session ends the lock with it; no unlock round trip to wait for.
      client.release(true);
      return Promise.resolve();
    },
  };
}

interface PostgresStoreOptions {
  pool: PgPool;
  table: string;
  keySize?: number;
}

/** One per Keyv namespace (keyv writes `namespace`); keys are prefixed `ns:` by keyv. */
export class PostgresStore extends KeyvPostgres implements RawCas {
  private readonly table: string;

  constructor({ pool, table, keySize = 512 }: PostgresStoreOptions) {
    // `uri` is never used to connect: `connect()` below hands out `pool`.
    super({ uri: "postgresql://owned-pool", table, keySize, pool } as ConstructorParameters<typeof KeyvPostgres>[0]);
    this.table = table;
  }

  // Called from the base constructor, before our own fields exist: it may read only `this.opts`.
  override connect(): Promise<(sql: string, values?: unknown) => Promise<unknown[]>> {
    const pool = (this.opts as { pool: PgPool }).pool;
    return Promise.resolve(async (sql: string, values?: unknown) => (await pool.query(sql, values as unknown[] | undefined)).rows);
  }

  /** The pool belongs to the backend, which ends it once. */
  override async disconnect(): Promise<void> {}

  /** The base version leaves `_`/`%` in the namespace unescaped in its LIKE. */
  override async clear(): Promise<void> {
    const pattern = this.namespace ? `${escapeLike(this.namespace)}:%` : "%";
    await this.query(`DELETE FROM public.${this.table} WHERE key LIKE $1 ESCAPE '\\'`, [pattern]);
  }

  async readRaw(key: string): Promise<string | undefined> {
    const rows = (await this.query(`SELECT value FROM public.${this.table} WHERE key = $1`, [key])) as Array<{ value: string | null }>;
    return rows[0]?.value ?? undefined;
  }

  /**
   * One statement each. Under READ COMMITTED a concurrent UPDATE waits for the
   * row lock, then re-checks its WHERE on the row as committed: one writer wins.
   * Expiry lives in keyv's envelope inside the text (`ttlMs` is not needed here).
   */
  async swapRaw(key: string, expected: string | undefined, next: string | undefined): Promise<boolean> {
    const t = `public.${this.table}`;
    let rows: unknown[];
    if (expected === undefined) {
      if (next === undefined) return true;
      rows = await this.query(`INSERT INTO ${t} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING 1`, [key, next]);
    } else if (next === undefined) {
      rows = await this.query(`DELETE FROM ${t} WHERE key = $1 AND value = $2 RETURNING 1`, [key, expected]);
    } else {
      rows = await this.query(`UPDATE ${t} SET value = $3 WHERE key = $1 AND value = $2 RETURNING 1`, [key, expected, next]);
    }
    return rows.length === 1;
  }

  /** The base version swallows query errors and ends early; a partial listing must not look complete. */
  override async *iterator(namespace?: string): AsyncGenerator<string[], void, unknown> {
    const pattern = namespace ? `${escapeLike(namespace)}:%` : "%";
    const limit = 200;
    let lastKey: string | null = null;
    for (;;) {
      const rows = (await this.query(
        `SELECT key, value FROM public.${this.table}
         WHERE key LIKE $1 ESCAPE '\\' AND ($2::text IS NULL OR key > $2) ORDER BY key LIMIT $3`,
        [pattern, lastKey, limit],
      )) as Array<{ key: string; value: string }>;
      for (const row of rows) yield [row.key, row.value];
      const last = rows.at(-1);
      if (last === undefined || rows.length < limit) return;
      lastKey = last.key;
    }
  }
}
