import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "undici";
import type { Simulator } from "../../testkit/simulator/index.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { call, startTestSimulator } from "./helpers.js";

const item = { toAddress: TEST_KEYS.bob.address, amount: 65_000, resource: "ENERGY", durationSec: 300 };

describe("simulator fault injection", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator();
  });
  afterAll(() => sim.stop());

  it("answers an injected status with the envelope and Retry-After, for the given number of times", async () => {
    sim.faults.inject({ method: "GET", path: "/v1/public/pricing", times: 2, kind: "status", status: 429, code: "rate_limited", retryAfterSec: 3 });
    const a = await call(sim, "GET", "/v1/public/pricing");
    expect(a.status).toBe(429);
    expect(a.headers["retry-after"]).toBe("3");
    expect(a.json).toMatchObject({ code: "rate_limited", retryAfterSec: 3, level: expect.any(String), instance: "/v1/public/pricing" });
    expect((await call(sim, "GET", "/v1/public/pricing")).status).toBe(429);
    expect((await call(sim, "GET", "/v1/public/pricing")).status).toBe(200);
  });

  it("matches paths by RegExp and method", async () => {
    sim.faults.inject({ method: "GET", path: /^\/v1\/orders\//, times: 1, kind: "status", status: 500, code: "internal_error" });
    const { apiKey } = sim.createAccount();
    expect((await call(sim, "POST", "/v1/orders", { apiKey, body: {}, idempotencyKey: "x" })).status).toBe(400);
    expect((await call(sim, "GET", `/v1/orders/${"a".repeat(24)}`, { apiKey })).status).toBe(500);
  });

  it("answers a non-JSON body", async () => {
    sim.faults.inject({ path: "/v1/public/system", times: 1, kind: "non_json", status: 502 });
    const r = await call(sim, "GET", "/v1/public/system");
    expect(r.status).toBe(502);
    expect(r.json).toBeUndefined();
    expect(r.headers["content-type"]).toMatch(/text\/html/);
  });

  it("resets the connection", async () => {
    sim.faults.inject({ path: "/v1/public/system", times: 1, kind: "reset" });
    await expect(call(sim, "GET", "/v1/public/system")).rejects.toThrow();
    expect(sim.requests.at(-1)).toMatchObject({ path: "/v1/public/system", status: 0 });
  });

  it("hangs until the client gives up", async () => {
    sim.faults.inject({ path: "/v1/public/system", times: 1, kind: "hang" });
    await expect(request(`${sim.baseUrl}/v1/public/system`, { headersTimeout: 200 })).rejects.toThrow();
    expect((await call(sim, "GET", "/v1/public/system")).status).toBe(200);
  });

  it("delays and then answers normally", async () => {
    sim.faults.inject({ path: "/v1/public/pricing", times: 1, kind: "delay", ms: 50 });
    expect((await call(sim, "GET", "/v1/public/pricing")).status).toBe(200);
  });

  it("can apply a request and then lose the answer (outcome unknown to the client)", async () => {
    const { accountId, apiKey } = sim.createAccount({ balanceSun: 100_000_000 });
    sim.faults.inject({ method: "POST", path: "/v1/orders", times: 1, kind: "reset", afterProcessing: true });
    await expect(call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "lost", body: { items: [item] } })).rejects.toThrow();
    expect(sim.balanceOf(accountId)).toBe(93_500_000);
    const retry = await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "lost", body: { items: [item] } });
    expect(retry.status).toBe(200);
    expect(sim.balanceOf(accountId)).toBe(93_500_000);
  });

  it("clears every armed fault", async () => {
    sim.faults.inject({ path: "/v1/public/pricing", kind: "status", status: 500, code: "internal_error" });
    expect((await call(sim, "GET", "/v1/public/pricing")).status).toBe(500);
    sim.faults.clear();
    expect((await call(sim, "GET", "/v1/public/pricing")).status).toBe(200);
  });
});

describe("simulator stop()", () => {
  it("closes hung connections, timers and webhook retries, and refuses new connections", async () => {
    const count = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;
    const before = { timers: count("Timeout"), servers: count("TCPServerWrap") };
    const sim = await startTestSimulator({ orderStepMs: 60_000, webhookRetryBaseMs: 60_000 });
    const { accountId } = sim.createAccount({ balanceSun: 100_000_000 });
    const { apiKey } = sim.createApiKey(accountId, { callbackUrl: "http://127.0.0.1:9/none" });
    await call(sim, "POST", "/v1/orders", { apiKey, idempotencyKey: "s", body: { items: [item] } });
    sim.faults.inject({ path: "/v1/public/system", kind: "hang" });
    const hung = request(`${sim.baseUrl}/v1/public/system`).then(
      () => "answered",
      () => "closed",
    );
    await new Promise((r) => setTimeout(r, 50));
    await sim.stop();
    expect(await hung).toBe("closed");
    await expect(request(`${sim.baseUrl}/v1/public/pricing`)).rejects.toThrow();
    await sim.stop();
    expect(count("Timeout")).toBeLessThanOrEqual(before.timers);
    expect(count("TCPServerWrap")).toBeLessThanOrEqual(before.servers);
  });
});
