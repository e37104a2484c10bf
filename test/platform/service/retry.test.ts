import { describe, expect, it } from "vitest";
import { CLIENT_ERROR_CODES, ServiceError } from "../../../src/platform/service/errors.js";
import { fullJitter, retryDelayMs, runWithRetry, type RetryPolicy } from "../../../src/platform/service/retry.js";

const policy: RetryPolicy = { maxAttempts: 4, backoffBaseMs: 300, backoffMaxMs: 4000, random: () => 0.999999 };
const err = (code: string, status: number, extra: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}) => new ServiceError({ code, status, ...extra });

describe("retryDelayMs (section 7 retry guidance)", () => {
  it("waits Retry-After on 429, or backs off when it is absent", () => {
    expect(retryDelayMs(err("rate_limited", 429, { retryAfterSec: 3 }), 1, "replayable", policy)).toBe(3000);
    expect(retryDelayMs(err("rate_limited", 429, { retryAfterSec: 3 }), 1, "once", policy)).toBe(3000);
    expect(retryDelayMs(err("rate_limited", 429), 1, "replayable", policy)).toBe(299);
  });

  it("waits 2 s on idempotency.in_progress unless told otherwise", () => {
    expect(retryDelayMs(err("idempotency.in_progress", 409), 1, "replayable", policy)).toBe(2000);
    expect(retryDelayMs(err("idempotency.in_progress", 409, { retryAfterSec: 1 }), 1, "replayable", policy)).toBe(1000);
  });

  it("backs off exponentially on 503, broadcasts included (nothing was charged)", () => {
    expect(retryDelayMs(err("broadcast.upstream_unavailable", 503), 1, "once", policy)).toBe(299);
    expect(retryDelayMs(err("service_unavailable", 503), 3, "replayable", policy)).toBe(1199);
  });

  it("retries timeouts and dropped connections only when a resend is a replay", () => {
    const timeout = err(CLIENT_ERROR_CODES.timeout, 0);
    const reset = err(CLIENT_ERROR_CODES.connection, 0, { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
    const refused = err(CLIENT_ERROR_CODES.connection, 0, { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) });
    expect(retryDelayMs(timeout, 1, "replayable", policy)).toBeTypeOf("number");
    expect(retryDelayMs(timeout, 1, "once", policy)).toBeUndefined();
    expect(retryDelayMs(reset, 1, "replayable", policy)).toBeTypeOf("number");
    expect(retryDelayMs(reset, 1, "once", policy)).toBeUndefined();
    expect(retryDelayMs(refused, 1, "once", policy)).toBeTypeOf("number");
  });

  it("treats a refused connection reported as an AggregateError (several addresses) as never sent", () => {
    const cause = Object.assign(
      new AggregateError([Object.assign(new Error("a"), { code: "ECONNREFUSED" }), Object.assign(new Error("b"), { code: "ECONNREFUSED" })]),
      { code: "ECONNREFUSED" },
    );
    expect(retryDelayMs(err(CLIENT_ERROR_CODES.connection, 0, { cause }), 1, "once", policy)).toBeTypeOf("number");
  });

  it.each([
    ["validation.invalid_field", 400],
    ["broadcast.malformed", 400],
    ["api_key.invalid", 401],
    ["api_key.revoked", 401],
    ["wallet.insufficient_balance", 402],
    ["api_keys.ip_not_allowed", 403],
    ["not_found", 404],
    ["broadcast.duplicate_tx", 409],
    ["request.invalid", 413],
    ["idempotency.key_reuse", 422],
    ["order.receiver_undeliverable", 422],
    ["internal", 500],
    [CLIENT_ERROR_CODES.badResponse, 200],
    [CLIENT_ERROR_CODES.bodyTooLarge, 0],
    [CLIENT_ERROR_CODES.invalidId, 0],
  ])("never retries %s (%d)", (code, status) => {
    expect(retryDelayMs(err(code, status), 1, "replayable", policy)).toBeUndefined();
  });

  it("does not retry errors that are not ServiceErrors", () => {
    expect(retryDelayMs(new TypeError("bug"), 1, "replayable", policy)).toBeUndefined();
  });
});

describe("fullJitter", () => {
  it("stays within [0, min(max, base * 2^(n-1))]", () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const ceiling = Math.min(4000, 300 * 2 ** (attempt - 1));
      expect(fullJitter(attempt, { ...policy, random: () => 0 })).toBe(0);
      expect(fullJitter(attempt, policy)).toBeLessThan(ceiling);
      expect(fullJitter(attempt, policy)).toBeGreaterThanOrEqual(ceiling - 1);
    }
  });
});

describe("runWithRetry", () => {
  const fastPolicy: RetryPolicy = { maxAttempts: 4, backoffBaseMs: 1, backoffMaxMs: 2, random: () => 0.5 };

  it("stops after maxAttempts and throws the last real error", async () => {
    let calls = 0;
    const run = runWithRetry(
      () => {
        calls += 1;
        return Promise.reject(err("service_unavailable", 503, { detail: `try ${calls}` }));
      },
      { resend: "replayable", policy: fastPolicy, attemptTimeoutMs: 1000, totalTimeoutMs: 10_000 },
    );
    await expect(run).rejects.toMatchObject({ code: "service_unavailable", detail: "try 4" });
    expect(calls).toBe(4);
  });

  it("gives up with the 429 when its Retry-After would pass the deadline", async () => {
    let calls = 0;
    const run = runWithRetry(
      () => {
        calls += 1;
        return Promise.reject(err("rate_limited", 429, { retryAfterSec: 30 }));
      },
      { resend: "replayable", policy: fastPolicy, attemptTimeoutMs: 1000, totalTimeoutMs: 5_000 },
    );
    await expect(run).rejects.toMatchObject({ code: "rate_limited", status: 429 });
    expect(calls).toBe(1);
  });

  it("gives each attempt at most what is left of the total budget", async () => {
    let clock = 0;
    const budgets: number[] = [];
    const run = runWithRetry(
      (_attempt, timeoutMs) => {
        budgets.push(timeoutMs);
        clock += timeoutMs;
        return Promise.reject(err(CLIENT_ERROR_CODES.timeout, 0));
      },
      { resend: "replayable", policy: { ...fastPolicy, random: () => 0 }, attemptTimeoutMs: 5000, totalTimeoutMs: 12_000, now: () => clock },
    );
    await expect(run).rejects.toMatchObject({ code: CLIENT_ERROR_CODES.timeout });
    expect(budgets).toEqual([5000, 5000, 2000]);
  });

  it("rethrows the caller's abort reason while waiting", async () => {
    const controller = new AbortController();
    const reason = new Error("shutting down");
    const run = runWithRetry(
      () => {
        setTimeout(() => controller.abort(reason), 5);
        return Promise.reject(err("rate_limited", 429, { retryAfterSec: 2 }));
      },
      { resend: "replayable", policy: fastPolicy, attemptTimeoutMs: 1000, totalTimeoutMs: 10_000, signal: controller.signal },
    );
    await expect(run).rejects.toBe(reason);
  });
});
