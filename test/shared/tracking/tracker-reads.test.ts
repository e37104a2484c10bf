import { describe, expect, it, vi } from "vitest";
import { createTrackerReads, type ReadTurn, type TrackerReads } from "../../../src/shared/tracking/tracker-reads.js";
import type { TrackedItem } from "../../../src/shared/tracking/tracked-item.js";
import type { TrackerDeps } from "../../../src/shared/tracking/tracker-types.js";

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

const turnOf = (reads: TrackerReads) => new Promise<ReadTurn>((resolve, reject) => reads.whenTurn(resolve, reject));

/** A poll as the tracker makes it: its turn, its read, its end. */
async function poll(reads: TrackerReads, id: string) {
  const turn = await turnOf(reads);
  try {
    return await turn.read(item(id), "key");
  } finally {
    turn.end();
  }
}

describe("the tracker's reads", () => {
  it("sends at most maxInFlight at once and the waiting ones in the order they came", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service, { maxInFlight: 2, maxPerSecond: 1_000_000 });
    const results = ["a", "b", "c", "d", "e"].map((id) => poll(reads, id));
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
    const reads = createTrackerReads(service, { maxInFlight: 2, maxPerSecond: 1_000_000 });
    const results = ["a", "b", "c", "d"].map((id) => poll(reads, id));
    await expect.poll(() => asked).toEqual(["a", "b"]);
    reads.abortAll();
    const settled = await Promise.allSettled(results);
    expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(asked).toEqual(["a", "b"]);
    await expect(poll(reads, "late")).rejects.toBeDefined();
    expect(asked).toEqual(["a", "b"]);
    reads.open();
    const again = poll(reads, "f");
    await expect.poll(() => asked).toEqual(["a", "b", "f"]);
    reads.abortAll();
    await expect(again).rejects.toThrow("aborted f");
  });

  it("gives a turn to a callback in the order and limits of the others, and tells the waiting ones of abortAll", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service, { maxInFlight: 1, maxPerSecond: 1_000_000 });
    const events: string[] = [];
    const byCallback = (id: string) =>
      reads.whenTurn(
        (turn) => {
          events.push(`start ${id}`);
          void turn.read(item(id), "key").then(
            () => turn.end(),
            () => turn.end(),
          );
        },
        (reason) => events.push(`aborted ${id}: ${reason.name}`),
      );
    const first = poll(reads, "a");
    byCallback("b");
    byCallback("c");
    await expect.poll(() => asked).toEqual(["a"]);
    expect(events).toEqual([]);
    answers.get("a")!();
    await first;
    await expect.poll(() => events).toEqual(["start b"]);
    reads.abortAll();
    expect(events).toEqual(["start b", "aborted c: AbortError"]);
    byCallback("late");
    expect(events.at(-1)).toBe("aborted late: AbortError");
    expect(asked).toEqual(["a", "b"]);
  });

  it("reads a webhook's hint outside the limits, at once, and aborts it with the rest", async () => {
    const { asked, answers, service } = heldService();
    const reads = createTrackerReads(service, { maxInFlight: 1, maxPerSecond: 1_000_000 });
    const polled = poll(reads, "a");
    const waiting = poll(reads, "b");
    await expect.poll(() => asked).toEqual(["a"]);
    const hinted = reads.read(item("hint"), "key");
    await expect.poll(() => asked).toEqual(["a", "hint"]);
    expect([reads.size, reads.waiting]).toEqual([1, 1]);
    answers.get("hint")!();
    await expect(hinted).resolves.toMatchObject({ kind: "order", record: { orderId: "hint" } });
    const late = reads.read(item("late"), "key");
    reads.abortAll();
    await expect(Promise.allSettled([polled, waiting, late])).resolves.toMatchObject([{ status: "rejected" }, { status: "rejected" }, { status: "rejected" }]);
  });

  it("sends at most maxPerSecond reads a second, evenly spaced, the waiting ones when their time comes", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const { asked, answers, service } = heldService();
      const reads = createTrackerReads(service, { maxInFlight: 100, maxPerSecond: 10 });
      const ids = Array.from({ length: 25 }, (_, i) => `r${i}`);
      const results = ids.map((id) => poll(reads, id));
      await vi.advanceTimersByTimeAsync(0);
      expect(asked).toEqual(["r0"]);
      await vi.advanceTimersByTimeAsync(99);
      expect(asked).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked).toHaveLength(2);
      // 100 ms apart: 11 in the first second, in the order they came.
      await vi.advanceTimersByTimeAsync(900);
      expect(asked).toEqual(ids.slice(0, 11));
      await vi.advanceTimersByTimeAsync(1_400);
      expect(asked).toEqual(ids);
      for (const id of ids) answers.get(id)!();
      await Promise.all(results);
      expect([reads.size, reads.waiting]).toEqual([0, 0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses limits that are not positive", () => {
    const { service } = heldService();
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createTrackerReads(service, { maxInFlight: bad })).toThrow(RangeError);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => createTrackerReads(service, { maxPerSecond: bad })).toThrow(RangeError);
  });
});
