/**
 * Every timer of the simulator goes through here so `stop()` can cancel all
 * of them, and lifecycles can be paused: a step that comes due while paused
 * is parked and re-armed (with its original delay) on resume.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private parked: Array<{ fn: () => void; ms: number }> = [];
  private paused = false;
  private stopped = false;

  /** A plain timer (webhook retries, processing delays); not affected by pause. */
  after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }

  /** A lifecycle step: held back while lifecycles are paused. */
  step(ms: number, fn: () => void): void {
    this.after(ms, () => {
      if (this.paused) this.parked.push({ fn, ms });
      else fn();
    });
  }

  /** Resolves after `ms`, or at once when the simulator stops. */
  sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.sleepers.delete(done);
        resolve();
      };
      this.sleepers.add(done);
      this.after(ms, done);
    });
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    if (paused) return;
    const parked = this.parked;
    this.parked = [];
    for (const p of parked) this.step(p.ms, p.fn);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.parked = [];
    for (const wake of [...this.sleepers]) wake();
  }
}
