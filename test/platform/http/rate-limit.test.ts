import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../src/platform/http/rate-limit.js";

describe("token-bucket rate limiter", () => {
  it("lets a burst through, then one request per refill, and says how long to wait", () => {
    const limiter = createRateLimiter({ burst: 3, perSecond: 0.5 });
    const at = (now: number) => limiter.take("k", now);
    expect([at(0), at(0), at(0)].every((d) => d.ok)).toBe(true);
    expect(at(0)).toEqual({ ok: false, retryAfterSec: 2 });
    expect(at(1_000)).toEqual({ ok: false, retryAfterSec: 1 });
    expect(at(2_000).ok).toBe(true);
    expect(at(2_000).ok).toBe(false);
  });

  it("keeps keys apart and never refills past the burst", () => {
    const limiter = createRateLimiter({ burst: 2, perSecond: 1 });
    expect(limiter.take("a", 0).ok && limiter.take("a", 0).ok).toBe(true);
    expect(limiter.take("a", 0).ok).toBe(false);
    expect(limiter.take("b", 0).ok).toBe(true);
    const later = 3_600_000;
    expect([limiter.take("a", later).ok, limiter.take("a", later).ok, limiter.take("a", later).ok]).toEqual([true, true, false]);
  });

  it("stays bounded with a flood of distinct keys", () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 });
    for (let i = 0; i < 50_000; i += 1) limiter.take(`k${i}`, 0);
    // A key seen long ago may be forgotten (fresh burst), never refused wrongly.
    expect(limiter.take("k0", 0).ok).toBe(true);
  });
});
