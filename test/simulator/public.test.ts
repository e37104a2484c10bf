import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pricingSchema, systemSnapshotSchema, errorEnvelopeSchema } from "../../src/platform/service/schemas.js";
import type { Simulator } from "../../testkit/simulator/index.js";
import { call, startTestSimulator } from "./helpers.js";

describe("simulator public endpoints", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ baseUnitPriceSun: 100 });
  });
  afterAll(() => sim.stop());

  it("serves pricing with tiers 1m/5m at base, 15m slightly above, 1h highest", async () => {
    const r = await call(sim, "GET", "/v1/public/pricing");
    expect(r.status).toBe(200);
    const p = pricingSchema.parse(r.json);
    expect(p).toMatchObject({ resource: "ENERGY", baseUnitPriceSun: 100, amountMin: 50_000, amountMax: 200_000 });
    const price = (d: number) => p.tiers.find((t) => t.durationSec === d)!.unitPriceSun;
    expect(p.tiers.map((t) => t.label)).toEqual(["1m", "5m", "15m", "1h"]);
    expect(price(60)).toBe(100);
    expect(price(300)).toBe(100);
    expect(price(900)).toBeGreaterThan(100);
    expect(price(3600)).toBeGreaterThan(price(900));
  });

  it("moves prices and grows the tier list through the control API", async () => {
    sim.control.setPricing({ baseUnitPriceSun: 80, amountMin: 64_000 });
    sim.control.addTier({ durationSec: 1800, label: "30m", unitPriceSun: 95 });
    const p = pricingSchema.parse((await call(sim, "GET", "/v1/public/pricing")).json);
    expect(p.baseUnitPriceSun).toBe(80);
    expect(p.amountMin).toBe(64_000);
    expect(p.tiers.map((t) => t.durationSec)).toEqual([60, 300, 900, 1800, 3600]);
    expect(p.tiers[0]!.unitPriceSun).toBe(80);
    sim.control.setPricing({ baseUnitPriceSun: 100, amountMin: 50_000 });
  });

  it("serves the system snapshot in the documented shape without auth", async () => {
    const r = await call(sim, "GET", "/v1/public/system");
    expect(r.status).toBe(200);
    const s = systemSnapshotSchema.parse(r.json);
    expect(s.provider.registration.requiredContractPermissions).toEqual(["DelegateResourceContract", "UnDelegateResourceContract"]);
    expect(s.provider.registration.paymentFrequencyHoursRange).toEqual({ min: 1, max: 720 });
    expect(s.internalPools).toMatchObject({ resource: "ENERGY", unit: "energy" });
    expect(Number.isNaN(Date.parse(s.updatedAt))).toBe(false);
  });

  it("gives the same snapshot to a caller with a key", async () => {
    const { apiKey } = sim.createAccount();
    const a = await call(sim, "GET", "/v1/public/system", { apiKey });
    const b = await call(sim, "GET", "/v1/public/system");
    expect({ ...a.json, updatedAt: 0 }).toEqual({ ...b.json, updatedAt: 0 });
  });

  it("answers unknown paths with the not_found envelope", async () => {
    const r = await call(sim, "GET", "/v2/nothing");
    expect(r.status).toBe(404);
    const env = errorEnvelopeSchema.parse(r.json);
    expect(env).toMatchObject({ code: "not_found", title: "not_found", status: 404, instance: "/v2/nothing" });
    expect(env.type).toBe(`${sim.baseUrl}/errors/not_found`);
    expect(env.requestId).toMatch(/^req_/);
    expect(r.headers["x-service-request-id"]).toBe(env.requestId);
  });

  it("records every request it sees", async () => {
    const before = sim.requests.length;
    await call(sim, "GET", "/v1/public/pricing");
    expect(sim.requests.slice(before)).toEqual([{ method: "GET", path: "/v1/public/pricing", status: 200, hasAuth: false, at: expect.any(Number) }]);
  });
});
