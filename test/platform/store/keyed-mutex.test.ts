import { describe, expect, it } from "vitest";
import { createKeyedMutex } from "../../../src/platform/store/keyed-mutex.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("keyed mutex", () => {
  it("runs tasks of one key one at a time, in call order", async () => {
    const mutex = createKeyedMutex();
    const log: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        mutex.run("k", async () => {
          log.push(`start ${n}`);
          await tick();
          log.push(`end ${n}`);
        }),
      ),
    );
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it("lets different keys overlap", async () => {
    const mutex = createKeyedMutex();
    const log: string[] = [];
    const task = (key: string) =>
      mutex.run(key, async () => {
        log.push(`start ${key}`);
        await tick();
        log.push(`end ${key}`);
      });
    await Promise.all([task("a"), task("b")]);
    expect(log.slice(0, 2)).toEqual(["start a", "start b"]);
  });

  it("passes results and errors to each caller and keeps going after a failure", async () => {
    const mutex = createKeyedMutex();
    const failed = mutex.run("k", () => Promise.reject(new Error("boom")));
    const next = mutex.run("k", () => Promise.resolve(7));
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe(7);
  });

  it("forgets a key once its queue is empty", async () => {
    const mutex = createKeyedMutex();
    const running = mutex.run("k", async () => tick());
    expect(mutex.pendingKeys).toBe(1);
    await running;
    await tick();
    expect(mutex.pendingKeys).toBe(0);
  });
});
