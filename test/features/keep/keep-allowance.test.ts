import { describe, expect, it } from "vitest";
import { defaultKeepCap, keepDayAllowance } from "../../../src/features/keep/keep-allowance.js";
import { compareWithBurning, percentAgainstBurning } from "../../../src/shared/burn-saving.js";

const TRX = 1_000_000n;

describe("what a keep plan's day holds", () => {
  it("without a cap: every back-to-back order of the day", () => {
    expect(keepDayAllowance({ slotSun: 15n * TRX, durationSec: 3600 })).toEqual({ slotsPerDay: 24, admitted: 24, daySun: 360n * TRX });
  });

  it("a cap lets through only the orders it pays for whole: 20 TRX of 15 TRX orders is one", () => {
    expect(keepDayAllowance({ slotSun: 15n * TRX, durationSec: 3600, dailyCapSun: String(20n * TRX) })).toEqual({
      slotsPerDay: 24,
      admitted: 1,
      daySun: 15n * TRX,
    });
  });

  it("a cap below one order admits none; one above the day admits the whole day", () => {
    expect(keepDayAllowance({ slotSun: 15n * TRX, durationSec: 3600, dailyCapSun: String(10n * TRX) }).admitted).toBe(0);
    expect(keepDayAllowance({ slotSun: 15n * TRX, durationSec: 3600, dailyCapSun: String(1000n * TRX) })).toMatchObject({ admitted: 24, daySun: 360n * TRX });
  });

  it("active hours bound the day, across midnight too", () => {
    expect(keepDayAllowance({ slotSun: TRX, durationSec: 3600, activeHours: { fromMin: 9 * 60, toMin: 18 * 60 } }).slotsPerDay).toBe(9);
    expect(keepDayAllowance({ slotSun: TRX, durationSec: 3600, activeHours: { fromMin: 22 * 60, toMin: 6 * 60 } }).slotsPerDay).toBe(8);
    expect(keepDayAllowance({ slotSun: TRX, durationSec: 5400, activeHours: { fromMin: 9 * 60, toMin: 10 * 60 } }).slotsPerDay).toBe(1);
  });

  it("the default cap of a proposed plan: one day of orders, or the chat's lower daily limit", () => {
    expect(defaultKeepCap(24, 15n * TRX, undefined)).toEqual({ capSun: 360n * TRX, chosen: "day" });
    expect(defaultKeepCap(24, 15n * TRX, String(50n * TRX))).toEqual({ capSun: 50n * TRX, chosen: "limit" });
    expect(defaultKeepCap(24, 15n * TRX, String(500n * TRX))).toEqual({ capSun: 360n * TRX, chosen: "day" });
  });
});

describe("renting against burning", () => {
  it("compares the same energy burnt at the burn price with what renting costs, to the sun", () => {
    expect(compareWithBurning(100_000, 15n * TRX, 100)).toEqual({ burnSun: 10n * TRX, savingSun: -5n * TRX });
    expect(compareWithBurning(100_000n, 6n * TRX, 100)).toEqual({ burnSun: 10n * TRX, savingSun: 4n * TRX });
    expect(compareWithBurning(100_001, 10n * TRX, 420)).toEqual({ burnSun: 42_000_420n, savingSun: 32_000_420n });
  });

  it("says a unit price in whole percent of the burn price, never overstating", () => {
    expect(percentAgainstBurning(60, 100)).toBe(40);
    expect(percentAgainstBurning(67, 420)).toBe(84);
    expect(percentAgainstBurning(100, 100)).toBe(0);
    expect(percentAgainstBurning(150, 100)).toBe(-50);
  });
});
