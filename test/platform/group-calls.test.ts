import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupCalls } from "../../src/platform/group-calls.js";

/** A grouped call whose flushes are recorded: each flush answers its inputs doubled. */
function recorded(options: Parameters<typeof groupCalls>[1] = {}) {
  const flushes: number[][] = [];
  const grouped = groupCalls((inputs: number[]) => {
    flushes.push(inputs);
    return Promise.resolve(inputs.map((n) => n * 2));
  }, options);
  return { grouped, flushes };
}

describe("groupCalls", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("flushes the calls made in one turn together, each caller getting its own answer", async () => {
    const { grouped, flushes } = recorded();
    const answers = Promise.all([grouped.call(1), grouped.call(2), grouped.call(3)]);
    await vi.runAllTimersAsync();
    expect(await answers).toEqual([2, 4, 6]);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it("splits a burst into batches of at most maxBatch", async () => {
    const { grouped, flushes } = recorded({ maxBatch: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5].map((n) => grouped.call(n)));
    await vi.runAllTimersAsync();
    expect(await answers).toEqual([2, 4, 6, 8, 10]);
    expect(flushes).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("rejects every call of a batch whose flush failed", async () => {
    const grouped = groupCalls<number, number>(() => Promise.reject(new Error("store down")));
    const answers = [grouped.call(1), grouped.call(2)].map((p) => p.catch((error: unknown) => (error as Error).message));
    await vi.runAllTimersAsync();
    expect(await Promise.all(answers)).toEqual(["store down", "store down"]);
  });

  it("with lingerMs, lets a batch wait that long for calls made in later turns", async () => {
    const { grouped, flushes } = recorded({ lingerMs: 25 });
    const first = grouped.call(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(flushes).toEqual([]);
    const second = grouped.call(2);
    await vi.advanceTimersByTimeAsync(20);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(flushes).toEqual([[1, 2]]);
  });

  it("with lingerMs, flushes a full batch at once", async () => {
    const { grouped, flushes } = recorded({ lingerMs: 60_000, maxBatch: 3 });
    const answers = Promise.all([1, 2, 3].map((n) => grouped.call(n)));
    await vi.advanceTimersByTimeAsync(1);
    expect(flushes).toEqual([[1, 2, 3]]);
    expect(await answers).toEqual([2, 4, 6]);
  });

  it("flushes a lingering batch at once for idle(), and calls made while idle() is awaited do not linger", async () => {
    const { grouped, flushes } = recorded({ lingerMs: 60_000 });
    const first = grouped.call(1);
    const idle = grouped.idle();
    const second = grouped.call(2);
    await vi.advanceTimersByTimeAsync(1);
    await idle;
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(flushes.flat()).toEqual([1, 2]);
    // Once idle() has resolved, lingering applies again.
    const third = grouped.call(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(flushes.flat()).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await third).toBe(6);
  });
});
