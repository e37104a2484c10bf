/**
 * Groups calls made close together into one batch: every call made before
 * the next turn of the event loop (and, while flushes are at their limit,
 * every call made meanwhile) goes to one `flush`, and each caller gets its own
 * answer. One store transaction or one Redis round trip then serves a whole
 * burst of requests instead of one each; a lone call waits one loop turn.
 */
export interface GroupedCalls<T, R> {
  /** Resolves with this call's answer once its batch is flushed; rejects when the batch failed. */
  call(input: T): Promise<R>;
  /** Resolves once every call made so far is settled. */
  idle(): Promise<void>;
}

interface Waiting<T, R> {
  input: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * `flush` answers one result per input, in order. At most `maxInFlight`
 * flushes run at a time (1 for a synchronous store; a few where a flush is
 * a network round trip, so one slow answer does not hold every caller).
 */
export function groupCalls<T, R>(flush: (inputs: T[]) => Promise<R[]>, options: { maxBatch?: number; maxInFlight?: number } = {}): GroupedCalls<T, R> {
  const maxBatch = options.maxBatch ?? 512;
  const maxInFlight = options.maxInFlight ?? 1;
  let queued: Waiting<T, R>[] = [];
  let scheduled = false;
  const flushing = new Set<Promise<void>>();

  function schedule(): void {
    if (scheduled || flushing.size >= maxInFlight) return;
    scheduled = true;
    setImmediate(run);
  }

  function run(): void {
    scheduled = false;
    const batch = queued.length <= maxBatch ? queued : queued.slice(0, maxBatch);
    queued = queued.length <= maxBatch ? [] : queued.slice(maxBatch);
    if (batch.length === 0) return;
    const p: Promise<void> = (async () => {
      try {
        const results = await flush(batch.map((w) => w.input));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    })().finally(() => {
      flushing.delete(p);
      if (queued.length > 0) schedule();
    });
    flushing.add(p);
  }

  return {
    call(input) {
      return new Promise<R>((resolve, reject) => {
        queued.push({ input, resolve, reject });
        schedule();
      });
    },
    async idle() {
      while (flushing.size > 0 || queued.length > 0) {
        if (flushing.size > 0) await Promise.all(flushing);
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  };
}
