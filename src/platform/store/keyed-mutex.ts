/**
 * Serializes async work per key inside this process: `run(k, fn)` starts
 * `fn` only after every earlier `run(k, …)` has settled. Different keys
 * never wait for each other. Not a cross-process lock: two bot processes
 * sharing Redis/Postgres can still interleave.
 */
export interface KeyedMutex {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Keys with work queued or running; 0 when idle (entries never leak). */
  readonly pendingKeys: number;
}

export function createKeyedMutex(): KeyedMutex {
  // The tail of each key's chain; it never rejects, so one failing task
  // does not poison the tasks queued behind it.
  const tails = new Map<string, Promise<void>>();

  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(() => fn());
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get pendingKeys() {
      return tails.size;
    },
  };
}
