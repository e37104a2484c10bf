import { afterEach, describe, expect, it, vi } from "vitest";
import { createRepeatedPass, type RepeatedPass, type RepeatedPassDeps } from "../../../src/platform/jobs/repeated-pass.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createRepeatedPass", () => {
  const made: RepeatedPass[] = [];
  const make = (deps: Partial<RepeatedPassDeps> & Pick<RepeatedPassDeps, "pass">) => {
    const repeated = createRepeatedPass({ failed: vi.fn(), ...deps });
    made.push(repeated);
    return repeated;
  };
  afterEach(async () => {
    for (const repeated of made.splice(0)) await repeated.stop();
    vi.useRealTimers();
  });

  it("runs the first pass at start, then each next one `everyMs` after the last one ended", async () => {
    vi.useFakeTimers();
    const startedAt: number[] = [];
    const repeated = make({ everyMs: 1_000, pass: () => Promise.resolve(void startedAt.push(Date.now())) });
    const t0 = Date.now();
    await repeated.start();
    expect(startedAt).toEqual([t0]);
    await vi.advanceTimersByTimeAsync(999);
    expect(startedAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(startedAt).toEqual([t0, t0 + 1_000, t0 + 2_000]);
  });

  it("never runs two passes at once: a pass slower than its interval delays the next", async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    const ended: number[] = [];
    const repeated = make({
      everyMs: 100,
      pass: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 250));
        running -= 1;
        ended.push(Date.now());
      },
    });
    const t0 = Date.now();
    const first = repeated.start();
    // Asked for while the first runs: it joins it.
    const joined = repeated.runNow();
    await vi.advanceTimersByTimeAsync(250);
    await Promise.all([first, joined]);
    await vi.advanceTimersByTimeAsync(100 + 250 + 100 + 250);
    expect(ended).toEqual([t0 + 250, t0 + 600, t0 + 950]);
    expect(most).toBe(1);
  });

  it("rejects the start with the first pass's error, tries it again after `retryMs`, and reports later failures", async () => {
    vi.useFakeTimers();
    const failed = vi.fn();
    let calls = 0;
    const repeated = make({
      everyMs: 10_000,
      retryMs: 500,
      failed,
      pass: () => {
        calls += 1;
        return calls <= 2 ? Promise.reject(new Error(`store down ${calls}`)) : Promise.resolve();
      },
    });
    await expect(repeated.start()).rejects.toThrow("store down 1");
    expect(failed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toBe(2);
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: "store down 2" }));
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toBe(3);
    // It worked: the next one comes at the interval, not at the retry's pace.
    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(4);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  it("without `everyMs`, runs again only until a pass works", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const repeated = make({
      retryMs: 1_000,
      pass: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error("not yet")) : Promise.resolve();
      },
    });
    await expect(repeated.start()).rejects.toThrow("not yet");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("with neither `everyMs` nor `retryMs`, runs once", async () => {
    vi.useFakeTimers();
    const pass = vi.fn(() => Promise.reject(new Error("once")));
    const repeated = make({ pass });
    await expect(repeated.start()).rejects.toThrow("once");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pass).toHaveBeenCalledTimes(1);
  });

  it("stop aborts the pass under way, waits for it, reports nothing of it and runs no more", async () => {
    const failed = vi.fn();
    const entered = deferred();
    let ended = false;
    let pass = 0;
    const repeated = make({
      everyMs: 1,
      failed,
      pass: async (signal) => {
        pass += 1;
        if (pass === 1) return;
        entered.resolve();
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        ended = true;
        throw new Error("aborted half-way");
      },
    });
    await repeated.start();
    await entered.promise;
    await repeated.stop();
    expect(ended).toBe(true);
    expect(repeated.current).toBeUndefined();
    expect(failed).not.toHaveBeenCalled();
    await repeated.runNow();
    expect(pass).toBe(2);
  });

  it("starts again after a stop, with a signal not aborted", async () => {
    const signals: AbortSignal[] = [];
    const repeated = make({ everyMs: 60_000, pass: (signal) => Promise.resolve(void signals.push(signal)) });
    await repeated.start();
    await repeated.stop();
    await repeated.start();
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });
});
