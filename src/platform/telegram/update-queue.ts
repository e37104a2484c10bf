/** What is used of an abort signal: the runner passes its polyfill's, not Node's. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** The shape @grammyjs/runner pulls updates through (its `UpdateSupplier`), without depending on it. */
export interface UpdateSupplier<U> {
  /** Up to `batchSize` updates once there is one; rejects when `signal` aborts (the runner's stop). */
  supply(batchSize: number, signal: AbortSignalLike): Promise<U[]>;
}

export interface UpdateQueue<U> extends UpdateSupplier<U> {
  push(update: U): void;
  /** Ends a waiting `supply`; later pushes are dropped (their stored copies stay for the next start). */
  close(): void;
}

/** In-memory hand-over from the webhook route to the runner, in arrival order. */
export function createUpdateQueue<U>(): UpdateQueue<U> {
  const waiting: U[] = [];
  let wake: (() => void) | undefined;
  let closed = false;

  return {
    push(update) {
      if (closed) return;
      waiting.push(update);
      wake?.();
    },
    close() {
      closed = true;
      waiting.length = 0;
      wake?.();
    },
    async supply(batchSize, signal) {
      while (waiting.length === 0) {
        if (signal.aborted || closed) throw new Error("update queue closed");
        await new Promise<void>((resolve) => {
          const done = () => {
            wake = undefined;
            signal.removeEventListener("abort", done);
            resolve();
          };
          wake = done;
          signal.addEventListener("abort", done, { once: true });
        });
      }
      return waiting.splice(0, Math.max(1, batchSize));
    },
  };
}
