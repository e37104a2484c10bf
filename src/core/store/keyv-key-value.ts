import type Keyv from "keyv";
import type { KeyValue } from "./types.js";

/**
 * Adapts one namespaced Keyv to the project's `KeyValue`. The Keyv must be
 * built with `throwOnErrors: true`: by default keyv turns a store failure
 * into "not found", and a Redis outage must not look like an empty record.
 */
export function createKeyvKeyValue(keyv: Keyv, namespace: string, isClosed: () => boolean): KeyValue {
  // After close, KeyvRedis would quietly reconnect the shared client (and keep
  // the process alive); every backend refuses the same way instead.
  function ensureOpen(): void {
    if (isClosed()) throw new Error(`store is closed (namespace ${namespace})`);
  }

  return {
    async get<T = unknown>(key: string): Promise<T | undefined> {
      ensureOpen();
      return (await keyv.get<T>(key)) ?? undefined;
    },

    async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
      ensureOpen();
      if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
        // keyv reads 0 as "forever", which would silently invert the intent.
        throw new RangeError(`ttlMs must be a positive number of milliseconds (namespace ${namespace})`);
      }
      // Redis PX wants whole milliseconds.
      const ok = await keyv.set(key, value, ttlMs === undefined ? undefined : Math.ceil(ttlMs));
      if (!ok) throw new Error(`store refused to write a value (namespace ${namespace})`);
    },

    async delete(key: string): Promise<boolean> {
      ensureOpen();
      return keyv.delete(key);
    },

    entries(): AsyncIterable<[string, unknown]> {
      const iterate = keyv.iterator;
      if (iterate === undefined) throw new Error(`store cannot list entries (namespace ${namespace})`);
      return {
        async *[Symbol.asyncIterator]() {
          ensureOpen();
          for await (const entry of iterate(undefined) as AsyncIterable<[string, unknown]>) yield entry;
        },
      };
    },

    async clear(): Promise<void> {
      ensureOpen();
      await keyv.clear();
    },
  };
}
