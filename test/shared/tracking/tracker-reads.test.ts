import { describe, expect, it } from "vitest";
import { createTrackerReads, DEFAULT_READ_LIMITS, trackerReadLimits, type TrackerReads } from "../../../src/shared/tracking/tracker-reads.js";
import type { TrackedItem } from "../../../src/shared/tracking/tracked-item.js";
import type { TrackerDeps } from "../../../src/shared/tracking/tracker-types.js";

/** A service that answers only when told, and remembers which ids it was asked for. */
function heldService() {
  const asked: string[] = [];
  const answers = new Map<string, () => void>();
  const getOrder = (_apiKey: string, id: string, options?: { signal?: AbortSignal }) =>
    new Promise((resolve, reject) => {
      if (options?.signal?.aborted) return reject(new Error(`aborted ${id}`));
      asked.push(id);
      options?.signal?.addEventListener("abort", () => reject(new Error(`aborted ${id}`)), { once: true });
      answers.set(id, () => resolve({ orderId: id, status: "pending" }));
    });
  return { asked, answers, service: { getOrder, getBroadcast: getOrder } as unknown as TrackerDeps["service"] };
}

const item = (id: string) => ({ kind: "order", id, chatId: 1 }) as TrackedItem;

/** A poll as the tracker makes it: its turn, its read, its end. */
async function poll(reads: TrackerReads, id: string) {
  const turn = reads.turn();
  try {
    return await turn.read(item(id), "key");
  } finally {
    turn.end();
  }
}

describe("the tracker's reads", () => {
  it("counts the polls' reads in flight until each poll ends", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service);
    const results = ["a", "b"].map((id) => poll(reads, id));
    await expect.poll(() => asked).toEqual(["a", "b"]);
    expect(reads.size).toBe(2);
    answers.get("b")!();
    await results[1];
    expect(reads.size).toBe(1);
    answers.get("a")!();
    expect((await Promise.all(results)).map((r) => r.record.status)).toEqual(["pending", "pending"]);
    expect(reads.size).toBe(0);
  });

  it("on abortAll aborts the reads sent, and refuses new ones until open", async () => {
    const { asked, service } = heldService();
    const reads = createTrackerReads(service);
    const results = ["a", "b"].map((id) => poll(reads, id));
    await expect.poll(() => asked).toEqual(["a", "b"]);
    reads.abortAll();
    const settled = await Promise.allSettled(results);
    expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(poll(reads, "late")).rejects.toMatchObject({ name: "AbortError" });
    expect(asked).toEqual(["a", "b"]);
    expect(reads.size).toBe(0);
    reads.open();
    const again = poll(reads, "f");
    await expect.poll(() => asked).toEqual(["a", "b", "f"]);
    reads.abortAll();
    await expect(again).rejects.toThrow("aborted f");
  });

  it("reads a webhook's hint outside the polls' count, at once, and aborts it with the rest", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service);
    const polled = poll(reads, "a");
    await expect.poll(() => asked).toEqual(["a"]);
    const hinted = reads.read(item("hint"), "key");
    await expect.poll(() => asked).toEqual(["a", "hint"]);
    expect(reads.size).toBe(1);
    answers.get("hint")!();
    await expect(hinted).resolves.toMatchObject({ kind: "order", record: { orderId: "hint" } });
    const late = reads.read(item("late"), "key");
    reads.abortAll();
    await expect(Promise.allSettled([polled, late])).resolves.toMatchObject([{ status: "rejected" }, { status: "rejected" }]);
  });

  it("takes the default limits and refuses limits that are not positive", () => {
    expect(trackerReadLimits()).toEqual(DEFAULT_READ_LIMITS);
    expect(trackerReadLimits({ maxPerSecond: 5 })).toEqual({ ...DEFAULT_READ_LIMITS, maxPerSecond: 5 });
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => trackerReadLimits({ maxInFlight: bad })).toThrow(RangeError);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => trackerReadLimits({ maxPerSecond: bad })).toThrow(RangeError);
  });
});
