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
  /** `claim` for many keys in one store round trip where the store offers it; each key's result, in order. */
  claimMany?(keys: readonly string[], ttlMs: number): Promise<boolean[]>;
}

export interface LeasesDeps {
  store: Pick<StoreBackend, "claimLease" | "releaseLease" | "claimLeases">;
  /** This process: unique per running instance (a random id is fine). */
  owner: string;
  /** Unused by the backends (each reads its own clock); kept for the shared contract. */
  now?: () => number;
}

export function createLeases({ store, owner }: LeasesDeps): Leases {
  const leases: Leases = {
    claim: (key, ttlMs) => store.claimLease(key, owner, ttlMs),
    release: (key) => store.releaseLease(key, owner),
  };
  const { claimLeases } = store;
  if (claimLeases) leases.claimMany = (keys, ttlMs) => claimLeases.call(store, keys, owner, ttlMs);
  return leases;
}
