import type Keyv from "keyv";
import type { KeyListing, RawCas } from "./raw-cas.js";
import { safeDeserialize, safeSerialize } from "./safe-serialize.js";
import type { KeyValue, KeyValueEntry, Versioned } from "./types.js";

export interface KeyvKeyValueOptions {
  keyv: Keyv;
  /** The same adapter the Keyv writes through; one that lists keys alone (`KeyListing`) serves `keyPages()` directly. */
  adapter: RawCas & Partial<KeyListing>;
  namespace: string;
  /** The adapter does not namespace keys itself: keyv prefixes them, and the compare-and-set must too. */
  keyvPrefixesKeys: boolean;
  isClosed: () => boolean;
}

/** Keys per page where they are taken from a listing of the entries (an adapter without `KeyListing`). */
const KEYS_PER_PAGE = 1_000;

/** Keyv 5's own prefixing (`_getKeyPrefix`), a key already starting with `ns:` included, so both paths meet the same row. */
function keyvPrefixed(namespace: string, key: string): string {
  return key.startsWith(`${namespace}:`) ? key : `${namespace}:${key}`;
}

/** Keyv's envelope `{ value, expires }`, read as keyv reads it. */
function fromEnvelope(raw: string): unknown {
  const envelope = safeDeserialize(raw);
  if (typeof envelope !== "object" || envelope === null) return undefined;
  const { value, expires } = envelope as { value?: unknown; expires?: unknown };
  // Gone from its last millisecond on, as the stores' own reads count it (`expires > now` keeps a row): a row `get`
  // already calls absent must not read as present here in the same millisecond.
  return typeof expires === "number" && Date.now() >= expires ? undefined : (value ?? undefined);
}

/**
 * Adapts one namespaced Keyv to the project's `KeyValue`. The Keyv must be
 * built with `throwOnErrors: true`: by default keyv turns a store failure
 * into "not found", and a Redis outage must not look like an empty record.
 */
export function createKeyvKeyValue({ keyv, adapter, namespace, keyvPrefixesKeys, isClosed }: KeyvKeyValueOptions): KeyValue {
  const storedKey = (key: string) => (keyvPrefixesKeys ? keyvPrefixed(namespace, key) : key);

  // After close, KeyvRedis would quietly reconnect the shared client (and keep
  // the process alive); every backend refuses the same way instead.
  function ensureOpen(): void {
    if (isClosed()) throw new Error(`store is closed (namespace ${namespace})`);
  }

  function wholeTtl(ttlMs: number | undefined): number | undefined {
    if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
      // keyv reads 0 as "forever", which would silently invert the intent.
      throw new RangeError(`ttlMs must be a positive number of milliseconds (namespace ${namespace})`);
    }
    // Redis PX wants whole milliseconds.
    return ttlMs === undefined ? undefined : Math.ceil(ttlMs);
  }

  function entries(): AsyncIterable<[string, unknown]> {
    const iterate = keyv.iterator;
    if (iterate === undefined) throw new Error(`store cannot list entries (namespace ${namespace})`);
    return {
      async *[Symbol.asyncIterator]() {
        ensureOpen();
        for await (const entry of iterate(undefined) as AsyncIterable<[string, unknown]>) yield entry;
      },
    };
  }

  return {
    async get<T = unknown>(key: string): Promise<T | undefined> {
      ensureOpen();
      return (await keyv.get<T>(key)) ?? undefined;
    },

    async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
      ensureOpen();
      const ok = await keyv.set(key, value, wholeTtl(ttlMs));
      if (!ok) throw new Error(`store refused to write a value (namespace ${namespace})`);
    },

    async delete(key: string): Promise<boolean> {
      ensureOpen();
      return keyv.delete(key);
    },

    entries,

    keyPages(): AsyncIterable<string[]> {
      return {
        async *[Symbol.asyncIterator]() {
          ensureOpen();
          if (adapter.keyPages) {
            yield* adapter.keyPages();
            return;
          }
          let page: string[] = [];
          for await (const [key] of entries()) {
            page.push(key);
            if (page.length === KEYS_PER_PAGE) {
              yield page;
              page = [];
            }
          }
          if (page.length > 0) yield page;
        },
      };
    },

    async clear(): Promise<void> {
      ensureOpen();
      await keyv.clear();
    },

    async getVersioned(key: string): Promise<Versioned> {
      ensureOpen();
      const raw = await adapter.readRaw(storedKey(key));
      if (raw === undefined) return { value: undefined, version: null };
      try {
        return { value: fromEnvelope(raw), version: raw };
      } catch (error) {
        // Not JSON: the caller may still replace the row, so its version is kept.
        if (error instanceof SyntaxError) return { value: undefined, version: raw, unreadable: true };
        throw error;
      }
    },

    async compareAndSet(key: string, expected: string | null, value: unknown, ttlMs?: number): Promise<boolean> {
      ensureOpen();
      const ttl = wholeTtl(ttlMs);
      // Written exactly as keyv writes, so `get`, `entries` and keyv's expiry read it alike.
      const next = value === undefined ? undefined : safeSerialize({ value, expires: ttl === undefined ? undefined : Date.now() + ttl });
      return adapter.swapRaw(storedKey(key), expected ?? undefined, next, ttl);
    },

    async getMany(keys: readonly string[]): Promise<unknown[]> {
      ensureOpen();
      if (keys.length === 0) return [];
      const values: unknown[] = await keyv.getMany<unknown>([...keys]);
      return values.map((value) => value ?? undefined);
    },

    async setMany(entries: readonly KeyValueEntry[]): Promise<void> {
      ensureOpen();
      if (entries.length === 0) return;
      const results: unknown = await keyv.setMany(
        entries.map(({ key, value, ttlMs }) => {
          const ttl = wholeTtl(ttlMs);
          return ttl === undefined ? { key, value } : { key, value, ttl };
        }),
      );
      // Adapters with their own setMany answer nothing and throw on failure; keyv's fallback answers a flag per entry.
      if (Array.isArray(results) && results.some((ok) => ok === false)) throw new Error(`store refused to write a value (namespace ${namespace})`);
    },

    async deleteMany(keys: readonly string[]): Promise<void> {
      ensureOpen();
      if (keys.length === 0) return;
      await keyv.deleteMany([...keys]);
    },
  };
}
