import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../testkit/simulator/index.js";
import { call, startTestSimulator } from "./helpers.js";

describe("simulator authentication (section 5)", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator();
  });
  afterAll(() => sim.stop());

  it("returns the balance for a valid Bearer key", async () => {
    const { apiKey } = sim.createAccount({ balanceSun: 42_000_000, depositAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu" });
    const r = await call(sim, "GET", "/v1/balance", { apiKey });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ availableSun: 42_000_000, depositAddress: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu" });
  });

  it("refuses a missing header, another scheme and an empty token with 401 api_key.invalid", async () => {
    const { apiKey } = sim.createAccount();
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Token ${apiKey}` },
      { authorization: `bearer ${apiKey}` },
      { authorization: "Bearer " },
      { authorization: apiKey },
    ]) {
      const r = await call(sim, "GET", "/v1/balance", { headers });
      expect(r.status).toBe(401);
      expect(r.json.code).toBe("api_key.invalid");
    }
  });

  it("refuses an unknown key with 401 api_key.invalid and a revoked one with api_key.revoked", async () => {
    expect((await call(sim, "GET", "/v1/balance", { apiKey: "sk_sim_nope" })).json.code).toBe("api_key.invalid");
    const { apiKey } = sim.createAccount();
    sim.revokeKey(apiKey);
    const r = await call(sim, "GET", "/v1/balance", { apiKey });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe("api_key.revoked");
  });

  it("keeps other keys of the account working after one is revoked", async () => {
    const { accountId, apiKey } = sim.createAccount();
    const second = sim.createApiKey(accountId);
    sim.revokeKey(apiKey);
    expect((await call(sim, "GET", "/v1/balance", { apiKey: second.apiKey })).status).toBe(200);
  });

  it("refuses a source address outside the allowlist with 403 and seenIp, ignoring forwarding headers", async () => {
    const { accountId } = sim.createAccount();
    const { apiKey } = sim.createApiKey(accountId, { ipAllowlist: ["10.1.2.3"] });
    const r = await call(sim, "GET", "/v1/balance", { apiKey, headers: { "x-forwarded-for": "10.1.2.3", "x-real-ip": "10.1.2.3" } });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: "api_keys.ip_not_allowed", seenIp: "127.0.0.1" });
  });

  it("lets the allowlisted source through, and everyone once the allowlist is removed", async () => {
    const { apiKey } = sim.createAccount();
    sim.setIpAllowlist(apiKey, ["10.1.2.3", "127.0.0.1"]);
    expect((await call(sim, "GET", "/v1/balance", { apiKey })).status).toBe(200);
    sim.setIpAllowlist(apiKey, ["10.1.2.3"]);
    expect((await call(sim, "GET", "/v1/balance", { apiKey })).status).toBe(403);
    sim.setIpAllowlist(apiKey, null);
    expect((await call(sim, "GET", "/v1/balance", { apiKey })).status).toBe(200);
  });

  it("refuses an allowlist over 32 entries", () => {
    const { apiKey } = sim.createAccount();
    expect(() =>
      sim.setIpAllowlist(
        apiKey,
        Array.from({ length: 33 }, (_, i) => `10.0.0.${i}`),
      ),
    ).toThrow();
  });

  it("answers 404 not_found for the balance of an account without a wallet, until a deposit", async () => {
    const { accountId, apiKey } = sim.createAccount({ hasWallet: false });
    const r = await call(sim, "GET", "/v1/balance", { apiKey });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe("not_found");
    sim.credit(accountId, 10_000_000);
    expect((await call(sim, "GET", "/v1/balance", { apiKey })).json.availableSun).toBe(10_000_000);
  });

  it("reports depositAddress null until one is issued", async () => {
    const { apiKey } = sim.createAccount({ depositAddress: null });
    expect((await call(sim, "GET", "/v1/balance", { apiKey })).json).toEqual({ availableSun: 0, depositAddress: null });
  });

  it("credits deposits into the balance and the ledger", () => {
    const { accountId } = sim.createAccount({ balanceSun: 5 });
    sim.credit(accountId, 20_000_000);
    expect(sim.balanceOf(accountId)).toBe(20_000_005);
    expect(sim.ledger(accountId).map((e) => [e.kind, e.amountSun])).toEqual([
      ["deposit", 5],
      ["deposit", 20_000_000],
    ]);
  });

  it("refuses a callback URL that is not https (loopback http excepted)", () => {
    const { apiKey } = sim.createAccount();
    expect(() => sim.setCallbackUrl(apiKey, "http://example.com/hook")).toThrow(/https/);
    expect(() => sim.setCallbackUrl(apiKey, "not a url")).toThrow();
    sim.setCallbackUrl(apiKey, "https://example.com/hook");
    sim.setCallbackUrl(apiKey, "http://127.0.0.1:9/hook");
    sim.setCallbackUrl(apiKey, null);
  });

  it("answers 413 request.invalid for a body over 1 MiB", async () => {
    const { apiKey } = sim.createAccount();
    const big = JSON.stringify({ items: [], pad: "x".repeat(1_048_576) });
    const r = await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "big", rawBody: big });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ code: "request.invalid", status: 413 });
  });

  it("answers 400 validation.invalid_field for a body that is not JSON", async () => {
    const { apiKey } = sim.createAccount();
    const r = await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "j", rawBody: "{nope" });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("validation.invalid_field");
  });
});

describe("simulator rate limiting", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ rateLimitPerSecond: 3 });
  });
  afterAll(() => sim.stop());

  it("answers 429 rate_limited with Retry-After, level and retryAfterSec once a key's bucket is empty", async () => {
    const { apiKey } = sim.createAccount();
    const results = await Promise.all(Array.from({ length: 8 }, () => call(sim, "GET", "/v1/balance", { apiKey })));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const r = limited[0]!;
    expect(r.json).toMatchObject({ code: "rate_limited", level: "api_key", retryAfterSec: expect.any(Number) });
    expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(r.json.retryAfterSec).toBe(Number(r.headers["retry-after"]));
  });

  it("limits each key separately", async () => {
    const a = sim.createAccount();
    const b = sim.createAccount();
    await Promise.all(Array.from({ length: 6 }, () => call(sim, "GET", "/v1/balance", { apiKey: a.apiKey })));
    expect((await call(sim, "GET", "/v1/balance", { apiKey: b.apiKey })).status).toBe(200);
  });
});
