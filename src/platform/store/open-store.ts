import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Keyv from "keyv";
import type { Logger } from "pino";
import { createKeyvKeyValue } from "./keyv-key-value.js";
import type { SessionLock } from "./postgres-store.js";
import { safeDeserialize, safeSerialize } from "./safe-serialize.js";
import { isStoreUnreachable } from "./store-outage.js";
import type { KeyListing, RawCas } from "./raw-cas.js";
import { openSqliteDatabase } from "./sqlite-store.js";
import type { KeyValue, StoreBackend, StoreKind } from "./types.js";

export interface OpenStoreDeps {
  logger: Logger;
  /** How often expired rows are deleted (SQLite, Postgres). Default 5 min; 0 disables. */
  purgeIntervalMs?: number;
  /** Time budget of one `ping()`. Default 2 s. */
  pingTimeoutMs?: number;
  /**
   * The deployment's STORAGE_PREFIX: `<prefix>/` goes before every namespace
   * and lease key, so two bots can share one Redis database, Postgres table or
   * SQLite file. Empty or absent: the keys as they always were.
   */
  prefix?: string;
}

const PREFIX = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** What goes before every key of a deployment: `<prefix>/`, or nothing. */
export function storageScope(prefix: string | undefined): string {
  if (prefix === undefined || prefix === "") return "";
  if (!PREFIX.test(prefix)) throw new Error(`invalid storage prefix ${JSON.stringify(prefix)}: use letters, digits, _ and -`);
  return `${prefix}/`;
}

export const DEFAULT_PURGE_INTERVAL_MS = 5 * 60_000;

/** Letters, digits, `_`, `.`, `-`: no `:` (keyv splits keys on it) and no glob/LIKE wildcards. */
const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** What each backend kind provides; the shared part lives in `openStore`. */
interface Driver {
  kind: StoreKind;
  /** A fresh keyv adapter for one namespace. */
  createAdapter(): RawCas & Partial<KeyListing>;
  /** Whether keyv must prefix keys with the namespace (the adapter does not namespace itself). */
  keyvPrefixesKeys: boolean;
  ping(): Promise<boolean>;
  purgeExpired?(): Promise<number>;
  claimLease(key: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLease(key: string, owner: string): Promise<void>;
  /** See `StoreBackend.holdForLifetime`; `name` already scoped. */
  holdForLifetime?(name: string, onLost: (error: Error) => void): Promise<boolean>;
  close(): Promise<void>;
  claimLeases(keys: readonly string[], owner: string, ttlMs: number): Promise<boolean[]>;
  releaseLeases(keys: readonly string[], owner: string): Promise<void>;
}

/** Redacts the password so a URL can appear in errors and logs. */
function describeUrl(url: string): string {
  return url.replace(/\/\/([^/@]*)@/, (_match, auth: string) => `//${auth.includes(":") ? `${auth.split(":")[0] ?? ""}:***` : auth}@`);
}

/**
 * `sqlite://data/bot.sqlite` (relative to the cwd), `sqlite:///abs/bot.sqlite`,
 * `sqlite://:memory:`; `redis://…`/`rediss://…`; `postgres://…`/`postgresql://…`
 * with an optional `?table=name` (default `keyv_store`).
 */
export async function openStore(url: string, deps: OpenStoreDeps): Promise<StoreBackend> {
  const logger = deps.logger.child({ component: "store" });
  const scope = storageScope(deps.prefix);
  const driver = await openDriver(url, logger, scope);
  const kv = new Map<string, KeyValue>();
  let closing: Promise<void> | undefined;

  const purgeIntervalMs = deps.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
  let purging = false;
  const purge = driver.purgeExpired?.bind(driver);
  const timer =
    purge && purgeIntervalMs > 0
      ? setInterval(() => {
          if (purging || closing) return;
          purging = true;
          purge()
            .then((removed) => {
              if (removed > 0) logger.debug({ removed }, "purged expired entries");
            })
            .catch((error: unknown) => logger.warn({ err: error }, "purging expired entries failed"))
            .finally(() => {
              purging = false;
            });
        }, purgeIntervalMs)
      : undefined;
  timer?.unref();

  logger.info({ kind: driver.kind, url: describeUrl(url) }, "store opened");

  return {
    kind: driver.kind,

    namespace(name: string): KeyValue {
      if (closing) throw new Error("store is closed");
      if (!NAMESPACE.test(name)) throw new Error(`invalid store namespace ${JSON.stringify(name)}`);
      const existing = kv.get(name);
      if (existing) return existing;
      const adapter = driver.createAdapter();
      const keyv = new Keyv({
        store: adapter,
        namespace: `${scope}${name}`,
        useKeyPrefix: driver.keyvPrefixesKeys,
        throwOnErrors: true,
        serialize: safeSerialize,
        deserialize: safeDeserialize,
      });
      // Operation failures are thrown to the caller; these events repeat them
      // or report background trouble already logged at the connection level.
      keyv.on("error", (error: unknown) => logger.debug({ err: error, namespace: name }, "store adapter error"));
      const value = createKeyvKeyValue({
        keyv,
        adapter,
        namespace: `${scope}${name}`,
        keyvPrefixesKeys: driver.keyvPrefixesKeys,
        isClosed: () => closing !== undefined,
      });
      kv.set(name, value);
      return value;
    },

    async ping(): Promise<boolean> {
      if (closing) return false;
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolveTimeout) => {
        timeout = setTimeout(() => resolveTimeout(false), deps.pingTimeoutMs ?? 2_000);
      });
      try {
        return await Promise.race([driver.ping().catch(() => false), timedOut]);
      } finally {
        clearTimeout(timeout);
      }
    },

    claimLease(key, owner, ttlMs) {
      if (closing) return Promise.reject(new Error("store is closed"));
      return driver.claimLease(key, owner, ttlMs);
    },

    releaseLease(key, owner) {
      if (closing) return Promise.reject(new Error("store is closed"));
      return driver.releaseLease(key, owner);
    },

    ...(driver.holdForLifetime && {
      holdForLifetime: (name: string, onLost: (error: Error) => void) => {
        if (closing) return Promise.reject(new Error("store is closed"));
        return driver.holdForLifetime!(`${scope}${name}`, onLost);
      },
    }),

    close(): Promise<void> {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        kv.clear();
        await driver.close();
        logger.info({ kind: driver.kind }, "store closed");
      })();
      return closing;
    },

    claimLeases(keys, owner, ttlMs) {
      if (closing) return Promise.reject(new Error("store is closed"));
      return driver.claimLeases(keys, owner, ttlMs);
    },

    releaseLeases(keys, owner) {
      if (closing) return Promise.reject(new Error("store is closed"));
      return driver.releaseLeases(keys, owner);
    },
  };
}

async function openDriver(url: string, logger: Logger, scope: string): Promise<Driver> {
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case "sqlite":
      return openSqliteDriver(url, logger, scope);
    case "redis":
    case "rediss":
      return openRedisDriver(url, logger, scope);
    case "postgres":
    case "postgresql":
      return openPostgresDriver(url, logger, scope);
    default:
      throw new Error(`unsupported store URL ${describeUrl(url)}: use sqlite://, redis://, rediss://, postgres://`);
  }
}

export function sqlitePathFromUrl(url: string, cwd = process.cwd()): string {
  const rest = url.slice("sqlite://".length);
  if (!url.toLowerCase().startsWith("sqlite://") || rest === "" || rest === "/") {
    throw new Error(`invalid SQLite store URL ${JSON.stringify(url)}: expected sqlite://relative/path or sqlite:///absolute/path`);
  }
  if (rest === ":memory:") return rest;
  return resolve(cwd, decodeURIComponent(rest));
}

function openSqliteDriver(url: string, logger: Logger, scope: string): Driver {
  const filename = sqlitePathFromUrl(url);
  if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true });
  const database = openSqliteDatabase(filename, {
    checkpoints: {
      onActive: (active) =>
        logger.info(active ? "store busy: its log is checkpointed from a thread" : "store quiet: its log is checkpointed on its own connection again"),
      onTrouble: (error) => logger.warn({ err: error }, "checkpoint thread failed; the store checkpoints on its own connection again"),
    },
  });
  return {
    kind: "sqlite",
    createAdapter: () => database.createStore(),
    keyvPrefixesKeys: false,
    // Synchronous calls wrapped so that a throw becomes a rejection.
    ping: () => new Promise((done) => done(database.ping())),
    purgeExpired: () => new Promise((done) => done(database.purgeExpired())),
    claimLease: (key, owner, ttlMs) => database.claimLease(`${scope}${key}`, owner, ttlMs),
    releaseLease: (key, owner) => database.releaseLease(`${scope}${key}`, owner),
    close: () => database.close(),
    claimLeases: (keys, owner, ttlMs) =>
      database.claimLeases(
        keys.map((key) => `${scope}${key}`),
        owner,
        ttlMs,
      ),
    releaseLeases: (keys, owner) =>
      database.releaseLeases(
        keys.map((key) => `${scope}${key}`),
        owner,
      ),
  };
}

// The Redis and Postgres drivers (and their clients) are loaded only when the URL asks for them: they cost start time and memory otherwise.
async function openRedisDriver(url: string, logger: Logger, scope: string): Promise<Driver> {
  const { claimRedisLease, claimRedisLeases, createRedisClient, RedisStore, releaseRedisLease, releaseRedisLeases } = await import("./redis-store.js");
  const client = createRedisClient({ url });
  // Each namespace's adapter adds its own listeners to the shared client.
  client.setMaxListeners(0);
  // Every reconnection attempt of an outage fails with one of these: the store watch tells the outage once.
  client.on("error", (error: unknown) => logger[isStoreUnreachable(error) ? "debug" : "warn"]({ err: error }, "redis connection error"));
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`cannot connect to Redis at ${describeUrl(url)}`, { cause: error });
  }
  return {
    kind: "redis",
    createAdapter: () => new RedisStore(client),
    keyvPrefixesKeys: false,
    ping: async () => client.isReady && (await client.ping()) === "PONG",
    // The scope goes first on Redis too (`<prefix>/lease:<key>`): every key of a deployment starts with it.
    claimLease: (key, owner, ttlMs) => claimRedisLease(client, `${scope}lease:${key}`, owner, ttlMs),
    releaseLease: (key, owner) => releaseRedisLease(client, `${scope}lease:${key}`, owner),
    close: async () => {
      // `close()` waits for queued commands, which never run while the server is down.
      if (client.isReady) await client.close();
      else if (client.isOpen) client.destroy();
    },
    claimLeases: (keys, owner, ttlMs) =>
      claimRedisLeases(
        client,
        keys.map((key) => `${scope}lease:${key}`),
        owner,
        ttlMs,
      ),
    releaseLeases: (keys, owner) =>
      releaseRedisLeases(
        client,
        keys.map((key) => `${scope}lease:${key}`),
        owner,
      ),
  };
}

/**
 * What Postgres answers the loser of two `CREATE … IF NOT EXISTS` run at once (processes starting
 * together on a fresh database): the winner's row in pg_type or pg_class is seen only after the
 * loser's own check, so the loser gets a unique violation (23505), "relation already exists"
 * (42P07) or "type already exists" (42710), depending on where the two met.
 */
const LOST_CREATE_RACE = new Set(["23505", "42P07", "42710"]);

/** Runs an idempotent `CREATE … IF NOT EXISTS`; after a lost race it runs it again, and then it finds what the winner made. */
async function createIfMissing(pool: { query(sql: string): Promise<unknown> }, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await pool.query(sql);
      return;
    } catch (error) {
      if (attempt >= 3 || !LOST_CREATE_RACE.has(String((error as { code?: unknown }).code))) throw error;
    }
  }
}

async function openPostgresDriver(url: string, logger: Logger, scope: string): Promise<Driver> {
  const {
    claimPostgresLease,
    claimPostgresLeases,
    createLeaseTableSql,
    createPgPool,
    DEFAULT_POSTGRES_TABLE,
    holdPostgresSessionLock,
    isValidPostgresTable,
    PostgresStore,
    purgeExpiredPostgres,
    releasePostgresLease,
    releasePostgresLeases,
  } = await import("./postgres-store.js");
  const parsed = new URL(url);
  const table = parsed.searchParams.get("table") ?? DEFAULT_POSTGRES_TABLE;
  if (!isValidPostgresTable(table)) {
    throw new Error(`invalid Postgres table name ${JSON.stringify(table)}: use lower-case letters, digits and _`);
  }
  parsed.searchParams.delete("table");
  const pool = createPgPool(parsed.toString());
  // An idle client losing its connection emits on the pool; unheard, it would crash the process.
  pool.on("error", (error) => logger[isStoreUnreachable(error) ? "debug" : "warn"]({ err: error }, "postgres connection error"));
  for (const sql of [`CREATE TABLE IF NOT EXISTS public.${table} (key VARCHAR(512) PRIMARY KEY, value TEXT)`, createLeaseTableSql(table)]) {
    try {
      await createIfMissing(pool, sql);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(`cannot open Postgres store at ${describeUrl(url)}`, { cause: error });
    }
  }
  const locks: SessionLock[] = [];
  return {
    kind: "postgres",
    createAdapter: () => new PostgresStore({ pool, table }),
    keyvPrefixesKeys: true,
    ping: async () => (await pool.query("SELECT 1 AS one")).rows[0]?.["one"] === 1,
    purgeExpired: () => purgeExpiredPostgres(pool, table),
    claimLease: (key, owner, ttlMs) => claimPostgresLease(pool, table, `${scope}${key}`, owner, ttlMs),
    releaseLease: (key, owner) => releasePostgresLease(pool, table, `${scope}${key}`, owner),
    // Per table too: two deployments with tables of their own are two stores.
    holdForLifetime: async (name, onLost) => {
      const lock = await holdPostgresSessionLock(pool, `${table}:${name}`, onLost);
      if (lock) locks.push(lock);
      return lock !== undefined;
    },
    close: async () => {
      // The pool waits for connections out of it; the locks' go first.
      for (const lock of locks.splice(0)) await lock.release();
      await pool.end();
    },
    claimLeases: async (keys, owner, ttlMs) => {
      const scoped = keys.map((key) => `${scope}${key}`);
      const held = await claimPostgresLeases(pool, table, scoped, owner, ttlMs);
      return scoped.map((key) => held.has(key));
    },
    releaseLeases: (keys, owner) =>
      releasePostgresLeases(
        pool,
        table,
        keys.map((key) => `${scope}${key}`),
        owner,
      ),
  };
}
