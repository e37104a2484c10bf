import { describe, expect, it } from "vitest";
import { afterNotFound, withoutNotFound } from "../../../src/shared/tracking/not-found.js";
import { newTrackedItem } from "../../../src/shared/tracking/tracked-item.js";

const bound = { graceMs: 600_000, reads: 5 };
const item = newTrackedItem({ chatId: 1, kind: "order", id: "a".repeat(24), status: "pending" }, "bot", 0, {
  orderHorizonMs: 3_600_000,
  broadcastMarginMs: 300_000,
});

/** The item after a 404 at each of `times`, or "stopped" at the first that ends tracking. */
function after(times: number[]) {
  let current = item;
  for (const at of times) {
    const next = afterNotFound(current, at, bound);
    if (next.stop) return "stopped";
    current = next.item;
  }
  return current;
}

describe("a tracked record answering 404", () => {
  it("is kept while either half of the bound is short: too few reads, or too little time", () => {
    // Many reads within the grace.
    expect(after(Array.from({ length: 50 }, (_, i) => i * 1_000))).not.toBe("stopped");
    // The grace long past, but only 4 reads.
    expect(after([0, 700_000, 800_000, 900_000])).not.toBe("stopped");
  });

  it("stops at the read that completes both: 5 reads in a row, the last 10 min after the first", () => {
    expect(after([0, 1_000, 2_000, 3_000, 599_999])).not.toBe("stopped");
    expect(after([0, 1_000, 2_000, 3_000, 600_000])).toBe("stopped");
  });

  it("counts from the first 404 of a streak, and a read that answers ends the streak", () => {
    const streak = after([0, 1_000, 2_000]);
    if (streak === "stopped") throw new Error("stopped too early");
    expect(streak.notFound).toEqual({ sinceMs: 0, reads: 3 });
    const answered = withoutNotFound(streak);
    expect(answered.notFound).toBeUndefined();
    const again = afterNotFound(answered, 700_000, bound);
    expect(again).toMatchObject({ stop: false, item: { notFound: { sinceMs: 700_000, reads: 1 } } });
  });
});
