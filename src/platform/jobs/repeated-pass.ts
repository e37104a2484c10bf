/**
 * A pass over stored work that comes back on its own: the job engine's rescans, the tracker's scans for items
 * nobody polls, the balance watch's sweeps of the chat records, the update inbox's takeovers of updates a dead
 * process left. One pass at a time: the next starts `everyMs` after the last one ended, so a pass slower than its
 * interval is never run twice at once; a pass that threw is tried again after `retryMs`. `stop` aborts the signal
 * of the pass under way and waits for it, so no pass outlives the store it reads.
 */
export interface RepeatedPass {
  /**
   * Runs the first pass now and keeps the next ones coming. Resolves once that pass has ended, and rejects with
   * its error when it threw (its retry is already scheduled): the caller says what a failed first pass means.
   */
  start(): Promise<void>;
  /** Runs a pass now, or waits for the one under way; a failure goes to `failed` like any later pass's. */
  runNow(): Promise<void>;
  /** No more passes: aborts the signal of the one under way and waits for it to end. */
  stop(): Promise<void>;
  /** The pass under way, if any; it rejects only when `failed` itself throws. */
  readonly current: Promise<void> | undefined;
}

export interface RepeatedPassDeps {
  /** Aborted when `stop` is called: a long pass ends early at its next look. */
  pass: (signal: AbortSignal) => Promise<void>;
  /** Told of every pass after the first that threw while not stopping. */
  failed: (error: unknown) => void;
  /** Between the end of a pass that worked and the start of the next. Undefined: none follows a pass that worked. */
  everyMs?: number | undefined;
  /** Between the end of a pass that threw and the next. Default `everyMs`; with neither, a failed pass is not retried. */
  retryMs?: number | undefined;
}

export function createRepeatedPass(deps: RepeatedPassDeps): RepeatedPass {
  let controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let running = false;

  function after(ms: number | undefined): void {
    if (!running || ms === undefined) return;
    clearTimeout(timer);
    timer = setTimeout(() => void runNow(), ms);
    // A pass that comes back never keeps a process alive by itself.
    timer.unref();
  }

  /** One pass; `report` chooses who hears of its failure: `failed`, or the caller of `start`. */
  function once(report: (error: unknown) => void): Promise<void> {
    if (current) return current;
    clearTimeout(timer);
    const signal = controller.signal;
    const p = Promise.resolve()
      .then(() => deps.pass(signal))
      .then(
        () => after(deps.everyMs),
        (error: unknown) => {
          after(deps.retryMs ?? deps.everyMs);
          if (!signal.aborted) report(error);
        },
      )
      .finally(() => {
        if (current === p) current = undefined;
      });
    current = p;
    return p;
  }

  function runNow(): Promise<void> {
    return running ? once(deps.failed) : Promise.resolve();
  }

  return {
    async start() {
      if (running) return;
      running = true;
      controller = new AbortController();
      let firstError: { error: unknown } | undefined;
      await once((error) => (firstError = { error }));
      if (firstError) throw firstError.error;
    },
    runNow,
    async stop() {
      running = false;
      clearTimeout(timer);
      controller.abort();
      await current;
    },
    get current() {
      return current;
    },
  };
}
