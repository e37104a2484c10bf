import type { Logger } from "pino";
import { z } from "zod";
import { getMany } from "./batch.js";
import { createKeyedMutex } from "./keyed-mutex.js";
import type { ReadMemo } from "./read-memo.js";
import { retryOnConflict } from "./retry-conflicts.js";
import type { KeyValue } from "./types.js";

export { RecordConflictError } from "./retry-conflicts.js";

/**
 * Typed records over one `KeyValue` namespace (the record store should own
 * the namespace: `list()` reads every entry of it). Each value is stored as
 * `{ v: version, data }` and checked with zod on every read; anything that
 * does not fit is reported and read as absent, so a bad row costs one record,
 * never the bot. Values must be JSON-compatible (no bigint, no Map).
 */
export interface RecordStoreDeps<T> {
  kv: KeyValue;
  schema: z.ZodType<T>;
  /** Bump when the shape changes incompatibly; older records then read as absent. */
  version: number;
  logger: Logger;
  /** Names the store in logs ("links", "orders"). */
  name: string;
  onCorrupt?: (event: CorruptRecordEvent) => void;
  /** Tries of one `update` against writers in other processes before it gives up. Default 25. */
  maxAttempts?: number;
  /** Reads answered once per unit of work (`read-memo.ts`); only for records whose readers act on one read. */
  memo?: ReadMemo;
  /**
   * Records kept across units of work, the `maxEntries` written or read twice last: only for a store this process alone
   * writes (the local queue mode holds the store; a maintenance command writes with `update`, which reads the store)
   * and for records without an expiry: such a store refuses a write with `ttlMs`, which it could serve past its end.
   */
  cache?: { maxEntries: number };
}

/**
 * How a repository saves reads: once per unit of work on a store other processes write too (`memo`), across units
 * on a store this process alone writes (`cache`). Every record store over one namespace must get the same choice,
 * and a cached namespace must have one record store in the process: the cache sees only its own store's writes.
 */
export type RecordReads = Pick<RecordStoreDeps<unknown>, "memo" | "cache">;

export interface CorruptRecordEvent {
  name: string;
  id: string;
  reason: "not-json" | "not-an-envelope" | "wrong-version" | "schema-mismatch";
  /** The version found in the envelope, when there is one. */
  foundVersion?: number;
}

export type RecordUpdater<T> = (current: T | undefined) => T | undefined | Promise<T | undefined>;

export interface RecordStore<T> {
  get(id: string): Promise<T | undefined>;
  /** Refuses (throws) a value the schema rejects rather than storing a record it could not read back. */
  set(id: string, value: T, ttlMs?: number): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Valid records only; corrupt ones are reported and skipped. */
  list(): AsyncIterable<[id: string, value: T]>;
  /** The ids of the stored records, valid or not, a page at a time, without reading the records where the store can (SQLite, Redis). */
  idPages(): AsyncIterable<string[]>;
  /** `get` of several ids in one store round trip where the store offers it; each position is `get`'s answer. */
  getMany(ids: readonly string[]): Promise<Array<T | undefined>>;
  /**
   * Read-modify-write, atomic across every process on the store: serialized
   * per id within this process, and written only if nobody else wrote the
   * record since it was read; otherwise read and `fn` run again (so `fn` must
   * only compute, or do what is harmless twice). Throws `RecordConflictError`
   * when the tries run out. Returning undefined deletes the record. The write
   * has no expiry unless `ttlMs` is given.
   */
  update(id: string, fn: RecordUpdater<T>, ttlMs?: number): Promise<T | undefined>;
  /** Corrupt or wrong-version records met so far. */
  readonly corruptCount: number;
}

const envelopeSchema = z.object({ v: z.number(), data: z.unknown() });

export function createRecordStore<T>(deps: RecordStoreDeps<T>): RecordStore<T> {
  const { kv, schema, version, name } = deps;
  const logger = deps.logger.child({ recordStore: name });
  const mutex = createKeyedMutex();
  let corruptCount = 0;

  function report(event: Omit<CorruptRecordEvent, "name">, issues?: unknown): undefined {
    corruptCount += 1;
    logger.warn({ name, id: event.id, reason: event.reason, foundVersion: event.foundVersion, issues }, "unreadable record treated as absent");
    deps.onCorrupt?.({ name, ...event });
    return undefined;
  }

  function decode(id: string, stored: unknown): T | undefined {
    if (stored === undefined) return undefined;
    const envelope = envelopeSchema.safeParse(stored);
    if (!envelope.success) {
      report({ id, reason: "not-an-envelope" });
      return undefined;
    }
    if (envelope.data.v !== version) {
      report({ id, reason: "wrong-version", foundVersion: envelope.data.v });
      return undefined;
    }
    const parsed = schema.safeParse(envelope.data.data);
    if (!parsed.success) {
      report({ id, reason: "schema-mismatch" }, z.flattenError(parsed.error).fieldErrors);
      return undefined;
    }
    return parsed.data;
  }

  const cache = deps.cache === undefined ? undefined : createRecordCache<T>(deps.cache.maxEntries);

  async function get(id: string): Promise<T | undefined> {
    const memo = deps.memo?.of(name);
    if (memo === undefined) return readThrough(id);
    const started = memo.begin(id);
    if (started.known) return started.value as T | undefined;
    const value = await readThrough(id);
    started.settle(value);
    return value;
  }

  function wrote(id: string, value: T | undefined): void {
    deps.memo?.of(name)?.wrote(id, value);
    cache?.put(id, value);
  }

  function refuseExpiry(ttlMs: number | undefined): void {
    if (cache !== undefined && ttlMs !== undefined)
      throw new TypeError(`record store ${name} keeps its records in memory: a record with an expiry does not belong in it`);
  }

  async function readThrough(id: string): Promise<T | undefined> {
    if (cache === undefined) return read(id);
    const hit = cache.get(id);
    if (hit.known) return hit.value;
    const writes = cache.writes;
    const value = await read(id);
    cache.putRead(id, value, writes);
    return value;
  }

  async function readManyThrough(ids: readonly string[]): Promise<Array<T | undefined>> {
    if (cache === undefined) return readMany(ids);
    const hits = ids.map((id) => cache.get(id));
    const missing = ids.filter((_, i) => !hits[i]!.known);
    const writes = cache.writes;
    const read = missing.length === 0 ? [] : await readMany(missing);
    missing.forEach((id, i) => cache.putRead(id, read[i], writes));
    let next = 0;
    return hits.map((hit) => (hit.known ? hit.value : read[next++]));
  }

  async function readMany(ids: readonly string[]): Promise<Array<T | undefined>> {
    let stored: unknown[];
    try {
      stored = await getMany(kv, ids);
    } catch (error) {
      // One unparsable row fails the whole batch: each is read alone, so only that one reads as absent.
      if (error instanceof SyntaxError) return Promise.all(ids.map((id) => read(id)));
      throw error;
    }
    return ids.map((id, i) => decode(id, stored[i]));
  }

  async function read(id: string): Promise<T | undefined> {
    let stored: unknown;
    try {
      stored = await kv.get(id);
    } catch (error) {
      // Unparsable JSON in the row; connection failures still propagate.
      if (error instanceof SyntaxError) {
        report({ id, reason: "not-json" });
        return undefined;
      }
      throw error;
    }
    return decode(id, stored);
  }

  function checked(id: string, value: T): { v: number; data: T } {
    const result = schema.safeParse(value);
    if (!result.success) {
      throw new TypeError(`record store ${name}: value for ${id} does not match its schema: ${result.error.message}`);
    }
    return { v: version, data: value };
  }

  async function set(id: string, value: T, ttlMs?: number): Promise<void> {
    refuseExpiry(ttlMs);
    await kv.set(id, checked(id, value), ttlMs);
    wrote(id, value);
  }

  async function updateOnce(id: string, fn: RecordUpdater<T>, ttlMs: number | undefined): Promise<{ written: boolean; result: T | undefined }> {
    const stored = await kv.getVersioned(id);
    let current: T | undefined;
    if (stored.unreadable) report({ id, reason: "not-json" });
    else current = decode(id, stored.value);
    const next = await fn(current);
    const value = next === undefined ? undefined : checked(id, next);
    return { written: await kv.compareAndSet(id, stored.version, value, value === undefined ? undefined : ttlMs), result: next };
  }

  return {
    get,
    set,
    async delete(id) {
      const deleted = await kv.delete(id);
      wrote(id, undefined);
      return deleted;
    },

    list(): AsyncIterable<[string, T]> {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const [id, stored] of kv.entries()) {
            const value = decode(id, stored);
            if (value !== undefined) yield [id, value];
          }
        },
      };
    },

    idPages: () => kv.keyPages(),

    async getMany(ids) {
      const memo = deps.memo?.of(name);
      if (memo === undefined) return readManyThrough(ids);
      // Records the unit read already are answered from it; the rest are read in one batch and kept for the unit.
      const begun = ids.map((id) => memo.begin(id));
      const unknown = ids.filter((_, i) => !begun[i]!.known);
      const read = unknown.length === 0 ? [] : await readManyThrough(unknown);
      let next = 0;
      return begun.map((started) => {
        if (started.known) return started.value as T | undefined;
        const value = read[next++];
        started.settle(value);
        return value;
      });
    },

    async update(id, fn, ttlMs) {
      refuseExpiry(ttlMs);
      // The mutex keeps this process's own updates of one id from conflicting with each other.
      const next = await mutex.run(id, () =>
        retryOnConflict({ store: name, id, ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }) }, () => updateOnce(id, fn, ttlMs)),
      );
      wrote(id, next);
      return next;
    },

    get corruptCount() {
      return corruptCount;
    },
  };
}

interface RecordCache<T> {
  /** A copy of the record (undefined: known to be absent), or unknown. */
  get(id: string): { known: true; value: T | undefined } | { known: false };
  /** What this process wrote. */
  put(id: string, value: T | undefined): void;
  /** What a read that began at write count `writesBefore` found: kept on its second read; dropped when any write came meanwhile (it may be older). */
  putRead(id: string, value: T | undefined, writesBefore: number): void;
  /** Writes seen so far. */
  readonly writes: number;
}

/**
 * The records written, or read twice, last: at most `maxEntries`; each reader gets its own copy, as from the store.
 * A record read once is remembered by its id alone (the `maxEntries` ids read last) and kept when read again before
 * its id is forgotten: a pass over many records (the balance watch's ticks of every linked chat) would otherwise
 * replace every kept record with one nobody reads again, and leave each copy for the old generation to collect.
 */
function createRecordCache<T>(maxEntries: number): RecordCache<T> {
  const entries = new Map<string, { value: T | undefined }>();
  const readOnce = new Set<string>();
  let writes = 0;
  function keep(id: string, value: T | undefined): void {
    readOnce.delete(id);
    entries.delete(id);
    entries.set(id, { value: value === undefined ? undefined : structuredClone(value) });
    // A Map iterates in insertion order, and a hit is inserted again: the first key is the least recently used.
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }
  return {
    get(id) {
      const entry = entries.get(id);
      if (entry === undefined) return { known: false };
      entries.delete(id);
      entries.set(id, entry);
      return { known: true, value: entry.value === undefined ? undefined : structuredClone(entry.value) };
    },
    put(id, value) {
      writes += 1;
      keep(id, value);
    },
    putRead(id, value, writesBefore) {
      if (writes !== writesBefore) return;
      if (readOnce.has(id)) {
        keep(id, value);
        return;
      }
      readOnce.add(id);
      if (readOnce.size > maxEntries) readOnce.delete(readOnce.values().next().value!);
    },
    get writes() {
      return writes;
    },
  };
}
