import { describe, expect, it } from "vitest";
import { dayOfMonth, daysIn, isoInZone, monthAt, monthLabel, monthWindow, parseStatementMonth } from "../../../src/shared/statements/statement-month.js";

describe("parseStatementMonth", () => {
  it("reads year-month and month.year, month/year forms", () => {
    expect(parseStatementMonth("2026-11")).toEqual({ year: 2026, month: 11 });
    expect(parseStatementMonth(" 2026/3 ")).toEqual({ year: 2026, month: 3 });
    expect(parseStatementMonth("11.2026")).toEqual({ year: 2026, month: 11 });
    expect(parseStatementMonth("01/2027")).toEqual({ year: 2027, month: 1 });
  });

  it("refuses what is not one month of a plausible year", () => {
    for (const text of ["2026-13", "2026-00", "13.2026", "november", "2026", "26-11", "1999-12", "2026-11-01", "", "2026-1a"]) {
      expect(parseStatementMonth(text), text).toBeUndefined();
    }
  });
});

describe("months in a time zone", () => {
  // 23:30 UTC on 31 December is already 07:30 on 1 January in Shanghai (UTC+8).
  const lateOn31st = Date.UTC(2026, 11, 31, 23, 30);

  it("puts an instant in the month the zone's calendar shows", () => {
    expect(monthAt(lateOn31st, "UTC")).toEqual({ year: 2026, month: 12 });
    expect(monthAt(lateOn31st, "Asia/Shanghai")).toEqual({ year: 2027, month: 1 });
    expect(dayOfMonth(lateOn31st, "Asia/Shanghai")).toBe(1);
  });

  it("starts and ends a month at the zone's midnights", () => {
    const december = monthWindow({ year: 2026, month: 12 }, "Asia/Shanghai");
    expect(december).toEqual({ startMs: Date.UTC(2026, 10, 30, 16), endMs: Date.UTC(2026, 11, 31, 16) });
    expect(lateOn31st >= december.endMs).toBe(true);
    expect(monthWindow({ year: 2026, month: 12 }, "UTC")).toEqual({ startMs: Date.UTC(2026, 11, 1), endMs: Date.UTC(2027, 0, 1) });
  });

  it("follows summer time: March in Berlin is one hour shorter", () => {
    const march = monthWindow({ year: 2026, month: 3 }, "Europe/Berlin");
    expect(march.startMs).toBe(Date.UTC(2026, 1, 28, 23));
    expect(march.endMs).toBe(Date.UTC(2026, 2, 31, 22));
  });

  it("writes times as ISO 8601 with the zone's offset", () => {
    expect(isoInZone(lateOn31st, "Asia/Shanghai")).toBe("2027-01-01T07:30:00+08:00");
    expect(isoInZone(lateOn31st, "UTC")).toBe("2026-12-31T23:30:00+00:00");
    expect(isoInZone(Date.UTC(2026, 0, 15, 12), "America/St_Johns")).toBe("2026-01-15T08:30:00-03:30");
  });

  it("names and sizes months", () => {
    expect(monthLabel({ year: 2026, month: 2 })).toBe("2026-02");
    expect(daysIn({ year: 2028, month: 2 })).toBe(29);
    expect(daysIn({ year: 2026, month: 11 })).toBe(30);
  });
});
