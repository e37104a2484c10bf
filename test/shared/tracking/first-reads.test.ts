import { describe, expect, it } from "vitest";
import { DEFAULT_SPREAD, spreadFirstReads } from "../../../src/shared/tracking/first-reads.js";

const NOW = 1_000_000;

describe("first reads of items picked up at once", () => {
  it("reads a handful of overdue items at once, nearly together", () => {
    const delays = spreadFirstReads([{ key: "a", dueAtMs: NOW - 5_000 }, { key: "b" }, { key: "c", dueAtMs: NOW - 1 }], NOW, DEFAULT_SPREAD);
    expect([...delays.values()].every((d) => d < 300)).toBe(true);
    expect(delays.get("b")).toBe(0);
  });

  it("spreads a pile of overdue items evenly over at most the window, oldest due first", () => {
    const items = Array.from({ length: 1_000 }, (_, i) => ({ key: `k${String(i)}`, dueAtMs: NOW - 60_000 + i }));
    const delays = spreadFirstReads(items, NOW, DEFAULT_SPREAD);
    const values = items.map((item) => delays.get(item.key)!);
    expect(values[0]).toBe(0);
    expect(Math.max(...values)).toBeLessThan(DEFAULT_SPREAD.maxMs);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    // No second holds more than its share of the pile.
    const perSecond = new Map<number, number>();
    for (const v of values) perSecond.set(Math.floor(v / 1_000), (perSecond.get(Math.floor(v / 1_000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(100);
  });

  it("keeps the due time of an item not due yet", () => {
    const delays = spreadFirstReads(
      [
        { key: "later", dueAtMs: NOW + 20_000 },
        { key: "now", dueAtMs: NOW },
      ],
      NOW,
      DEFAULT_SPREAD,
    );
    expect(delays.get("later")).toBe(20_000);
    expect(delays.get("now")).toBe(0);
  });
});
