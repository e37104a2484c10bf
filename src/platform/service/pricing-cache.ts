import type { Logger } from "pino";
import type { Pricing } from "./schemas.js";

export interface PricingCacheDeps {
  load: () => Promise<Pricing>;
  /** How long a loaded value counts as fresh. Default 60 s (the service says "a few minutes" is safe). */
  ttlMs?: number;
  /**
   * After a failed refresh, how long a stale value is served before the next
   * attempt. Default 5 s: a service outage must not turn every quote into a request.
   */
  failureCooldownMs?: number;
  now?: () => number;
  logger: Logger;
}

export interface PricingCache {
  /**
   * Fresh value: returned at once. Stale value: returned at once while one
   * background refresh runs. No value: waits for the (shared) load and
   * throws its error if it fails.
   */
  get(): Promise<Pricing>;
  /** The last value, fresh or stale, without loading. */
  peek(): Pricing | undefined;
  /** Marks the value stale so the next `get()` refreshes; the old value is still served meanwhile. */
  invalidate(): void;
}

/**
 * Single-flight, stale-while-revalidate cache of `GET /v1/public/pricing`.
 * Every quote in the bot reads it, so a burst of users must cost one request,
 * and a service hiccup must not stop quotes while an older price is known.
 */
export function createPricingCache(deps: PricingCacheDeps): PricingCache {
  const ttlMs = deps.ttlMs ?? 60_000;
  const failureCooldownMs = deps.failureCooldownMs ?? 5_000;
  const now = deps.now ?? Date.now;
  const logger = deps.logger;

  let value: Pricing | undefined;
  /** Value is fresh until this instant. */
  let freshUntil = -Infinity;
  /** No background refresh is started before this instant (set after a failure). */
  let quietUntil = -Infinity;
  /** Bumped by invalidate(): a load started before it must not mark its result fresh. */
  let generation = 0;
  let inFlight: Promise<Pricing> | undefined;

  function refresh(): Promise<Pricing> {
    if (inFlight) return inFlight;
    const startedAt = now();
    const startedGeneration = generation;
    inFlight = (async () => {
      try {
        const loaded = await deps.load();
        if (startedGeneration === generation) {
          value = loaded;
          freshUntil = startedAt + ttlMs;
        } else {
          value ??= loaded;
        }
        return loaded;
      } catch (error) {
        quietUntil = now() + failureCooldownMs;
        throw error;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  }

  return {
    async get() {
      if (value === undefined) return refresh();
      const at = now();
      if (at < freshUntil) return value;
      if (!inFlight && at >= quietUntil) {
        refresh().catch((error: unknown) => {
          logger.warn({ err: error }, "pricing refresh failed; serving the previous prices");
        });
      }
      return value;
    },
    peek() {
      return value;
    },
    invalidate() {
      freshUntil = -Infinity;
      quietUntil = -Infinity;
      generation += 1;
    },
  };
}
