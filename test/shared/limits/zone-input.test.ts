import { describe, expect, it } from "vitest";
import { parseTimeZoneInput, parseUtcOffset, zoneLabel, zoneName } from "../../../src/shared/limits/zone-input.js";
import { spendWindows } from "../../../src/shared/limits/spend-window.js";

/** Jan 15, 2026, 12:00 UTC: winter in the north, summer in the south. */
const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

describe("time zone input", () => {
  it.each([
    ["Europe/Moscow", "Europe/Moscow"],
    ["europe/moscow", "Europe/Moscow"],
    ["  ASIA/SHANGHAI ", "Asia/Shanghai"],
    ["America/New York", "America/New_York"],
    ["UTC", "UTC"],
  ])("reads the IANA name %j as %s", (input, zone) => {
    expect(parseTimeZoneInput(input)).toEqual({ ok: true, zone });
  });

  it.each([
    ["moscow", "Europe/Moscow"],
    ["Moscow", "Europe/Moscow"],
    ["москва", "Europe/Moscow"],
    ["Москва", "Europe/Moscow"],
    ["мск", "Europe/Moscow"],
    ["Санкт-Петербург", "Europe/Moscow"],
    ["莫斯科", "Europe/Moscow"],
    ["kyiv", "Europe/Kyiv"],
    ["киев", "Europe/Kyiv"],
    ["基辅", "Europe/Kyiv"],
    ["beijing", "Asia/Shanghai"],
    ["北京", "Asia/Shanghai"],
    ["上海", "Asia/Shanghai"],
    ["上海市", "Asia/Shanghai"],
    ["shanghai", "Asia/Shanghai"],
    ["london", "Europe/London"],
    ["new york", "America/New_York"],
    ["New-York", "America/New_York"],
    ["нью-йорк", "America/New_York"],
    ["berlin", "Europe/Berlin"],
    ["madrid", "Europe/Madrid"],
    ["dubai", "Asia/Dubai"],
    ["迪拜", "Asia/Dubai"],
    ["singapore", "Asia/Singapore"],
    ["hong kong", "Asia/Hong_Kong"],
    ["香港", "Asia/Hong_Kong"],
    ["tokyo", "Asia/Tokyo"],
    ["东京", "Asia/Tokyo"],
    ["istanbul", "Europe/Istanbul"],
    ["almaty", "Asia/Almaty"],
    ["Алматы", "Asia/Almaty"],
    ["tashkent", "Asia/Tashkent"],
    ["Ташкент", "Asia/Tashkent"],
    // Not in the table: the city part of a zone Intl lists.
    ["sao paulo", "America/Sao_Paulo"],
    ["Adelaide", "Australia/Adelaide"],
  ])("reads the city %j as %s", (input, zone) => {
    expect(parseTimeZoneInput(input)).toEqual({ ok: true, zone });
  });

  it.each([
    ["UTC+3", "Etc/GMT-3"],
    ["utc+3", "Etc/GMT-3"],
    ["+03:00", "Etc/GMT-3"],
    ["+0300", "Etc/GMT-3"],
    ["+3", "Etc/GMT-3"],
    ["GMT-5", "Etc/GMT+5"],
    ["UTC −5", "Etc/GMT+5"],
    ["UTC+14", "Etc/GMT-14"],
    ["UTC-12", "Etc/GMT+12"],
    ["utc", "UTC"],
    ["GMT", "UTC"],
    ["UTC+0", "UTC"],
    ["-00:00", "UTC"],
    // Not whole hours: a zone that keeps the offset all year.
    ["UTC+5:30", "Asia/Kolkata"],
    ["+05:45", "Asia/Kathmandu"],
    ["UTC+3:30", "Asia/Tehran"],
  ])("reads the offset %j as %s", (input, zone) => {
    expect(parseTimeZoneInput(input)).toEqual({ ok: true, zone });
  });

  it.each([
    ["Mars/Olympus", "unknown"],
    ["atlantis", "unknown"],
    ["", "unknown"],
    ["+", "unknown"],
    ["UTC+15", "unknown"],
    ["UTC-13", "unknown"],
    ["+03:75", "unknown"],
    ["x".repeat(65), "unknown"],
    ["UTC+10:30", "uneven_offset"],
    ["-03:30", "uneven_offset"],
  ])("refuses %j (%s)", (input, reason) => {
    expect(parseTimeZoneInput(input)).toEqual({ ok: false, reason });
  });

  it("gives zones every Intl formatter and the day windows accept, offsets with the true sign", () => {
    for (const input of ["moscow", "UTC+3", "GMT-5", "UTC+5:30", "香港", "utc"]) {
      const parsed = parseTimeZoneInput(input);
      if (!parsed.ok) throw new Error(`refused ${input}`);
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: parsed.zone }).format(WINTER)).not.toThrow();
    }
    // UTC+3: the day begins at 21:00 UTC the evening before.
    const zone = (parseTimeZoneInput("UTC+3") as { zone: string }).zone;
    expect(spendWindows(WINTER, zone).day.startMs).toBe(Date.UTC(2026, 0, 14, 21));
  });

  it("reads offsets in minutes east of UTC, and nothing else as an offset", () => {
    expect(parseUtcOffset("UTC+5:30")).toBe(330);
    expect(parseUtcOffset("gmt-5")).toBe(-300);
    expect(parseUtcOffset("utc")).toBe(0);
    expect(parseUtcOffset("moscow")).toBeUndefined();
    expect(parseUtcOffset("Europe/Moscow")).toBeUndefined();
  });

  it("names a zone with its offset at the instant, and a fixed offset as UTC±N", () => {
    expect(zoneLabel("Europe/Moscow", WINTER)).toBe("Europe/Moscow (UTC+3)");
    expect(zoneLabel("Europe/Berlin", WINTER)).toBe("Europe/Berlin (UTC+1)");
    expect(zoneLabel("Europe/Berlin", SUMMER)).toBe("Europe/Berlin (UTC+2)");
    expect(zoneLabel("America/New_York", WINTER)).toBe("America/New_York (UTC−5)");
    expect(zoneLabel("Asia/Kolkata", WINTER)).toBe("Asia/Kolkata (UTC+5:30)");
    expect(zoneLabel("Etc/GMT-3", WINTER)).toBe("UTC+3");
    expect(zoneLabel("Etc/GMT+5", WINTER)).toBe("UTC−5");
    expect(zoneLabel("UTC", WINTER)).toBe("UTC");
    expect(zoneName("Etc/GMT-14")).toBe("UTC+14");
    expect(zoneName("Asia/Shanghai")).toBe("Asia/Shanghai");
  });
});
