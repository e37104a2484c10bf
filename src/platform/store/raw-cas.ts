/**
 * What each keyv adapter of ours adds so records can be updated atomically:
 * the stored text of one key, and a write that happens only while that text
 * is still there. Keys are the adapter's own (namespaced as keyv would).
 * Comparing the stored text itself (not a counter) needs no new column and
 * no migration: rows written before compare like any other.
 */
export interface RawCas {
  /** The stored text, expired or not; undefined when there is no entry. */
  readRaw(key: string): Promise<string | undefined>;
  /**
   * Writes `next` (deletes when undefined) only while the entry's text is
   * `expected` (undefined: while there is no entry), in one atomic step.
   * `ttlMs` is whole milliseconds or undefined for no expiry.
   */
  swapRaw(key: string, expected: string | undefined, next: string | undefined, ttlMs: number | undefined): Promise<boolean>;
}

/**
 * An adapter that lists its namespace's keys without reading their values
 * (SQLite, Redis): what a scan that needs only the keys asks for. Keys are the
 * project's own (unprefixed), expired entries left out, a page (an array) at
 * a time: an async iteration step per key would cost more than the key.
 */
export interface KeyListing {
  keyPages(): AsyncIterable<string[]>;
}
