import { describe, expect, it } from "vitest";
import { parseChineseInteger } from "../../src/shared/chinese-numeral.js";
import { readEnergyAmount } from "../../src/shared/energy-amount.js";
import { parseKeepOptions } from "../../src/features/keep/keep-input.js";
import { readTrxAmount } from "../../src/shared/money.js";
import { parseDurationText } from "../../src/shared/orders/duration-input.js";
import { parseThreshold } from "../../src/shared/chats/alert-settings.js";

const read = (text: string, locale?: string) => {
  const r = readEnergyAmount(text, locale);
  return r.ok ? r.value : r.reason === "ambiguous" ? r.readings : undefined;
};

describe("energy amounts as each language writes them", () => {
  it.each([
    ["10万", "zh", 100_000],
    ["6.5万", "zh", 65_000],
    ["１０万", "zh", 100_000],
    ["十万", "zh", 100_000],
    ["1,5k", "ru", 1_500],
    ["1,5 тыс", "ru", 1_500],
    ["65 000", "ru", 65_000],
    ["65\u00a0000", "ru", 65_000],
    ["65\u202f000", "ru", 65_000],
    ["100 тыс", "ru", 100_000],
    ["100 тыс.", "ru", 100_000],
    ["100к", "ru", 100_000],
    ["1.5 млн", "ru", 1_500_000],
    ["1 000,5k", "ru", 1_000_500],
    ["1,000,000", "ru", 1_000_000],
    ["65,000", "en", 65_000],
    ["65,000", "zh", 65_000],
    ["65,00", "ru", 65],
  ] as const)("%j in %s reads %d", (text, locale, value) => {
    expect(read(text, locale)).toBe(value);
  });

  it.each([
    ["65,000", [65_000, 65]],
    ["100,000", [100_000, 100]],
    ["1,500k", [1_500_000, 1_500]],
  ] as const)("refuses %j in ru as ambiguous, naming both readings", (text, readings) => {
    expect(read(text, "ru")).toEqual(readings);
  });

  it.each([
    ["1,5k", "en"],
    ["1,5k", "zh"],
    ["5м", "ru"], // five minutes, not five million
    ["1e5", "en"],
    ["", "ru"],
    ["тыс", "ru"],
    ["六万五", "zh"],
  ] as const)("refuses %j in %s", (text, locale) => {
    expect(read(text, locale)).toBeUndefined();
  });
});

describe("Chinese numerals", () => {
  it.each([
    ["十万", 100_000n],
    ["六万五千", 65_000n],
    ["一万零五", 10_005n],
    ["十五", 15n],
    ["两千", 2_000n],
    ["一百零五", 105n],
    ["一千零五十", 1_050n],
    ["一亿五千万", 150_000_000n],
    ["一亿零五", 100_000_005n],
    ["五", 5n],
    ["二十五", 25n],
    ["一百万", 1_000_000n],
    ["九千九百九十九万九千九百九十九", 99_999_999n],
  ] as const)("%s = %d", (text, value) => {
    expect(parseChineseInteger(text)).toBe(value);
  });

  it.each(["六万五", "一百五", "一亿五千", "万", "一二", "十十", "百"])("refuses the elliptic or malformed %s", (text) => {
    expect(parseChineseInteger(text)).toBeUndefined();
  });
});

describe("durations as each language writes them", () => {
  it.each([
    ["1ч", 3600],
    ["1 час", 3600],
    ["1 часа", 3600],
    ["60 мин", 3600],
    ["15 минут", 900],
    ["15 мин.", 900],
    ["5м", 300],
    ["1小时", 3600],
    ["15分钟", 900],
    ["1分钟", 60],
    ["60秒", 60],
    ["一小时", 3600],
    ["十五分钟", 900],
    ["两个小时", 7200],
    ["半小时", 1800],
    ["3600", 3600],
    ["3600s", 3600],
    ["1,5 ч", 5400],
    ["1.5h", 5400],
    ["1,000 h", 3_600_000],
    ["1\u00a0000 ч", 3_600_000],
  ] as const)("%j = %d s", (text, seconds) => {
    expect(parseDurationText(text)).toBe(seconds);
  });

  it.each(["мин.", "1.5s", "0", "abc", "1 000", "1,5", "65,000"])("%j is not a duration", (text) => {
    expect(parseDurationText(text)).toBeUndefined();
  });
});

describe("TRX amounts as each language writes them (caps, thresholds, /alerts, /keep cap=)", () => {
  const sunOf = (text: string, locale?: string) => {
    const r = readTrxAmount(text, locale);
    return r.ok ? r.sun : r.reason === "ambiguous" ? r.readings : undefined;
  };

  it.each([
    ["12,5", "ru", 12_500_000n],
    ["12,50", "ru", 12_500_000n],
    ["0,000001", "ru", 1n],
    ["1 000", "ru", 1_000_000_000n],
    ["1\u00a0000", "ru", 1_000_000_000n],
    ["1\u202f000", "ru", 1_000_000_000n],
    ["1 000 000", "ru", 1_000_000_000_000n],
    ["1\u00a0000\u00a0000", "ru", 1_000_000_000_000n],
    ["1 000,5", "ru", 1_000_500_000n],
    ["12.5", "ru", 12_500_000n],
    ["1 000.5", "ru", 1_000_500_000n],
    ["12.5", "en", 12_500_000n],
    ["1,000.25", "en", 1_000_250_000n],
    ["1,000", "en", 1_000_000_000n],
    ["1 000", "en", 1_000_000_000n],
    ["１２.５", "zh", 12_500_000n],
    ["1,000", "zh", 1_000_000_000n],
    ["12,5", "uk", 12_500_000n],
    ["-2,5", "ru", -2_500_000n],
  ] as const)("%j in %s is %d sun", (text, locale, sun) => {
    expect(sunOf(text, locale)).toBe(sun);
  });

  it.each([
    ["1,000", [1_000_000_000n, 1_000_000n]],
    ["25,500", [25_500_000_000n, 25_500_000n]],
  ] as const)("refuses %j in ru as ambiguous, naming both readings", (text, readings) => {
    expect(sunOf(text, "ru")).toEqual(readings);
  });

  it.each([
    ["12,5", "en"],
    ["12,5", "zh"],
    ["1,0000001", "ru"],
    ["0.0000001", "ru"],
    ["1 000\u00a0000", "ru"],
    ["1.000,5", "ru"],
    ["1e3", "ru"],
    [",5", "ru"],
    ["12,", "ru"],
    ["", "ru"],
  ] as const)("refuses %j in %s", (text, locale) => {
    expect(sunOf(text, locale)).toBeUndefined();
  });

  it("the /alerts threshold and the /keep cap read the same way", () => {
    expect(parseThreshold("25,5", "ru")).toEqual({ ok: true, sun: 25_500_000n });
    expect(parseThreshold("1 000", "ru")).toEqual({ ok: true, sun: 1_000_000_000n });
    expect(parseThreshold("1,000", "ru")).toEqual({ ok: false, reason: "ambiguous", readings: [1_000_000_000n, 1_000_000n] });
    expect(parseThreshold("25,5", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseThreshold("-2,5", "ru")).toEqual({ ok: false, reason: "negative" });
    const keep = parseKeepOptions("cap=2,5", 0, "ru");
    expect(keep.ok && keep.options.dailyCapSun).toBe(2_500_000n);
    // A comma is a decimal mark in Russian only: in English "2,5" stays refused.
    expect(parseKeepOptions("cap=2,5", 0, "en")).toEqual({ ok: false, reason: "bad_option", option: "cap", value: "2,5" });
  });
});
