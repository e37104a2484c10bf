/**
 * Token buckets for /hooks: one global bucket and one per route (chat), spent
 * only by requests that are not verified (see DEFAULT_HOOKS_RATE_LIMITS).
 * In memory and per process, like the inbox's hint budget: the point is that
 * one process cannot be flooded, not a cluster-wide quota. Hand-written
 * rather than a dependency because it is this small: a bucket is two numbers,
 * refilled lazily on each take, and the per-key map is bounded.
 */
export interface BucketLimit {
  /** Requests allowed at once after a quiet period. */
  burst: number;
  /** Sustained requests per second. */
  perSecond: number;
}

export interface RateLimitDecision {
  ok: boolean;
  /** When refused: whole seconds until one request would pass (at least 1). */
  retryAfterSec: number;
}

export interface KeyedRateLimiter {
  take(key: string, now: number): RateLimitDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Most keys a limiter remembers; full buckets are the first to go (they carry no state). */
const MAX_KEYS = 10_000;
/**
 * A prune leaves at most this many keys: room for a tenth more before the next
 * scan, so a flood of new keys costs one scan per thousand, not one per request.
 */
const KEEP_KEYS = MAX_KEYS - MAX_KEYS / 10;

export function createRateLimiter(limit: BucketLimit): KeyedRateLimiter {
  if (!(limit.burst >= 1 && limit.perSecond > 0)) throw new RangeError("rate limit needs burst >= 1 and perSecond > 0");
  const buckets = new Map<string, Bucket>();

  function refill(bucket: Bucket, now: number): void {
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (elapsed * limit.perSecond) / 1000);
    bucket.at = now;
  }

  function prune(now: number): void {
    for (const [key, bucket] of buckets) {
      refill(bucket, now);
      if (bucket.tokens >= limit.burst) buckets.delete(key);
    }
    // Still full of busy keys: forget the oldest; at worst one of them gets a fresh burst.
    for (const key of buckets.keys()) {
      if (buckets.size <= KEEP_KEYS) break;
      buckets.delete(key);
    }
  }

  return {
    take(key, now) {
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        if (buckets.size >= MAX_KEYS) prune(now);
        bucket = { tokens: limit.burst, at: now };
        buckets.set(key, bucket);
      } else {
        refill(bucket, now);
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true, retryAfterSec: 0 };
      }
      const waitMs = ((1 - bucket.tokens) * 1000) / limit.perSecond;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

export interface HooksRateLimits {
  global: BucketLimit;
  perRoute: BucketLimit;
}

/**
 * Budgets for what is not verified: unknown routes, failed signatures, and
 * the deliveries to routes without a secret (hints). A verified delivery
 * spends neither. A route's bucket lets a burst of hints through (a hint is
 * worth at most a re-read, and the inbox passes on 30 a minute per chat);
 * the global bucket bounds how much of a flood of made-up routes or forged
 * signatures is answered in full (a 404 or 401, a warn line, a stored hint)
 * before the rest is answered 429 and told when to come back.
 */
export const DEFAULT_HOOKS_RATE_LIMITS: HooksRateLimits = {
  global: { burst: 400, perSecond: 200 },
  perRoute: { burst: 60, perSecond: 20 },
};
