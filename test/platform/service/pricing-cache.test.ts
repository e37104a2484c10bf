import { describe, expect, it } from "vitest";
import { createPricingCache } from "../../../src/platform/service/pricing-cache.js";
import type { Pricing } from "../../../src/platform/service/schemas.js";
import { captureLogger } from "./capture-logger.js";

function pricing(baseUnitPriceSun: number): Pricing {
  return {
    resource: "ENERGY",
    baseUnitPriceSun,
    amountMin: 50_000,
    amountMax: 200_000,
    tiers: [{ durationSec: 60, label: "1m", unitPriceSun: baseUnitPriceSun }],
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A load function whose calls are answered by the test, one at a time. */
function scriptedLoad() {
  const pending: ReturnType<typeof deferred<Pricing>>[] = [];
  return {
    calls: () => pending.length,
    load: () => {
      const d = deferred<Pricing>();
      pending.push(d);
      return d.promise;
    },
    resolve: (i: number, value: Pricing) => pending[i]!.resolve(value),
    reject: (i: number, error: unknown) => pending[i]!.reject(error),
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("createPricingCache", () => {
  it("shares one load between 1,000 concurrent gets", async () => {
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, logger: captureLogger().logger });
    const gets = Array.from({ length: 1000 }, () => cache.get());
    expect(script.calls()).toBe(1);
    script.resolve(0, pricing(90));
    const results = await Promise.all(gets);
    expect(new Set(results).size).toBe(1);
    expect(results[0]!.baseUnitPriceSun).toBe(90);
    expect(script.calls()).toBe(1);
  });

  it("serves a fresh value within the TTL without loading", async () => {
    let clock = 0;
    let loads = 0;
    const cache = createPricingCache({
      load: () => Promise.resolve(pricing(90 + loads++)),
      ttlMs: 1000,
      now: () => clock,
      logger: captureLogger().logger,
    });
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    clock = 999;
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    expect(loads).toBe(1);
  });

  it("serves the stale value at once while one background refresh runs", async () => {
    let clock = 0;
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, ttlMs: 1000, now: () => clock, logger: captureLogger().logger });
    const first = cache.get();
    script.resolve(0, pricing(90));
    await first;

    clock = 1000;
    const stale = await Promise.all(Array.from({ length: 50 }, () => cache.get()));
    expect(stale.every((p) => p.baseUnitPriceSun === 90)).toBe(true);
    expect(script.calls()).toBe(2);

    script.resolve(1, pricing(95));
    await flush();
    expect((await cache.get()).baseUnitPriceSun).toBe(95);
    expect(cache.peek()?.baseUnitPriceSun).toBe(95);
    expect(script.calls()).toBe(2);
  });

  it("throws the load error to every waiter when there is no value at all, and tries again next time", async () => {
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, logger: captureLogger().logger });
    const gets = [cache.get(), cache.get(), cache.get()];
    script.reject(0, new Error("service down"));
    for (const g of gets) await expect(g).rejects.toThrow("service down");
    expect(cache.peek()).toBeUndefined();

    const retry = cache.get();
    expect(script.calls()).toBe(2);
    script.resolve(1, pricing(90));
    expect((await retry).baseUnitPriceSun).toBe(90);
  });

  it("logs a failed background refresh instead of throwing, and keeps serving the old value", async () => {
    let clock = 0;
    const script = scriptedLoad();
    const captured = captureLogger();
    const cache = createPricingCache({
      load: script.load,
      ttlMs: 1000,
      failureCooldownMs: 500,
      now: () => clock,
      logger: captured.logger,
    });
    const first = cache.get();
    script.resolve(0, pricing(90));
    await first;

    clock = 2000;
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    script.reject(1, new Error("503 upstream"));
    await flush();
    const warnings = captured.records().filter((r) => r["level"] === 40);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!["msg"])).toMatch(/pricing refresh failed/);

    // Within the cooldown no new request is made; after it, one is.
    clock = 2400;
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    expect(script.calls()).toBe(2);
    clock = 2600;
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    expect(script.calls()).toBe(3);
  });

  it("refreshes after invalidate() while still serving the old value", async () => {
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, logger: captureLogger().logger });
    const first = cache.get();
    script.resolve(0, pricing(90));
    await first;

    cache.invalidate();
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    expect(script.calls()).toBe(2);
    script.resolve(1, pricing(99));
    await flush();
    expect((await cache.get()).baseUnitPriceSun).toBe(99);
  });

  it("does not count a load that started before invalidate() as fresh", async () => {
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, logger: captureLogger().logger });
    const first = cache.get();
    cache.invalidate();
    script.resolve(0, pricing(90));
    expect((await first).baseUnitPriceSun).toBe(90);

    // The value is usable but stale: the next get serves it and refreshes.
    expect((await cache.get()).baseUnitPriceSun).toBe(90);
    expect(script.calls()).toBe(2);
  });

  it("peeks without loading", () => {
    const script = scriptedLoad();
    const cache = createPricingCache({ load: script.load, logger: captureLogger().logger });
    expect(cache.peek()).toBeUndefined();
    expect(script.calls()).toBe(0);
  });
});
