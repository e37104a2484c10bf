import { setTimeout as sleep } from "node:timers/promises";
import { CLIENT_ERROR_CODES, ServiceError } from "./errors.js";
import { wasNeverSent } from "./http.js";

/**
 * Retry policy of service-api.md section 7, bounded by one overall deadline
 * so that a hanging service never keeps a user waiting past it.
 */

export interface RetryPolicy {
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** [0, 1); injected so tests and benches can pin the jitter. */
  random: () => number;
}

/**
 * Whether sending the same request again is harmless when its first outcome
 * is unknown (timeout, connection dropped after sending):
 * - `replayable`: GETs, and POST /v1/orders thanks to its Idempotency-Key.
 * - `once`: POST /v1/broadcasts. A resend after an unknown outcome would meet
 *   `409 broadcast.duplicate_tx` (dedup by txId) and hide an accepted broadcast;
 *   only a request that provably never left (connection refused) is resent.
 */
export type Resend = "replayable" | "once";

/** Delay before the next attempt, or `undefined` when this error must not be retried. */
export function retryDelayMs(error: unknown, attempt: number, resend: Resend, policy: RetryPolicy): number | undefined {
  if (!ServiceError.isInstance(error)) return undefined;
  const backoff = () => fullJitter(attempt, policy);
  switch (error.code) {
    case CLIENT_ERROR_CODES.timeout:
      return resend === "replayable" ? backoff() : undefined;
    case CLIENT_ERROR_CODES.connection:
      return resend === "replayable" || wasNeverSent(error) ? backoff() : undefined;
    case "idempotency.in_progress":
      // Same key, same body: the first request finishes and the retry replays it.
      return (error.retryAfterSec ?? 2) * 1000;
    case "broadcast.duplicate_tx":
      return undefined;
  }
  if (error.status === 429) {
    return error.retryAfterSec === undefined ? backoff() : error.retryAfterSec * 1000;
  }
  if (error.status === 503) {
    // "Nothing charged" (section 7), so even a broadcast may go again.
    return error.retryAfterSec === undefined ? backoff() : error.retryAfterSec * 1000;
  }
  if (error.status === 502 || error.status === 504) {
    // A gateway gave up waiting: the service may have acted, as with a timeout.
    return resend === "replayable" ? backoff() : undefined;
  }
  return undefined;
}

/** "Full jitter": uniform in [0, min(max, base * 2^(attempt-1))]. */
export function fullJitter(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

export interface RunOptions {
  resend: Resend;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  totalTimeoutMs: number;
  signal?: AbortSignal | undefined;
  now?: () => number;
  /** Called after each failed attempt that will be retried. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * Runs `attemptFn` until it succeeds, an error is final, attempts run out, or
 * the next wait would not leave time for another attempt before the deadline.
 * Always throws the last real error (never a generic "retries exhausted").
 */
export async function runWithRetry<T>(attemptFn: (attempt: number, timeoutMs: number) => Promise<T>, options: RunOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const deadline = now() + options.totalTimeoutMs;
  // An attempt squeezed into less than this is not worth starting.
  const minAttemptMs = Math.min(100, options.attemptTimeoutMs);
  for (let attempt = 1; ; attempt += 1) {
    const remaining = deadline - now();
    try {
      return await attemptFn(attempt, Math.max(1, Math.min(options.attemptTimeoutMs, remaining)));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (attempt >= options.policy.maxAttempts) throw error;
      const delayMs = retryDelayMs(error, attempt, options.resend, options.policy);
      if (delayMs === undefined) throw error;
      if (now() + delayMs + minAttemptMs > deadline) throw error;
      options.onRetry?.({ attempt, delayMs, error });
      try {
        await sleep(delayMs, undefined, { signal: options.signal });
      } catch (sleepError) {
        // Same as an abort during an attempt: the caller's own reason.
        throw options.signal?.aborted ? (options.signal.reason as unknown) : sleepError;
      }
    }
  }
}
