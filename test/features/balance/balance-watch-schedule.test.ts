import type { Logger } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWatchSchedule, type WatchSchedule, type WatchScheduleDeps } from "../../../src/features/balance/balance-watch-schedule.js";

const quietLogger = () => ({ warn: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createWatchSchedule", () => {
  const schedules: WatchSchedule[] = [];
  const make = (deps: Partial<WatchScheduleDeps> & Pick<WatchScheduleDeps, "tick">) => {
    const s = createWatchSchedule({ logger: quietLogger(), ...deps });
    schedules.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of schedules.splice(0)) await s.stop();
    vi.useRealTimers();
  });

  it("keeps one timer for many queued chats", () => {
    vi.useFakeTimers();
    const s = make({ tick: () => Promise.resolve(undefined) });
    s.start(3_600_000, () => Promise.resolve());
    const before = vi.getTimerCount();
    for (let chatId = 1; chatId <= 5_000; chatId += 1) s.at(chatId, 1_000 + chatId);
    expect(s.size()).toBe(5_000);
    expect(vi.getTimerCount() - before).toBe(1);
  });

  it("runs at most `concurrency` ticks at once and every queued chat in the end", async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    const ticked = new Set<number>();
    const s = make({
      concurrency: 3,
      maxPerSecond: 1_000,
      tick: async (chatId) => {
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
        ticked.add(chatId);
        return undefined;
      },
    });
    s.start(3_600_000, () => Promise.resolve());
    for (let chatId = 1; chatId <= 20; chatId += 1) s.at(chatId, 0);
    await vi.waitFor(() => expect(running).toBe(3));
    expect(s.size()).toBe(17);
    gate.resolve();
    await vi.waitFor(() => expect(ticked.size).toBe(20));
    expect(most).toBe(3);
    expect(s.size()).toBe(0);
  });

  it("starts at most `maxPerSecond` ticks a second, however many chats are due", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const s = make({ concurrency: 50, maxPerSecond: 10, tick: (chatId) => Promise.resolve(void started.push(chatId)).then(() => undefined) });
    s.start(3_600_000, () => Promise.resolve());
    for (let chatId = 1; chatId <= 100; chatId += 1) s.at(chatId, 0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started.length).toBeGreaterThanOrEqual(10);
    expect(started.length).toBeLessThanOrEqual(11);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(started).toHaveLength(100);
    expect(new Set(started).size).toBe(100);
  });

  it("starts no tick while held, and reschedules by what the tick returns", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const s = make({ maxPerSecond: 1_000, tick: (chatId) => Promise.resolve(void started.push(chatId)).then(() => 500) });
    s.start(3_600_000, () => Promise.resolve());
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

  it("a chat cancelled during its tick is not queued again; one whose tick says undefined leaves the queue", async () => {
    const gate = deferred();
    const started: number[] = [];
    const s = make({
      maxPerSecond: 1_000,
      tick: async (chatId) => {
        started.push(chatId);
        if (chatId === 1) await gate.promise;
        return chatId === 1 ? 10 : undefined;
      },
    });
    s.start(3_600_000, () => Promise.resolve());
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

  it("a tick that throws is logged and tried again", async () => {
    const logger = quietLogger();
    let calls = 0;
    const s = make({
      logger,
      retryMs: 5,
      maxPerSecond: 1_000,
      tick: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error("store down")) : Promise.resolve(undefined);
      },
    });
    s.start(3_600_000, () => Promise.resolve());
    s.at(7, 0);
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ chatId: 7 }), expect.stringContaining("tick failed"));
  });

  it("start does not wait for the sweep; a failed sweep is logged; stop aborts the sweep and waits for it", async () => {
    const logger = quietLogger();
    const s = make({ logger, tick: () => Promise.resolve(undefined) });
    let sweeps = 0;
    let ended = false;
    s.start(5, async (signal) => {
      sweeps += 1;
      if (sweeps === 1) throw new Error("list failed");
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      ended = true;
    });
    await vi.waitFor(() => expect(sweeps).toBe(2));
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), expect.stringContaining("sweep failed"));
    await s.stop();
    expect(ended).toBe(true);
  });
});
