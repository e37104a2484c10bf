/**
 * Liveness and readiness against the real wiring (test/server/harness.ts:
 * SQLite store, service client, simulator): an outage of the service makes
 * the process not ready, never unhealthy, so a container's HEALTHCHECK does
 * not restart a bot that can do nothing about the outage.
 */
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../server/harness.js";

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await request(url);
  return { status: res.statusCode, body: await res.body.json() };
}

describe("/healthz and /readyz with the service simulator", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("both answer 200 while the service answers", async () => {
    h = await startHarness();
    expect(await get(`${h.baseUrl}/healthz`)).toEqual({ status: 200, body: { status: "ok", store: "ok" } });
    expect(await get(`${h.baseUrl}/readyz`)).toEqual({ status: 200, body: { status: "ready", store: "ok", service: "ok" } });
  });

  it("a faulted service (503 on /v1/public/system): healthz 200, readyz 503", async () => {
    h = await startHarness();
    h.sim.faults.inject({ path: "/v1/public/system", kind: "status", status: 503, code: "broadcast.upstream_unavailable" });
    expect(await get(`${h.baseUrl}/healthz`)).toEqual({ status: 200, body: { status: "ok", store: "ok" } });
    expect(await get(`${h.baseUrl}/readyz`)).toEqual({ status: 503, body: { status: "not_ready", store: "ok", service: "down" } });
    h.sim.faults.clear();
    expect((await get(`${h.baseUrl}/readyz`)).status).toBe(200);
  });

  it("a service that is down (nothing listens): healthz 200, readyz 503", async () => {
    h = await startHarness();
    await h.sim.stop();
    expect(await get(`${h.baseUrl}/healthz`)).toEqual({ status: 200, body: { status: "ok", store: "ok" } });
    expect(await get(`${h.baseUrl}/readyz`)).toEqual({ status: 503, body: { status: "not_ready", store: "ok", service: "down" } });
  });

  it("a store that is closed makes the process unhealthy", async () => {
    h = await startHarness();
    const store = h.store;
    const ping = store.ping.bind(store);
    store.ping = () => Promise.reject(new Error("store closed"));
    try {
      expect(await get(`${h.baseUrl}/healthz`)).toEqual({ status: 503, body: { status: "down", store: "down" } });
    } finally {
      store.ping = ping;
    }
  });
});
