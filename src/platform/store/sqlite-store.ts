import { EventEmitter } from "node:events";
import Database from "better-sqlite3";
import type { KeyListing, RawCas } from "./raw-cas.js";
import { offloadCheckpoints, type CheckpointOptions } from "./sqlite-checkpoints.js";
import { BUSY_ATTEMPT_MS, DEFAULT_BUSY_BUDGET_MS, withRetry } from "./sqlite-calls.js";

/**
 * A keyv store over better-sqlite3. Keyv owns serialization and checks
 * `expires` inside the value on read; this store additionally keeps the
 * expiry in its own column so expired rows can be skipped in SQL and purged.
 *
 * Namespacing is done here (a column), not by keyv's key prefix: open the
 * Keyv with `useKeyPrefix: false`. Keyv writes `store.namespace`, so use one
 * `SqliteStore` per Keyv namespace; they share one `SqliteDatabase`.
 */

const PAGE_SIZE = 200;
/** Keys are short: a page of them is a few kilobytes. */
const KEY_PAGE_SIZE = 1_000;
/** SQLite's page cache per connection, in KiB (see openSqliteDatabase). */
const PAGE_CACHE_KIB = 4_000;

interface Row {
  key: string;
  value: string;
}

export interface SqliteDatabase {
  /** Absolute path, or ":memory:". */
  readonly filename: string;
  createStore(): SqliteStore;
  /** Deletes every expired row of every namespace; returns how many. */
  purgeExpired(now?: number): number;
  ping(): boolean;
  /** See `StoreBackend.claimLease`: one upsert statement, so atomic across processes sharing the file. */
  claimLease(key: string, owner: string, ttlMs: number, now?: number): Promise<boolean>;
  releaseLease(key: string, owner: string): Promise<void>;
  /** Idempotent. Stores created from it fail afterwards. */
  close(): Promise<void>;
  /** Whether a thread of its own runs the checkpoints now (see sqlite-checkpoints.ts). */
  readonly checkpointsOffloaded: boolean;
  /** The log's size, in pages, at which this connection checkpoints by itself. */
  readonly autocheckpointPages: number;
  readonly open: boolean;
  /** See `StoreBackend.claimLeases`: every claim in one transaction (one commit). */
  claimLeases(keys: readonly string[], owner: string, ttlMs: number, now?: number): Promise<boolean[]>;
  /** See `StoreBackend.releaseLeases`: every release in one transaction. */
  releaseLeases(keys: readonly string[], owner: string): Promise<void>;
}

function prepareStatements(db: Database.Database) {
  const set = db.prepare<[string, string, string, number | null]>(
    `INSERT INTO keyv_entries (namespace, key, value, expires) VALUES (?, ?, ?, ?)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
  );
  return {
    get: db.prepare<[string, string, number], { value: string }>(
      "SELECT value FROM keyv_entries WHERE namespace = ? AND key = ? AND (expires IS NULL OR expires > ?)",
    ),
    getMany: db.prepare<[string, string, number], Row>(
      `SELECT key, value FROM keyv_entries
       WHERE namespace = ? AND key IN (SELECT value FROM json_each(?)) AND (expires IS NULL OR expires > ?)`,
    ),
    set,
    // One transaction: one commit (and one WAL append) for the whole batch, all rows or none.
    setMany: db.transaction((ns: string, rows: readonly (readonly [key: string, text: string, expires: number | null])[]) => {
      for (const [key, text, expires] of rows) set.run(ns, key, text, expires);
    }),
    delete: db.prepare<[string, string]>("DELETE FROM keyv_entries WHERE namespace = ? AND key = ?"),
    deleteMany: db.prepare<[string, string]>("DELETE FROM keyv_entries WHERE namespace = ? AND key IN (SELECT value FROM json_each(?))"),
    clear: db.prepare<[string]>("DELETE FROM keyv_entries WHERE namespace = ?"),
    has: db.prepare<[string, string, number], { one: number }>(
      "SELECT 1 AS one FROM keyv_entries WHERE namespace = ? AND key = ? AND (expires IS NULL OR expires > ?)",
    ),
    // Keyset pagination: an open better-sqlite3 iterator would block the
    // connection, and keyv deletes expired entries while it iterates.
    // Two statements, not `(@after IS NULL OR key > @after)`: SQLite cannot seek the primary key on
    // that OR, so every page scanned the namespace from its start (quadratic in its size).
    firstPage: db.prepare<[{ ns: string; now: number; limit: number }], Row>(
      `SELECT key, value FROM keyv_entries
       WHERE namespace = @ns AND (expires IS NULL OR expires > @now)
       ORDER BY key LIMIT @limit`,
    ),
    nextPage: db.prepare<[{ ns: string; after: string; now: number; limit: number }], Row>(
      `SELECT key, value FROM keyv_entries
       WHERE namespace = @ns AND key > @after AND (expires IS NULL OR expires > @now)
       ORDER BY key LIMIT @limit`,
    ),
    // The keys alone, paged the same way: a listing that needs no values builds no strings for them.
    firstKeys: db
      .prepare<[{ ns: string; now: number; limit: number }], string>(
        `SELECT key FROM keyv_entries
         WHERE namespace = @ns AND (expires IS NULL OR expires > @now)
         ORDER BY key LIMIT @limit`,
      )
      .pluck(),
    nextKeys: db
      .prepare<[{ ns: string; after: string; now: number; limit: number }], string>(
        `SELECT key FROM keyv_entries
         WHERE namespace = @ns AND key > @after AND (expires IS NULL OR expires > @now)
         ORDER BY key LIMIT @limit`,
      )
      .pluck(),
    purge: db.prepare<[number]>("DELETE FROM keyv_entries WHERE expires IS NOT NULL AND expires <= ?"),
    // Expired claims are free anyway; without this, one-off keys (a webhook update's seen mark) pile up.
    purgeLeases: db.prepare<[number]>("DELETE FROM leases WHERE expires <= ?"),
    ping: db.prepare<[], { one: number }>("SELECT 1 AS one"),
    // The WHERE of the upsert makes "free, expired or mine" and the write one atomic step.
    claimLease: db.prepare<[{ key: string; owner: string; now: number; ttl: number }]>(
      `INSERT INTO leases (key, owner, expires) VALUES (@key, @owner, @now + @ttl)
       ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
       WHERE leases.owner = excluded.owner OR leases.expires <= @now`,
    ),
    releaseLease: db.prepare<[string, string]>("DELETE FROM leases WHERE key = ? AND owner = ?"),
    // Compare-and-set on the stored text (RawCas); expired rows included, the caller decides what they mean.
    getRaw: db.prepare<[string, string], { value: string }>("SELECT value FROM keyv_entries WHERE namespace = ? AND key = ?"),
    insertNew: db.prepare<[string, string, string, number | null]>(
      "INSERT INTO keyv_entries (namespace, key, value, expires) VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO NOTHING",
    ),
    replaceIf: db.prepare<[string, number | null, string, string, string]>(
      "UPDATE keyv_entries SET value = ?, expires = ? WHERE namespace = ? AND key = ? AND value = ?",
    ),
    deleteIf: db.prepare<[string, string, string]>("DELETE FROM keyv_entries WHERE namespace = ? AND key = ? AND value = ?"),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

export interface SqliteOptions {
  busyBudgetMs?: number;
  /** Checkpoints in a thread of their own while the store is busy (see sqlite-checkpoints.ts); false: never. */
  checkpoints?: CheckpointOptions | false;
}

/** Opens (creating if needed) the database file; the parent directory must exist. */
export function openSqliteDatabase(filename: string, options: SqliteOptions = {}): SqliteDatabase {
  const budgetMs = options.busyBudgetMs ?? DEFAULT_BUSY_BUDGET_MS;
  const db = new Database(filename);
  try {
    // Start-up may wait (nothing is served yet); afterwards waits are short, see BUSY_ATTEMPT_MS.
    db.pragma(`busy_timeout = ${DEFAULT_BUSY_BUDGET_MS}`);
    if (filename !== ":memory:") db.pragma("journal_mode = WAL");
    // WAL + NORMAL survives process crashes; only an OS crash can lose the last commits.
    db.pragma("synchronous = NORMAL");
    // better-sqlite3 builds SQLite with a 16 MB page cache. A sweep over 100,000 chat records fills
    // it within a minute, a sixth of the bot's memory, for pages read once. The hot pages (the
    // B-trees' upper levels, the inbox) fit in 4 MB, and the OS page cache keeps the file.
    db.pragma(`cache_size = ${-PAGE_CACHE_KIB}`);
    db.exec(`
      CREATE TABLE IF NOT EXISTS keyv_entries (
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        expires INTEGER,
        PRIMARY KEY (namespace, key)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS keyv_entries_expires ON keyv_entries (expires) WHERE expires IS NOT NULL;
      CREATE TABLE IF NOT EXISTS leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID;
    `);
    db.pragma(`busy_timeout = ${BUSY_ATTEMPT_MS}`);
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = prepareStatements(db);
  const checkpoints = filename === ":memory:" || options.checkpoints === false ? undefined : offloadCheckpoints(db, filename, options.checkpoints);
  // Each statement's time on the loop tells the checkpoints when the store is busy.
  const timed = checkpoints
    ? <T>(fn: () => T) =>
        () => {
          const startedAt = performance.now();
          try {
            return fn();
          } finally {
            checkpoints.noteBusy(performance.now() - startedAt);
          }
        }
    : <T>(fn: () => T) => fn;
  const later = <T>(fn: () => T): Promise<T> => withRetry(timed(fn), budgetMs);
  const claimAll = db.transaction((keys: readonly string[], owner: string, now: number, ttl: number) =>
    keys.map((key) => statements.claimLease.run({ key, owner, now, ttl }).changes === 1),
  );
  const releaseAll = db.transaction((keys: readonly string[], owner: string) => {
    for (const key of keys) statements.releaseLease.run(key, owner);
  });

  const database: SqliteDatabase = {
    filename,
    createStore: () => new SqliteStore(statements, database, later),
    purgeExpired: (now = Date.now()) => statements.purge.run(now).changes + statements.purgeLeases.run(now).changes,
    ping: () => db.open && statements.ping.get()?.one === 1,
    claimLease: (key, owner, ttlMs, now) =>
      later(() => statements.claimLease.run({ key, owner, now: now ?? Date.now(), ttl: Math.max(1, Math.trunc(ttlMs)) }).changes === 1),
    releaseLease: (key, owner) =>
      later(() => {
        statements.releaseLease.run(key, owner);
      }),
    async close() {
      // The thread first: it closes its connection, and the main one, closing last, checkpoints what is left.
      await checkpoints?.close();
      if (db.open) db.close();
    },
    get open() {
      return db.open;
    },
    get checkpointsOffloaded() {
      return checkpoints?.active ?? false;
    },
    get autocheckpointPages() {
      return db.pragma("wal_autocheckpoint", { simple: true }) as number;
    },
    claimLeases: (keys, owner, ttlMs, now) => later(() => claimAll(keys, owner, now ?? Date.now(), Math.max(1, Math.trunc(ttlMs)))),
    releaseLeases: (keys, owner) => later(() => releaseAll(keys, owner)),
  };
  return database;
}

export class SqliteStore extends EventEmitter implements RawCas, KeyListing {
  /** Written by keyv; undefined maps to the "" namespace. */
  namespace: string | undefined;
  /** Keyv reads `opts.dialect` to decide that this store can iterate. */
  readonly opts: { readonly dialect: "sqlite"; readonly url: string };
  readonly ttlSupport = true;

  constructor(
    private readonly statements: Statements,
    private readonly database: SqliteDatabase,
    private readonly later: <T>(fn: () => T) => Promise<T>,
  ) {
    super();
    this.opts = { dialect: "sqlite", url: `sqlite://${database.filename}` };
  }

  private get ns(): string {
    return this.namespace ?? "";
  }

  get(key: string): Promise<string | undefined> {
    return this.later(() => this.statements.get.get(this.ns, key, Date.now())?.value);
  }

  getMany(keys: string[]): Promise<Array<string | undefined>> {
    return this.later(() => {
      if (keys.length === 0) return [];
      const rows = this.statements.getMany.all(this.ns, JSON.stringify(keys), Date.now());
      const byKey = new Map(rows.map((row) => [row.key, row.value]));
      return keys.map((key) => byKey.get(key));
    });
  }

  set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    return this.later(() => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const expires = typeof ttl === "number" && ttl > 0 ? Date.now() + ttl : null;
      this.statements.set.run(this.ns, key, text, expires);
      return true;
    });
  }

  /** Keyv hands over serialized entries; all of them are written in one transaction. */
  setMany(entries: ReadonlyArray<{ key: string; value: unknown; ttl?: number }>): Promise<boolean[]> {
    return this.later(() => {
      const now = Date.now();
      const rows = entries.map(({ key, value, ttl }) => {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        return [key, text, typeof ttl === "number" && ttl > 0 ? now + ttl : null] as const;
      });
      this.statements.setMany(this.ns, rows);
      return rows.map(() => true);
    });
  }

  delete(key: string): Promise<boolean> {
    return this.later(() => this.statements.delete.run(this.ns, key).changes > 0);
  }

  deleteMany(keys: string[]): Promise<boolean> {
    return this.later(() => keys.length > 0 && this.statements.deleteMany.run(this.ns, JSON.stringify(keys)).changes > 0);
  }

  /** Only this store's namespace. */
  clear(): Promise<void> {
    return this.later(() => {
      this.statements.clear.run(this.ns);
    });
  }

  has(key: string): Promise<boolean> {
    return this.later(() => this.statements.has.get(this.ns, key, Date.now()) !== undefined);
  }

  async *iterator(namespace?: string): AsyncGenerator<[string, string], void> {
    const ns = namespace ?? this.ns;
    const pages = this.pages(
      (after) =>
        after === null
          ? this.statements.firstPage.all({ ns, now: Date.now(), limit: PAGE_SIZE })
          : this.statements.nextPage.all({ ns, after, now: Date.now(), limit: PAGE_SIZE }),
      (row) => row.key,
      PAGE_SIZE,
    );
    for await (const rows of pages) for (const row of rows) yield [row.key, row.value];
  }

  /** The live keys of this store's namespace, a page at a time, without their values (KeyListing). */
  keyPages(): AsyncGenerator<string[], void> {
    const ns = this.ns;
    return this.pages(
      (after) =>
        after === null
          ? this.statements.firstKeys.all({ ns, now: Date.now(), limit: KEY_PAGE_SIZE })
          : this.statements.nextKeys.all({ ns, after, now: Date.now(), limit: KEY_PAGE_SIZE }),
      (key) => key,
      KEY_PAGE_SIZE,
    );
  }

  /** Keyset pagination: each page (never empty) starts after the last key of the one before; a short page is the last. */
  private async *pages<T>(read: (after: string | null) => T[], keyOf: (row: T) => string, size: number): AsyncGenerator<T[], void> {
    let after: string | null = null;
    for (;;) {
      const from: string | null = after;
      const rows = await this.later(() => read(from));
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (last === undefined || rows.length < size) return;
      after = keyOf(last);
    }
  }

  readRaw(key: string): Promise<string | undefined> {
    return this.later(() => this.statements.getRaw.get(this.ns, key)?.value);
  }

  /** One statement each, so atomic across processes sharing the file. */
  swapRaw(key: string, expected: string | undefined, next: string | undefined, ttlMs: number | undefined): Promise<boolean> {
    return this.later(() => {
      const expires = ttlMs === undefined ? null : Date.now() + ttlMs;
      if (expected === undefined) return next === undefined || this.statements.insertNew.run(this.ns, key, next, expires).changes === 1;
      if (next === undefined) return this.statements.deleteIf.run(this.ns, key, expected).changes === 1;
      return this.statements.replaceIf.run(next, expires, this.ns, key, expected).changes === 1;
    });
  }

  /** Removes expired rows of all namespaces sharing this database. */
  purgeExpired(now = Date.now()): number {
    return this.database.purgeExpired(now);
  }
}
