/**
 * Groups calls made close together into one batch: every call made before
 * the next turn of the event loop (and, while flushes are at their limit,
 * every call made meanwhile) goes to one `flush`, and each caller gets its own
 * answer. One store transaction or one Redis round trip then serves a whole
 * burst of requests instead of one each; a lone call waits one loop turn, or
 * `lingerMs` where no one waits on the answer and fewer, larger flushes are
 * worth the delay.
 */
export interface GroupedCalls<T, R> {
  /** Resolves with this call's answer once its batch is flushed; rejects when the batch failed. */
  call(input: T): Promise<R>;
  /** Resolves once every call made so far is settled; nothing lingers while it is awaited. */
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
 * With `lingerMs`, a batch waits that long for company unless it is full.
 */
export function groupCalls<T, R>(
  flush: (inputs: T[]) => Promise<R[]>,
  options: { maxBatch?: number; maxInFlight?: number; lingerMs?: number } = {},
): GroupedCalls<T, R> {
  const maxBatch = options.maxBatch ?? 512;
  const maxInFlight = options.maxInFlight ?? 1;
  const lingerMs = options.lingerMs ?? 0;
  let queued: Waiting<T, R>[] = [];
  let scheduled = false;
  let lingering: NodeJS.Timeout | undefined;
  /** Callers of `idle()` still waiting: a batch is then flushed at once. */
  let draining = 0;
  const flushing = new Set<Promise<void>>();

  function schedule(): void {
    if (flushing.size >= maxInFlight) return;
    if (lingering !== undefined && (queued.length >= maxBatch || draining > 0)) {
      clearTimeout(lingering);
      lingering = undefined;
      scheduled = false;
    }
    if (scheduled) return;
    scheduled = true;
    if (lingerMs > 0 && draining === 0 && queued.length < maxBatch) lingering = setTimeout(run, lingerMs);
    else setImmediate(run);
  }

  function run(): void {
    scheduled = false;
    lingering = undefined;
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
      draining += 1;
      try {
        if (queued.length > 0) schedule();
        while (flushing.size > 0 || queued.length > 0) {
          if (flushing.size > 0) await Promise.all(flushing);
          else await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } finally {
        draining -= 1;
      }
    },
  };
}
