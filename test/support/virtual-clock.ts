/**
 * A virtual clock for the push queue and the fake Bot API: time stands still
 * while a send is on the wire (`hold`) and jumps to the next timer as soon as
 * nothing is in flight. Telegram's real limits then take as long as the
 * machine needs to do the work, never the minute they span, and a send
 * arrives at the instant it left: pacing is judged exactly, however loaded
 * the machine is.
 */
import type { PushClock } from "../../src/platform/push/types.js";

export interface VirtualClock extends PushClock {
  /** Runs `work` at one instant: the clock does not move until it settles. */
  hold<T>(work: () => Promise<T>): Promise<T>;
}

export function createVirtualClock(start = Date.now()): VirtualClock {
  let now = start;
  let held = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let ticking: NodeJS.Immediate | undefined;

  const kick = () => {
    ticking ??= setImmediate(tick);
  };

  function tick(): void {
    ticking = undefined;
    const due = [...timers].filter(([, t]) => t.at <= now).sort(([a, x], [b, y]) => x.at - y.at || a - b);
    if (due.length > 0) {
      for (const [id] of due) timers.delete(id);
      for (const [, t] of due) t.fn();
      kick();
      return;
    }
    // Work in flight (or nothing scheduled): time waits; `hold` and `after` kick again.
    if (held > 0 || timers.size === 0) return;
    now = Math.min(...[...timers.values()].map((t) => t.at));
    kick();
  }

  return {
    now: () => now,
    after(ms, fn) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      kick();
      return () => {
        timers.delete(id);
      };
    },
    async hold(work) {
      held += 1;
      try {
        return await work();
      } finally {
        held -= 1;
        kick();
      }
    },
  };
}
