/**
 * The storage contract the rest of the code sees. Only src/core/store/*
 * touches keyv; everything else asks a `StoreBackend` for a namespace.
 */
export interface KeyValue {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** `ttlMs` undefined keeps the value until deleted. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Every live (unexpired) entry of this namespace; order unspecified. */
  entries(): AsyncIterable<[key: string, value: unknown]>;
  /** Removes every entry of this namespace, and only of it. */
  clear(): Promise<void>;
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
  close(): Promise<void>;
}
