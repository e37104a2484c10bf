import type { Logger } from "pino";
import type { Leases } from "../../platform/store/lease.js";

/**
 * The tracker's claims on the shared store. Each tracked item is polled by
 * the one process holding its lease (renewed while it polls, so a dead
 * holder's items are free again after `ttlMs`); announcing a status takes a
 * short claim of its own, so two processes that see the same change at once
 * (a poll here, a webhook's re-read there) announce it once.
 */
export interface ItemLeases {
  /** Takes or renews the item's lease: false while another live process holds it. */
  hold(itemKey: string): Promise<boolean>;
  release(itemKey: string): Promise<void>;
  /**
   * Runs `fn` unless another process is announcing the same status right now ("busy"). The claim
   * lasts `announceClaimMs` and is renewed while `fn` runs: a slow announcement keeps it, and a
   * killed announcer's claim ends as soon as its item lease does.
   */
  announcing<T>(announceKey: string, fn: () => Promise<T>): Promise<T | "busy">;
  /** `hold` for many items, in one store call where the store offers it; each item's result, in order. */
  holdAll(itemKeys: readonly string[]): Promise<boolean[]>;
  /** Other processes may hold items (real leases); false for the single-process default. */
  readonly shared: boolean;
  /** How long an announcement's claim outlives a process that died holding it. */
  readonly announceClaimMs: number;
}

/** One process alone: it holds every item (the single-process default, and the tracker's own tests). */
const soleOwner: Leases = {
  claim: () => Promise.resolve(true),
  release: () => Promise.resolve(),
  claimMany: (keys) => Promise.resolve(keys.map(() => true)),
  releaseMany: () => Promise.resolve(),
};

export function createItemLeases(leases: Leases | undefined, ttlMs: number, logger?: Pick<Logger, "warn">): ItemLeases {
  const shared = leases ?? soleOwner;
  return {
    hold: (itemKey) => shared.claim(`tracking:${itemKey}`, ttlMs),
    release: (itemKey) => shared.release(`tracking:${itemKey}`),
    async announcing(announceKey, fn) {
      const claimKey = `tracking-announce:${announceKey}`;
      if (!(await shared.claim(claimKey, ttlMs))) return "busy";
      // Renewed well before it runs out; a renewal that fails only lets the claim end sooner.
      const renew = () =>
        shared
          .claim(claimKey, ttlMs)
          .catch((error: unknown) => logger?.warn({ err: error, claimKey }, "renewing an announcement's claim failed; it may run out first"));
      const renewal = setInterval(() => void renew(), Math.max(1, Math.floor(ttlMs / 3)));
      try {
        return await fn();
      } finally {
        clearInterval(renewal);
        await shared.release(claimKey);
      }
    },
    async holdAll(itemKeys) {
      if (!leases) return itemKeys.map(() => true);
      return leases.claimMany(
        itemKeys.map((itemKey) => `tracking:${itemKey}`),
        ttlMs,
      );
    },
    shared: leases !== undefined,
    announceClaimMs: ttlMs,
  };
}
