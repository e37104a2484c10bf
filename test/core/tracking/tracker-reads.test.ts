import { describe, expect, it } from "vitest";
import { createTrackerReads } from "../../../src/core/tracking/tracker-reads.js";
import type { TrackedItem } from "../../../src/core/tracking/tracked-item.js";
import type { TrackerDeps } from "../../../src/core/tracking/tracker-types.js";

/** A service that answers only when told, and remembers which ids it was asked for. */
function heldService() {
  const asked: string[] = [];
  const answers = new Map<string, () => void>();
  const getOrder = (_apiKey: string, id: string, options?: { signal?: AbortSignal }) =>
    new Promise((resolve, reject) => {
      asked.push(id);
      options?.signal?.addEventListener("abort", () => reject(new Error(`aborted ${id}`)), { once: true });
      answers.set(id, () => resolve({ orderId: id, status: "pending" }));
    });
  return { asked, answers, service: { getOrder, getBroadcast: getOrder } as unknown as TrackerDeps["service"] };
}

const item = (id: string) => ({ kind: "order", id, chatId: 1 }) as TrackedItem;

describe("the tracker's reads", () => {
  it("sends at most maxInFlight at once and the waiting ones in the order they came", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service, 2);
    const results = ["a", "b", "c", "d", "e"].map((id) => reads.read(item(id), "key"));
    await expect.poll(() => asked).toEqual(["a", "b"]);
    expect([reads.size, reads.waiting]).toEqual([2, 3]);
    answers.get("b")!();
    await expect.poll(() => asked).toEqual(["a", "b", "c"]);
    answers.get("a")!();
    answers.get("c")!();
    await expect.poll(() => asked).toEqual(["a", "b", "c", "d", "e"]);
    answers.get("d")!();
    answers.get("e")!();
    expect((await Promise.all(results)).map((r) => r.record.status)).toEqual(Array(5).fill("pending"));
    expect([reads.size, reads.waiting]).toEqual([0, 0]);
  });

  it("on abortAll rejects the waiting reads without sending them, aborts those sent, and refuses new ones until open", async () => {
    const { asked, service } = heldService();
    const reads = createTrackerReads(service, 2);
    const results = ["a", "b", "c", "d"].map((id) => reads.read(item(id), "key"));
    await expect.poll(() => asked).toEqual(["a", "b"]);
    reads.abortAll();
    const settled = await Promise.allSettled(results);
    expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(asked).toEqual(["a", "b"]);
    await expect(reads.read(item("late"), "key")).rejects.toBeDefined();
    expect(asked).toEqual(["a", "b"]);
    reads.open();
    const again = reads.read(item("f"), "key");
    await expect.poll(() => asked).toEqual(["a", "b", "f"]);
    reads.abortAll();
    await expect(again).rejects.toThrow("aborted f");
  });

  it("refuses a limit that is not a positive integer", () => {
    const { service } = heldService();
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createTrackerReads(service, bad)).toThrow(RangeError);
  });
});
