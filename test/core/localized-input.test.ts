import { describe, expect, it } from "vitest";
import { parseChineseInteger } from "../../src/core/chinese-numeral.js";
import { readEnergyAmount } from "../../src/core/energy-amount.js";
import { parseDurationText } from "../../src/core/orders/duration-input.js";

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
