/**
 * One form for every clock time the bot shows: the time in the chat's zone, in the locale's way,
 * then the zone's offset at that instant ("17:43 UTC+1"); the date only when it is not today's
 * (in that zone). Formatters are built once per locale, zone and form.
 */
import { describe, expect, it } from "vitest";
import { dateTimeFormat, dateTimeFormatCount } from "../../src/shared/date-formats.js";
import { clockText } from "../../src/bot/helpers/expiry-text.js";
import { keepTime } from "../../src/features/keep/keep-texts.js";

/** Nov 28, 2026, 16:43 UTC: winter time in Madrid (UTC+1). */
const AT = Date.UTC(2026, 10, 28, 16, 43);
/** Jul 15, 2026, 16:43 UTC: summer time in Madrid (UTC+2). */
const SUMMER = Date.UTC(2026, 6, 15, 16, 43);

describe("clock times", () => {
  it("are in the zone and name its offset at that instant", () => {
    expect(clockText(AT, AT, "en", "UTC")).toBe("16:43 UTC");
    expect(clockText(AT, AT, "en", "Europe/Madrid")).toBe("17:43 UTC+1");
    expect(clockText(SUMMER, SUMMER, "en", "Europe/Madrid")).toBe("18:43 UTC+2");
    expect(clockText(AT, AT, "ru", "Europe/Moscow")).toBe("19:43 UTC+3");
    expect(clockText(AT, AT, "zh", "Asia/Shanghai")).toBe("00:43 UTC+8");
    expect(clockText(AT, AT, "en", "America/New_York")).toBe("11:43 UTC−5");
    expect(clockText(AT, AT, "en", "Asia/Kolkata")).toBe("22:13 UTC+5:30");
    expect(clockText(AT, AT, "en", "Etc/GMT-3")).toBe("19:43 UTC+3");
  });

  it("carry the date when the day is not today's in the zone, never AM/PM", () => {
    // 16:43 UTC is 00:43 the next day in Shanghai: another day there, though the same in UTC.
    expect(clockText(AT, AT - 60 * 60_000, "en", "Asia/Shanghai")).toBe("Nov 29, 00:43 UTC+8");
    expect(clockText(AT, AT - 60 * 60_000, "en", "UTC")).toBe("16:43 UTC");
    expect(clockText(AT + 2 * 86_400_000, AT, "en-US", "UTC")).toBe("Nov 30, 16:43 UTC");
    expect(clockText(AT + 2 * 86_400_000, AT, "ru", "Europe/Moscow")).toBe("30 нояб., 19:43 UTC+3");
  });

  it("a plan's moments are drawn the same way, in the chat's zone", () => {
    expect(keepTime(AT, { nowMs: AT, locale: "en", timeZone: "Europe/Madrid" })).toBe("17:43 UTC+1");
  });

  it("build each formatter once, however many times a card is drawn", () => {
    clockText(AT, AT, "en", "Europe/Lisbon");
    const built = dateTimeFormatCount();
    for (let i = 0; i < 1_000; i += 1) clockText(AT + i * 60_000, AT, "en", "Europe/Lisbon");
    // The minutes cross midnight, so the dated form is built once more, and only once.
    expect(dateTimeFormatCount()).toBeLessThanOrEqual(built + 1);
    expect(dateTimeFormat("en", { timeZone: "UTC", hour: "2-digit" })).toBe(dateTimeFormat("en", { hour: "2-digit", timeZone: "UTC" }));
  });

  it("a malformed locale falls back to English; an unknown zone is refused", () => {
    expect(dateTimeFormat("not a locale!", { timeZone: "UTC", hour: "2-digit", hourCycle: "h23" }).format(AT)).toBe("16");
    expect(() => dateTimeFormat("en", { timeZone: "Mars/Olympus" })).toThrow(RangeError);
  });
});
