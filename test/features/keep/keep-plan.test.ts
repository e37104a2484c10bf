import { describe, expect, it } from "vitest";
import {
  isWithinHours,
  localDay,
  localMinute,
  newerRenewal,
  nextDayStartMs,
  nextWindowStartMs,
  normalizeTimeZone,
  parseActiveHours,
  renewalLeadMs,
  slotKey,
} from "../../../src/features/keep/keep-plan.js";
import { parseUntil } from "../../../src/features/keep/keep-input.js";

const AT = Date.UTC(2026, 10, 25, 22, 30); // 2026-11-25 22:30 UTC

describe("keep plan timing", () => {
  it("buys the next slot the lead before the end, never earlier than the fraction of the duration", () => {
    expect(renewalLeadMs(3600, 60_000, 0.5)).toBe(60_000);
    expect(renewalLeadMs(60, 60_000, 0.5)).toBe(30_000);
    expect(renewalLeadMs(60, 0, 0.5)).toBe(0);
  });

  it("derives one fixed Idempotency-Key per plan and slot, within the service's 128 characters", () => {
    expect(slotKey("0123456789ab", 3)).toBe("keep-0123456789ab-3");
    expect(slotKey("0123456789ab", 3)).toBe(slotKey("0123456789ab", 3));
    expect(slotKey("0123456789ab", 10 ** 9).length).toBeLessThanOrEqual(128);
  });

  it("reads days and minutes in IANA zones and fixed offsets", () => {
    expect(normalizeTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(normalizeTimeZone("+0300")).toBe("+03:00");
    expect(normalizeTimeZone("UTC+5:30")).toBe("+05:30");
    expect(normalizeTimeZone("GMT-5")).toBe("-05:00");
    expect(normalizeTimeZone("moscow")).toBe("Europe/Moscow");
    expect(normalizeTimeZone("上海")).toBe("Asia/Shanghai");
    expect(normalizeTimeZone("Mars/Olympus")).toBeUndefined();
    expect(localDay("UTC", AT)).toBe("2026-11-25");
    expect(localDay("Europe/Berlin", AT)).toBe("2026-11-25");
    expect(localDay("+03:00", AT)).toBe("2026-11-26");
    expect(localMinute("Europe/Berlin", AT)).toBe(23 * 60 + 30);
    expect(nextDayStartMs("Europe/Berlin", AT)).toBe(Date.UTC(2026, 10, 25, 23, 0));
  });

  it("keeps active hours, also across midnight, and finds the next opening", () => {
    const day = parseActiveHours("09:00-18:00")!;
    expect(day).toEqual({ fromMin: 540, toMin: 1080 });
    expect(isWithinHours(day, 8 * 60 + 59)).toBe(false);
    expect(isWithinHours(day, 9 * 60)).toBe(true);
    expect(isWithinHours(day, 18 * 60)).toBe(false);
    const night = parseActiveHours("22-6")!;
    expect(isWithinHours(night, 23 * 60)).toBe(true);
    expect(isWithinHours(night, 5 * 60)).toBe(true);
    expect(isWithinHours(night, 12 * 60)).toBe(false);
    expect(parseActiveHours("25:00-18:00")).toBeUndefined();
    // 23:30 in Berlin: the 09:00 window opens tomorrow at 08:00 UTC.
    expect(nextWindowStartMs("Europe/Berlin", day, AT)).toBe(Date.UTC(2026, 10, 26, 8, 0));
  });

  it("reads an end as the next local time, a local date and time, or a duration from now", () => {
    expect(parseUntil("18:00", "UTC", AT)).toBe(Date.UTC(2026, 10, 26, 18, 0));
    expect(parseUntil("2026-12-01T18:00", "+03:00", AT)).toBe(Date.UTC(2026, 11, 1, 15, 0));
    expect(parseUntil("2h", "UTC", AT)).toBe(AT + 2 * 3600_000);
    expect(parseUntil("2020-01-01T00:00", "UTC", AT)).toBeUndefined();
    expect(parseUntil("soon", "UTC", AT)).toBeUndefined();
  });
});

describe("the card's newest order", () => {
  const placed = { orderId: "a".repeat(24), status: "pending", atMs: AT, createdAtMs: AT };
  const next = { orderId: "b".repeat(24), status: "pending", atMs: AT + 60_000, createdAtMs: AT + 60_000 };

  it("moves on with the order's statuses and to a newer order, never back to an older one", () => {
    const delivered = { ...placed, status: "fulfilled", atMs: AT + 500 };
    expect(newerRenewal(undefined, placed)).toBe(placed);
    expect(newerRenewal(placed, delivered)).toBe(delivered);
    expect(newerRenewal(delivered, next)).toBe(next);
    expect(newerRenewal(next, delivered)).toBeUndefined();
  });

  it("keeps a delivered order delivered when an earlier status of it is seen late, and ignores a repeat", () => {
    const delivered = { ...placed, status: "fulfilled", atMs: AT + 500 };
    expect(newerRenewal(delivered, { ...placed, atMs: AT + 900 })).toBeUndefined();
    expect(newerRenewal(delivered, { ...delivered, atMs: AT + 900 })).toBeUndefined();
  });
});
