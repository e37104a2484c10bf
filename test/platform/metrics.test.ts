import { describe, expect, it } from "vitest";
import { register as globalRegistry } from "prom-client";
import { createMetrics, recordServiceCalls } from "../../src/platform/metrics.js";

describe("metrics", () => {
  it("publishes every family the README and docs name, with its type, before anything happened", async () => {
    const text = await createMetrics().render();
    for (const [name, type] of [
      ["bot_updates_total", "counter"],
      ["service_calls_total", "counter"],
      ["webhooks_total", "counter"],
      ["notifications_total", "counter"],
      ["tracked_items", "gauge"],
      ["service_call_duration_seconds", "histogram"],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}`);
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, "m"));
    }
  });

  it("counts and sets by label, and reads a series back (0 when never touched)", async () => {
    const m = createMetrics();
    m.inc("notifications_total", { outcome: "sent" }, 3);
    m.inc("notifications_total", { outcome: "sent" });
    m.inc("bot_updates_total", { type: "message", outcome: "ok" });
    m.set("tracked_items", 2, { kind: "order" });
    m.set("tracked_items", 1, { kind: "order" });
    expect(await m.get("notifications_total", { outcome: "sent" })).toBe(4);
    expect(await m.get("notifications_total", { outcome: "failed" })).toBe(0);
    expect(await m.get("bot_updates_total", { type: "message", outcome: "ok" })).toBe(1);
    expect(await m.get("tracked_items", { kind: "order" })).toBe(1);
    const text = await m.render();
    expect(text).toContain('notifications_total{outcome="sent"} 4');
    expect(text).toContain('tracked_items{kind="order"} 1');
    expect(text).toMatch(/bot_updates_total\{(?=[^}]*type="message")(?=[^}]*outcome="ok")[^}]*\} 1/);
  });

  it("records each service call's count and latency in seconds", async () => {
    const m = createMetrics();
    const onCall = recordServiceCalls(m);
    onCall({ endpoint: "GET /v1/balance", outcome: "ok", ms: 40, attempts: 1 });
    onCall({ endpoint: "GET /v1/balance", outcome: "ok", ms: 3_000, attempts: 2 });
    onCall({ endpoint: "POST /v1/orders", outcome: "client.timeout", ms: 12_000, attempts: 3 });
    expect(await m.get("service_calls_total", { endpoint: "GET /v1/balance", outcome: "ok" })).toBe(2);
    const text = await m.render();
    const series = (suffix: string, labels: Record<string, string>) => {
      const line = text
        .split("\n")
        .find((l) => l.startsWith(`service_call_duration_seconds_${suffix}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
    };
    const balance = { endpoint: "GET /v1/balance", outcome: "ok" };
    expect(series("count", balance)).toBe(2);
    expect(series("sum", balance)).toBeCloseTo(3.04, 6);
    expect(series("bucket", { ...balance, le: "0.05" })).toBe(1);
    expect(series("bucket", { ...balance, le: "2.5" })).toBe(1);
    expect(series("bucket", { ...balance, le: "5" })).toBe(2);
    expect(series("bucket", { endpoint: "POST /v1/orders", outcome: "client.timeout", le: "10" })).toBe(0);
    expect(series("bucket", { endpoint: "POST /v1/orders", outcome: "client.timeout", le: "+Inf" })).toBe(1);
  });

  it("each app has a registry of its own: nothing on prom-client's global one, no process collectors", async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.inc("webhooks_total", { outcome: "accepted" });
    expect(await a.get("webhooks_total", { outcome: "accepted" })).toBe(1);
    expect(await b.get("webhooks_total", { outcome: "accepted" })).toBe(0);
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
    const text = await a.render();
    expect(text).not.toMatch(/^# TYPE (process_|nodejs_)/m);
    expect(a.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
