import type { Logger } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDueQueue, type DueQueue, type DueQueueDeps } from "../../../src/platform/jobs/due-queue.js";

const quietLogger = () => ({ warn: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createDueQueue", () => {
  const schedules: DueQueue<number>[] = [];
  const make = (deps: Partial<DueQueueDeps<number>> & Pick<DueQueueDeps<number>, "run">) => {
    const s = createDueQueue<number>({ logger: quietLogger(), name: "test queue", ...deps });
    schedules.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of schedules.splice(0)) await s.stop();
    vi.useRealTimers();
  });

  it("keeps one timer for many queued keys", () => {
    vi.useFakeTimers();
    const s = make({ run: () => Promise.resolve(undefined) });
    s.start();
    const before = vi.getTimerCount();
    for (let key = 1; key <= 5_000; key += 1) s.at(key, 1_000 + key);
    expect(s.size()).toBe(5_000);
    expect(vi.getTimerCount() - before).toBe(1);
  });

  it("runs at most `concurrency` at once and every queued key in the end", async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    const ticked = new Set<number>();
    const s = make({
      concurrency: 3,
      maxPerSecond: 1_000,
      run: async (key) => {
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
        ticked.add(key);
        return undefined;
      },
    });
    s.start();
    for (let key = 1; key <= 20; key += 1) s.at(key, 0);
    await vi.waitFor(() => expect(running).toBe(3));
    expect(s.size()).toBe(17);
    gate.resolve();
    await vi.waitFor(() => expect(ticked.size).toBe(20));
    expect(most).toBe(3);
    expect(s.size()).toBe(0);
  });

  it("starts at most `maxPerSecond` runs a second, however many keys are due", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const s = make({ concurrency: 50, maxPerSecond: 10, run: (key) => Promise.resolve(void started.push(key)).then(() => undefined) });
    s.start();
    for (let key = 1; key <= 100; key += 1) s.at(key, 0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started.length).toBeGreaterThanOrEqual(10);
    expect(started.length).toBeLessThanOrEqual(11);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(started).toHaveLength(100);
    expect(new Set(started).size).toBe(100);
  });

  it("starts keys past due in the order of their due times, evenly spaced by the rate", async () => {
    vi.useFakeTimers({ now: 0 });
    const started: number[] = [];
    const s = make({ concurrency: 100, maxPerSecond: 10, run: (key) => Promise.resolve(void started.push(key)).then(() => undefined) });
    s.start();
    const keys = Array.from({ length: 25 }, (_, i) => 24 - i);
    for (const key of keys) s.at(key, key);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([0, 1]);
    // 100 ms apart: 11 in the first second, earliest first.
    await vi.advanceTimersByTimeAsync(900);
    expect(started).toEqual(Array.from({ length: 11 }, (_, i) => i));
    await vi.advanceTimersByTimeAsync(1_400);
    expect(started).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("starts no run while held, and reschedules by what the run returns", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const s = make({ maxPerSecond: 1_000, run: (key) => Promise.resolve(void started.push(key)).then(() => 500) });
    s.start();
    s.holdFor(2_000);
    s.at(1, 0);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toEqual([1]);
    expect(s.has(1)).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toEqual([1, 1]);
  });

  it("a key cancelled during its run is not queued again; one whose run says undefined leaves the queue", async () => {
    const gate = deferred();
    const started: number[] = [];
    const s = make({
      maxPerSecond: 1_000,
      run: async (key) => {
        started.push(key);
        if (key === 1) await gate.promise;
        return key === 1 ? 10 : undefined;
      },
    });
    s.start();
    s.at(1, 0);
    s.at(2, 0);
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
    await vi.waitFor(() => expect(s.has(2)).toBe(false));
    expect(s.has(1)).toBe(true);
    s.cancel(1);
    expect(s.has(1)).toBe(false);
    gate.resolve();
    await vi.waitFor(() => expect(s.size()).toBe(0));
    expect(s.has(1)).toBe(false);
  });

  it("a run that throws is logged and tried again", async () => {
    const logger = quietLogger();
    let calls = 0;
    const s = make({
      logger,
      retryMs: 5,
      maxPerSecond: 1_000,
      run: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error("store down")) : Promise.resolve(undefined);
      },
    });
    s.start();
    s.at(7, 0);
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ key: 7 }), expect.stringContaining("test queue run failed"));
  });

  it("without limits, starts every key that is due, thousands at once included", async () => {
    const started = new Set<number>();
    const s = make({ run: (key) => Promise.resolve(void started.add(key)).then(() => undefined) });
    s.start();
    for (let key = 1; key <= 3_000; key += 1) s.at(key, 0);
    await vi.waitFor(() => expect(started.size).toBe(3_000));
    expect(s.size()).toBe(0);
  });

  it("a key asked for while it runs runs again at the earlier of its two times", async () => {
    vi.useFakeTimers();
    const gate = deferred();
    const started: number[] = [];
    const s = make({
      run: async (key) => {
        started.push(key);
        if (started.length === 1) await gate.promise;
        return 10_000;
      },
    });
    s.start();
    s.at(1, 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1]);
    s.at(1, 100);
    expect(s.dueAt(1)).toBe(Date.now() + 100);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1, 1]);
    expect(s.dueAt(1)).toBe(Date.now() + 10_000);
  });

  it("a key due later than Node's longest timer waits for its time, and the earliest due time is known", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const s = make({ run: (key) => Promise.resolve(void started.push(key)).then(() => undefined) });
    s.start();
    const farMs = 40 * 24 * 3_600_000;
    s.at(1, farMs);
    s.at(2, 5_000);
    expect(s.nextDueAt()).toBe(Date.now() + 5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toEqual([2]);
    expect(s.nextDueAt()).toBe(Date.now() + farMs - 5_000);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(started).toEqual([2]);
    await vi.advanceTimersByTimeAsync(farMs - 5_000 - 2 ** 31);
    expect(started).toEqual([2, 1]);
  });

  it("stop forgets every due time and waits for the runs in flight", async () => {
    const gate = deferred();
    let began = false;
    let ended = false;
    const s = make({
      run: async (key) => {
        began = true;
        if (key === 1) await gate.promise;
        ended = true;
        return 0;
      },
    });
    s.start();
    s.at(1, 0);
    s.at(2, 60_000);
    await vi.waitFor(() => expect(began).toBe(true));
    const stopping = s.stop();
    expect(s.size()).toBe(0);
    gate.resolve();
    await stopping;
    expect(ended).toBe(true);
    expect(s.has(2)).toBe(false);
  });
});
