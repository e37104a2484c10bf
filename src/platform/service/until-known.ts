import { ServiceError } from "./errors.js";

/**
 * Sends a request that is safe to send again (a signed transaction, which the
 * service deduplicates by txId; an order under its Idempotency-Key) until its
 * outcome is known. An answer lost after the service may have acted (a
 * timeout, a reset connection, a 5xx) is not a refusal: the same request goes
 * again after a backoff, and the one whose answer arrives tells what happened.
 * `onUnknown` runs once, at the first lost answer, so the chat can be told
 * "it may have gone through, I am checking" before the wait. What is still
 * unknown when the delays run out is thrown as the last error: the
 * confirmations journal keeps resolving it in the background.
 */

/** Waits before the second, third and fourth sends: about 7 s in all, within one button press. */
export const UNTIL_KNOWN_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000];

export interface UntilKnownOptions {
  delaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  onUnknown?: (error: ServiceError) => Promise<void>;
}

/**
 * The service may have acted on a request that failed this way. A 503
 * `broadcast.upstream_unavailable` is the service's own word that nothing was
 * done or charged (section 7); any other 5xx may come from a gateway that gave
 * up waiting while the service went on.
 */
export function isOutcomeUnknown(error: ServiceError): boolean {
  return error.outcomeUnknown || (error.status >= 500 && error.code !== "broadcast.upstream_unavailable");
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendUntilKnown<T>(send: () => Promise<T>, options: UntilKnownOptions = {}): Promise<T> {
  const delays = options.delaysMs ?? UNTIL_KNOWN_DELAYS_MS;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (!ServiceError.isInstance(error) || !isOutcomeUnknown(error)) throw error;
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      if (attempt === 0) await options.onUnknown?.(error);
      await sleep(delay);
    }
  }
}
