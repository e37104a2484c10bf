import type { Logger } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWatchSchedule, type WatchSchedule } from "../../../src/features/balance/balance-watch-schedule.js";

const quietLogger = () => ({ warn: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

describe("createWatchSchedule", () => {
  const schedules: WatchSchedule[] = [];
  const make = (logger: Logger) => {
    const s = createWatchSchedule({ logger, tick: () => Promise.resolve(undefined) });
    schedules.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of schedules.splice(0)) await s.stop();
  });

  it("start does not wait for the sweep; a failed sweep is logged; stop aborts the sweep and waits for it", async () => {
    const logger = quietLogger();
    const s = make(logger);
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

  it("runs four reads at most in flight unless told otherwise", async () => {
    let running = 0;
    let most = 0;
    const gate: { open?: () => void } = {};
    const opened = new Promise<void>((resolve) => (gate.open = resolve));
    const s = createWatchSchedule({
      logger: quietLogger(),
      maxPerSecond: 1_000,
      tick: async () => {
        running += 1;
        most = Math.max(most, running);
        await opened;
        running -= 1;
        return undefined;
      },
    });
    schedules.push(s);
    s.start(3_600_000, () => Promise.resolve());
    for (let chatId = 1; chatId <= 10; chatId += 1) s.at(chatId, 0);
    await vi.waitFor(() => expect(running).toBe(4));
    gate.open?.();
    await vi.waitFor(() => expect(s.size()).toBe(0));
    await vi.waitFor(() => expect(running).toBe(0));
    expect(most).toBe(4);
  });
  it("started twice, sweeps once; stopped, sweeps no more; started again, sweeps again", async () => {
    const s = make(quietLogger());
    const seen: string[] = [];
    s.start(3_600_000, () => Promise.resolve(void seen.push("first")));
    s.start(3_600_000, () => Promise.resolve(void seen.push("second")));
    await vi.waitFor(() => expect(seen).toEqual(["first"]));
    await s.stop();
    s.start(3_600_000, () => Promise.resolve(void seen.push("again")));
    await vi.waitFor(() => expect(seen).toEqual(["first", "again"]));
  });
});
