import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidTimeZone, spendWindows, zoneOffsetMs } from "../../../src/shared/limits/spend-window.js";

const HOUR = 3_600_000;
const ZONES = [
  "UTC",
  "Europe/Moscow",
  "America/New_York",
  "Asia/Shanghai",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "America/St_Johns",
  "Pacific/Kiritimati",
];
/** 1990 to 2100. */
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });

/** The zone's wall clock at an instant, as a UTC date. */
const wall = (atMs: number, zone: string) => new Date(atMs + zoneOffsetMs(atMs, zone));

describe("the user's day and month (spendWindows)", () => {
  it("in UTC are the calendar day and month", () => {
    const at = Date.UTC(2026, 0, 31, 23, 59, 59, 999);
    expect(spendWindows(at)).toEqual({
      day: { startMs: Date.UTC(2026, 0, 31), endMs: Date.UTC(2026, 1, 1) },
      month: { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 1, 1) },
    });
    // One millisecond later it is February: a new day and a new month.
    expect(spendWindows(at + 1).month).toEqual({ startMs: Date.UTC(2026, 1, 1), endMs: Date.UTC(2026, 2, 1) });
  });

  it("follow the chat's zone: 23:30 UTC on January 31 is already February 1 in Moscow", () => {
    const at = Date.UTC(2026, 0, 31, 23, 30);
    const { day, month } = spendWindows(at, "Europe/Moscow");
    expect(day).toEqual({ startMs: Date.UTC(2026, 0, 31, 21), endMs: Date.UTC(2026, 1, 1, 21) });
    expect(month).toEqual({ startMs: Date.UTC(2026, 0, 31, 21), endMs: Date.UTC(2026, 1, 28, 21) });
  });

  it("have 23 and 25 hours on the days summer time starts and ends", () => {
    expect(spendWindows(Date.UTC(2026, 2, 8, 12), "America/New_York").day).toEqual({ startMs: Date.UTC(2026, 2, 8, 5), endMs: Date.UTC(2026, 2, 9, 4) });
    expect(spendWindows(Date.UTC(2026, 10, 1, 12), "America/New_York").day).toEqual({ startMs: Date.UTC(2026, 10, 1, 4), endMs: Date.UTC(2026, 10, 2, 5) });
  });

  it("hold an instant in the hour a midnight comes twice (St. John's fell back at 00:01 until 2011)", () => {
    // 2004-10-31 02:31 UTC: 00:01 daylight time became 23:01 standard time of October 30, so midnight came again at 03:30 UTC.
    for (const at of [Date.UTC(2004, 9, 31, 2, 30, 30), Date.UTC(2004, 9, 31, 2, 31), Date.UTC(2004, 9, 31, 3, 0)]) {
      const { day } = spendWindows(at, "America/St_Johns");
      expect(day.startMs).toBeLessThanOrEqual(at);
      expect(at).toBeLessThan(day.endMs);
    }
    expect(spendWindows(Date.UTC(2004, 9, 31, 2, 31), "America/St_Johns").day).toEqual({
      startMs: Date.UTC(2004, 9, 30, 2, 30),
      endMs: Date.UTC(2004, 9, 31, 3, 30),
    });
  });

  it("hold every instant of a day that began at a skipped midnight (Kiritimati went from December 30, 1994 to January 1, 1995)", () => {
    for (let at = Date.UTC(1994, 11, 30, 9); at < Date.UTC(1994, 11, 31, 11); at += 10 * 60_000) {
      const { day } = spendWindows(at, "Pacific/Kiritimati");
      expect(day.startMs).toBeLessThanOrEqual(at);
      expect(at).toBeLessThan(day.endMs);
    }
  });

  it("start at local midnight, hold the instant, and the day lies within the month (any zone, any instant)", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (at, zone) => {
        const { day, month } = spendWindows(at, zone);
        expect(day.startMs).toBeLessThanOrEqual(at);
        expect(at).toBeLessThan(day.endMs);
        expect(month.startMs).toBeLessThanOrEqual(day.startMs);
        expect(day.endMs).toBeLessThanOrEqual(month.endMs);
        // A day is 23 to 25 hours (summer time; Lord Howe moves by 30 minutes).
        expect(day.endMs - day.startMs).toBeGreaterThanOrEqual(23 * HOUR);
        expect(day.endMs - day.startMs).toBeLessThanOrEqual(25 * HOUR);
        const start = wall(day.startMs, zone);
        expect([start.getUTCHours(), start.getUTCMinutes()]).toEqual([0, 0]);
        expect(wall(month.startMs, zone).getUTCDate()).toBe(1);
        expect(wall(month.startMs, zone).getUTCMonth()).toBe(wall(at, zone).getUTCMonth());
        // Every zone's offset is a whole number of 15-minute buckets, so archived charges never straddle a day.
        expect(day.startMs % (15 * 60_000)).toBe(0);
      }),
    );
  });

  it("the next day starts where this one ends", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (at, zone) => {
        const { day, month } = spendWindows(at, zone);
        expect(spendWindows(day.endMs, zone).day.startMs).toBe(day.endMs);
        expect(spendWindows(day.startMs - 1, zone).day.endMs).toBe(day.startMs);
        expect(spendWindows(month.endMs, zone).month.startMs).toBe(month.endMs);
      }),
    );
  });

  it("knows a zone from a typo", () => {
    expect(isValidTimeZone("Europe/Moscow")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
  });
});
