import { describe, expect, it } from "vitest";
import { createPollSchedule, type PollSchedule } from "../../../src/shared/tracking/poll-schedule.js";
import { newTrackedItem, type TrackedItem } from "../../../src/shared/tracking/tracked-item.js";

/**
 * The schedule on a virtual clock: an order tracked at 0 whose status moves
 * pending → matching → executing → fulfilled at 20, 40 and 60 s (the
 * simulator's lifecycle with 20-s steps). Returns when each read happens and
 * when each change was first seen, as the tracker would drive it.
 */
function pollOrder(schedule: PollSchedule, changesAtMs = [20_000, 40_000, 60_000], chatId = 1) {
  const statuses = ["pending", "matching", "executing", "fulfilled"];
  const statusAt = (t: number) => statuses[changesAtMs.filter((c) => c <= t).length]!;
  let item: TrackedItem = {
    ...newTrackedItem({ chatId, kind: "order", id: "o1", status: "pending" }, "bot", 0, { orderHorizonMs: 3_600_000, broadcastMarginMs: 0 }),
  };
  const reads: number[] = [];
  const seen: number[] = [];
  let t = schedule.minDelayMs;
  while (reads.length < 100) {
    reads.push(t);
    const status = statusAt(t);
    if (status !== item.status) {
      seen.push(t);
      item = { ...item, status, attempt: 0 };
      if (status === "fulfilled") break;
    } else {
      item = { ...item, attempt: item.attempt + 1 };
    }
    t += schedule.nextDelay(item, t, false);
  }
  return { reads, seen };
}

const DEFAULTS = { minDelayMs: 1_000, maxDelayMs: 30_000 };
const within = (v: number, min: number, max: number) => v >= min && v <= max;

describe("poll schedule", () => {
  it("reads an order fulfilled in 60 s at most 12 times by polling alone, and sees each change within 7.2 s", () => {
    const { reads, seen } = pollOrder(createPollSchedule(DEFAULTS));
    expect(reads[0]).toBe(1_000);
    expect(reads.length).toBeLessThanOrEqual(12);
    expect(seen).toHaveLength(3);
    seen.forEach((at, i) => expect(at - [20_000, 40_000, 60_000][i]!).toBeLessThanOrEqual(7_200));
  });

  it("keeps the former schedule reachable: 13 reads, the backoff back to 1 s at each change", () => {
    const { reads } = pollOrder(createPollSchedule({ ...DEFAULTS, kind: "reset-backoff" }));
    expect(reads).toHaveLength(13);
  });

  it("eases to the cap once an item is past its active window, and backs off further after a failed read", () => {
    const schedule = createPollSchedule(DEFAULTS);
    const item = newTrackedItem({ chatId: 1, kind: "order", id: "o1" }, "bot", 0, { orderHorizonMs: 3_600_000, broadcastMarginMs: 0 });
    // Steady delays are stretched by a fixed share of up to a fifth per item.
    expect(within(schedule.nextDelay(item, 60_000, false), 6_000, 7_200)).toBe(true);
    expect(within(schedule.nextDelay(item, 180_000 + 40_000, false), 16_000, 17_200)).toBe(true);
    expect(schedule.nextDelay(item, 600_000, false)).toBe(30_000);
    expect(within(schedule.nextDelay({ ...item, attempt: 4 }, 60_000, true), 16_000, 16_000)).toBe(true);
  });

  it("polls a chat whose signed webhooks arrive only as a safety net, and comes back to its pace when they stop", () => {
    const schedule = createPollSchedule(DEFAULTS);
    const item = newTrackedItem({ chatId: 7, kind: "order", id: "o1" }, "bot", 0, { orderHorizonMs: 3_600_000, broadcastMarginMs: 0 });
    schedule.webhookVerified(7, 0);
    expect(schedule.webhooksTrusted(7, 1_000)).toBe(true);
    expect(schedule.webhooksTrusted(8, 1_000)).toBe(false);
    // Another chat's webhooks say nothing about this one.
    expect(within(schedule.nextDelay({ ...item, chatId: 8 }, 30_000, false), 6_000, 7_200)).toBe(true);
    expect(within(schedule.nextDelay(item, 30_000, false), 120_000, 144_000)).toBe(true);
    // No verified delivery for 5 min: the next read is at the normal pace again.
    expect(schedule.webhooksTrusted(7, 300_000)).toBe(false);
    expect(schedule.nextDelay(item, 100_000 + 300_000, false)).toBe(30_000);
    expect(within(schedule.nextDelay(item, 60_000 + 240_000 - 1, false), 120_000, 144_000)).toBe(true);
  });

  it("sees a change it got no webhook for within the safety net while webhooks are trusted", () => {
    const schedule = createPollSchedule(DEFAULTS);
    schedule.webhookVerified(1, 0);
    const { reads, seen } = pollOrder(schedule);
    expect(reads).toHaveLength(2);
    expect(reads[0]).toBe(1_000);
    expect(seen).toEqual([reads[1]]);
    expect(within(reads[1]! - 1_000, 120_000, 144_000)).toBe(true);
  });

  it("scales every default with minDelayMs", () => {
    const fast = pollOrder(createPollSchedule({ minDelayMs: 10, maxDelayMs: 300 }), [200, 400, 600]);
    const real = pollOrder(createPollSchedule(DEFAULTS));
    expect(fast.reads).toHaveLength(real.reads.length);
    fast.reads.forEach((t, i) => expect(Math.abs(t * 100 - real.reads[i]!)).toBeLessThanOrEqual(100 * (i + 1)));
  });
});
