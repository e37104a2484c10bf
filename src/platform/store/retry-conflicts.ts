/**
 * The retry loop of a compare-and-set read-modify-write: another process
 * wrote between this one's read and write, so read and compute again after
 * a random pause, a bounded number of times.
 */

/** Another process kept changing the entry between this one's read and write, `attempts` times in a row. */
export class RecordConflictError extends Error {
  override readonly name = "RecordConflictError";
  constructor(
    readonly store: string,
    readonly id: string,
    readonly attempts: number,
  ) {
    super(`record store ${store}: ${id} kept changing under this update (${attempts} attempts); nothing was written`);
  }
}

const DEFAULT_MAX_ATTEMPTS = 25;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Full jitter, growing to 50 ms: two writers that met once rarely meet again. */
const conflictBackoffMs = (attempt: number) => Math.random() * Math.min(50, 2 ** attempt);

/** Runs `attempt` until it reports a write; throws `RecordConflictError` after `maxAttempts` conflicts. */
export async function retryOnConflict<T>(
  where: { store: string; id: string; maxAttempts?: number },
  attempt: () => Promise<{ written: boolean; result: T }>,
): Promise<T> {
  const maxAttempts = where.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (let tries = 1; ; tries += 1) {
    const { written, result } = await attempt();
    if (written) return result;
    if (tries >= maxAttempts) throw new RecordConflictError(where.store, where.id, tries);
    await sleep(conflictBackoffMs(tries));
  }
}
