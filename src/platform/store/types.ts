/**
 * The storage contract the rest of the code sees. Only src/platform/store/*
 * touches keyv; everything else asks a `StoreBackend` for a namespace.
 */
export interface KeyValue {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** `ttlMs` undefined keeps the value until deleted. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Every live (unexpired) entry of this namespace, each once; order unspecified. */
  entries(): AsyncIterable<[key: string, value: unknown]>;
  /**
   * Every live key of this namespace, a page (a non-empty array) at a time;
   * order unspecified. Where the store can list keys alone (SQLite, Redis) no
   * value is read; on Postgres they are `entries`' keys. On Redis a key may
   * come twice (SCAN's own rule): callers act on a key idempotently.
   */
  keyPages(): AsyncIterable<string[]>;
  /** Removes every entry of this namespace, and only of it. */
  clear(): Promise<void>;
  /** Reads a value with the mark of its exact stored state, for `compareAndSet`. */
  getVersioned(key: string): Promise<Versioned>;
  /**
   * Writes `value` (deletes the key when undefined) only while the stored
   * state is still the one `expected` marks, atomically across every process
   * on this store. False, with nothing written, when someone wrote or deleted
   * the key since. `ttlMs` as in `set`. Take `expected` from `getVersioned`:
   * an expired entry not yet purged has a version, not null, so a bare null
   * ("insert if absent") can fail on it until the purge.
   */
  compareAndSet(key: string, expected: StoredVersion, value: unknown, ttlMs?: number): Promise<boolean>;
  /**
   * Several reads in one store round trip; each position is `get`'s answer.
   * Optional: `getMany` in batch.ts falls back to one `get` per key.
   */
  getMany?(keys: readonly string[]): Promise<unknown[]>;
  /**
   * Several writes in one store round trip and, on SQLite, one transaction
   * (all or none, one commit): what makes a batch of webhook accepts cost one
   * commit instead of one each. Resolves once every entry is stored. Optional:
   * `setMany` in batch.ts falls back to one `set` per entry.
   */
  setMany?(entries: readonly KeyValueEntry[]): Promise<void>;
  /** Several deletes in one round trip (one transaction on SQLite). Optional, like `setMany`. */
  deleteMany?(keys: readonly string[]): Promise<void>;
}

export interface KeyValueEntry {
  key: string;
  value: unknown;
  /** As in `set`: undefined keeps the value until deleted. */
  ttlMs?: number;
}

/** Opaque: the stored text itself (a state, not a counter), null for "no entry". */
type StoredVersion = string | null;

export interface Versioned {
  /** Undefined when absent, expired or unreadable. */
  value: unknown;
  version: StoredVersion;
  /** The stored text is not JSON (a corrupt row). */
  unreadable?: true;
}

export type StoreKind = "sqlite" | "redis" | "postgres";

export interface StoreBackend {
  readonly kind: StoreKind;
  namespace(name: string): KeyValue;
  /** Cheap reachability check for /healthz. */
  ping(): Promise<boolean>;
  /**
   * An expiring claim on `key`, atomic across every process on this store:
   * true when the key was free, expired or already held by `owner` (the claim
   * is then extended to `ttlMs` from now), false while another owner holds it.
   * Used through `createLeases` (lease.ts).
   */
  claimLease(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the claim up when `owner` still holds it; anyone else's claim is left alone. */
  releaseLease(key: string, owner: string): Promise<void>;
  /**
   * Takes `name` for as long as this backend stays open, for one backend at a
   * time over every process on the store: false while another holds it. Only
   * where the lock dies with its holder's connection (Postgres: a session
   * advisory lock), so a killed process never leaves it behind; absent
   * elsewhere. `onLost` hears when that connection breaks (the lock is gone).
   */
  holdForLifetime?(name: string, onLost: (error: Error) => void): Promise<boolean>;
  close(): Promise<void>;
  /**
   * `claimLease` for many keys at once, in one round trip (one transaction,
   * script or statement): whether `owner` holds each key now, in the order of
   * `keys`. Optional: callers fall back to one `claimLease` per key.
   */
  claimLeases?(keys: readonly string[], owner: string, ttlMs: number): Promise<boolean[]>;
  /** `releaseLease` for many keys in one round trip (one transaction on SQLite). Optional, like `claimLeases`. */
  releaseLeases?(keys: readonly string[], owner: string): Promise<void>;
}
