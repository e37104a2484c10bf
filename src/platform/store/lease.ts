import type { StoreBackend } from "./types.js";

/**
 * An expiring claim, atomic across processes on the same store: whoever holds
 * `key` does the work it names (a plan's renewals, a chat's balance polling);
 * a crashed holder's claim runs out after `ttlMs` and another process takes
 * over. Claiming again while holding extends the claim.
 */
export interface Leases {
  claim(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  /** `claim` for many keys: one store round trip where the store offers it, else one claim after another; each key's result, in order. */
  claimMany(keys: readonly string[], ttlMs: number): Promise<boolean[]>;
  /** `release` for many keys: one store round trip where the store offers it, else one release after another. */
  releaseMany(keys: readonly string[]): Promise<void>;
}

export interface LeasesDeps {
  store: Pick<StoreBackend, "claimLease" | "releaseLease" | "claimLeases" | "releaseLeases">;
  /** This process: unique per running instance (a random id is fine). */
  owner: string;
  /** Unused by the backends (each reads its own clock); kept for the shared contract. */
  now?: () => number;
}

export function createLeases({ store, owner }: LeasesDeps): Leases {
  return {
    claim: (key, ttlMs) => store.claimLease(key, owner, ttlMs),
    release: (key) => store.releaseLease(key, owner),
    async claimMany(keys, ttlMs) {
      if (store.claimLeases) return store.claimLeases(keys, owner, ttlMs);
      const held: boolean[] = [];
      for (const key of keys) held.push(await store.claimLease(key, owner, ttlMs));
      return held;
    },
    async releaseMany(keys) {
      if (store.releaseLeases) return store.releaseLeases(keys, owner);
      for (const key of keys) await store.releaseLease(key, owner);
    },
  };
}
