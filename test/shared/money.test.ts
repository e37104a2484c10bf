import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  SUN_PER_TRX,
  atomicToUsdt,
  formatDecimal,
  formatSunAsTrx,
  formatUnits,
  mulSun,
  parseEnergyAmount,
  sunToTrx,
  trxToSun,
  usdtToAtomic,
} from "../../src/shared/money.js";

const NBSP = "\u00a0";
const safeInt = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const bigInt = fc.bigInt({ min: -(2n ** 128n), max: 2n ** 128n });

describe("sunToTrx", () => {
  it("writes exact decimals without trailing zeros", () => {
    expect(sunToTrx(1)).toBe("0.000001");
    expect(sunToTrx(1_000_000)).toBe("1");
    expect(sunToTrx(12_500_000)).toBe("12.5");
    expect(sunToTrx(0)).toBe("0");
    expect(sunToTrx(-1)).toBe("-0.000001");
    expect(sunToTrx(-12_500_000n)).toBe("-12.5");
    expect(sunToTrx(123_456_789_012_345_678_901_234_567n)).toBe("123456789012345678901.234567");
  });

  it("refuses numbers that are not safe integers instead of rounding them", () => {
    expect(() => sunToTrx(1.5)).toThrow(RangeError);
    expect(() => sunToTrx(2 ** 53)).toThrow(RangeError);
    expect(() => sunToTrx(Number.NaN)).toThrow(RangeError);
  });

  it("round-trips with trxToSun for every safe integer", () => {
    fc.assert(fc.property(safeInt, (sun) => trxToSun(sunToTrx(sun)) === BigInt(sun)));
  });

  it("round-trips with trxToSun for bigints far beyond 2^53", () => {
    fc.assert(fc.property(bigInt, (sun) => trxToSun(sunToTrx(sun)) === sun));
  });

  it("agrees with integer division by SUN_PER_TRX", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 80n }), (sun) => {
        const [whole] = sunToTrx(sun).split(".");
        return BigInt(whole!) === sun / SUN_PER_TRX;
      }),
    );
  });
});

describe("trxToSun", () => {
  it("reads plain and comma-grouped amounts", () => {
    expect(trxToSun("1.5")).toBe(1_500_000n);
    expect(trxToSun("0.000001")).toBe(1n);
    expect(trxToSun("1,000.25")).toBe(1_000_250_000n);
    expect(trxToSun("12,345,678")).toBe(12_345_678_000_000n);
    expect(trxToSun("  -2.5 ")).toBe(-2_500_000n);
    expect(trxToSun("+3")).toBe(3_000_000n);
    expect(trxToSun("007.100000")).toBe(7_100_000n);
  });

  it("refuses more than 6 decimals", () => {
    expect(() => trxToSun("0.0000001")).toThrow(/at most 6 decimal places/);
  });

  it("refuses ambiguous or malformed text rather than guessing", () => {
    for (const bad of ["1,5", "1,50", "1,0000", ",100", "1.", ".5", "1e3", "0x10", "", " ", "1 000", "1.2.3", "--1", "Infinity", "NaN"]) {
      expect(() => trxToSun(bad), bad).toThrow(RangeError);
    }
  });
});

describe("atomicToUsdt / usdtToAtomic", () => {
  it("uses exactly 6 decimals", () => {
    expect(atomicToUsdt(1n)).toBe("0.000001");
    expect(atomicToUsdt("1250000")).toBe("1.25");
    expect(atomicToUsdt("-1")).toBe("-0.000001");
    expect(usdtToAtomic("1.25")).toBe(1_250_000n);
    expect(usdtToAtomic("100")).toBe(100_000_000n);
  });

  it("refuses strings that are not integers", () => {
    expect(() => atomicToUsdt("1.5")).toThrow(RangeError);
    expect(() => atomicToUsdt("12a")).toThrow(RangeError);
    expect(() => atomicToUsdt("")).toThrow(RangeError);
  });

  it("round-trips every integer up to 2^53 and bigints beyond", () => {
    fc.assert(fc.property(safeInt, (n) => usdtToAtomic(atomicToUsdt(BigInt(n))) === BigInt(n)));
    fc.assert(fc.property(bigInt, (n) => usdtToAtomic(atomicToUsdt(n.toString())) === n));
  });

  it("matches formatUnits for the string and bigint forms", () => {
    fc.assert(fc.property(bigInt, (n) => atomicToUsdt(n) === atomicToUsdt(n.toString()) && atomicToUsdt(n) === formatUnits(n, 6)));
  });
});

describe("mulSun", () => {
  it("multiplies exactly past 2^53", () => {
    expect(mulSun(200_000, 90)).toBe(18_000_000n);
    expect(mulSun(Number.MAX_SAFE_INTEGER, 1_000)).toBe(9_007_199_254_740_991_000n);
  });

  it("refuses fractional inputs", () => {
    expect(() => mulSun(1.5, 2)).toThrow(RangeError);
    expect(() => mulSun(1, 0.1)).toThrow(RangeError);
  });

  it("equals bigint multiplication for any safe integers", () => {
    fc.assert(fc.property(safeInt, safeInt, (a, b) => mulSun(a, b) === BigInt(a) * BigInt(b)));
  });
});

describe("parseEnergyAmount", () => {
  it.each([
    ["100000", 100_000],
    ["100k", 100_000],
    ["100K", 100_000],
    ["1.5k", 1_500],
    ["64.5k", 64_500],
    ["100,000", 100_000],
    ["100 000", 100_000],
    [`100${NBSP}000`, 100_000],
    ["100_000", 100_000],
    ["1,234,567", 1_234_567],
    ["  65000  ", 65_000],
    ["100 k", 100_000],
    ["100к", 100_000],
    ["2m", 2_000_000],
    ["0", 0],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("reads %j as %d", (input, expected) => {
    expect(parseEnergyAmount(input)).toBe(expected);
  });

  it.each([
    "1.5",
    "1.0001k",
    "-100",
    "+100",
    "100.",
    "1e5",
    "abc",
    "",
    "k",
    "100kk",
    "100x",
    "1,00,000",
    "1,000 000",
    "1000,000",
    "100,",
    "9007199254740992",
    "9007199254740.992k",
    "99999999999999999999",
  ])("refuses %j", (input) => {
    expect(parseEnergyAmount(input)).toBeUndefined();
  });

  it("reads back every safe non-negative integer in every accepted spelling", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(",", " ", "_", NBSP, ""), (n, sep) => {
        const grouped = n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, sep);
        return parseEnergyAmount(grouped) === n;
      }),
    );
  });

  it("reads thousands with the k suffix exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        // n / 1000 written exactly, e.g. 1500 -> "1.5k".
        return parseEnergyAmount(`${formatUnits(BigInt(n), 3)}k`) === n;
      }),
    );
  });

  it("never returns a fraction, a negative number or an unsafe integer", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (s) => {
        const v = parseEnergyAmount(s);
        return v === undefined || (Number.isSafeInteger(v) && v >= 0);
      }),
    );
  });
});

describe("formatDecimal", () => {
  it("groups per locale", () => {
    expect(formatDecimal("1234567.5", "en")).toBe("1,234,567.5");
    expect(formatDecimal("1234567.5", "ru")).toBe(`1${NBSP}234${NBSP}567,5`);
    expect(formatDecimal("1234567.5", "zh")).toBe("1,234,567.5");
    expect(formatDecimal("-1234567.5", "en")).toBe("-1,234,567.5");
    expect(formatDecimal("1234567.5", "de")).toBe("1.234.567,5");
    expect(formatDecimal("12345678", "en-IN")).toBe("1,23,45,678");
  });

  it("keeps every digit of amounts beyond 2^53 and of 6-decimal fractions", () => {
    expect(formatDecimal("123456789012345678901.000001", "en")).toBe("123,456,789,012,345,678,901.000001");
    expect(formatDecimal("0.100000", "ru")).toBe("0,100000");
  });

  it("leaves short integers alone", () => {
    expect(formatDecimal("0", "en")).toBe("0");
    expect(formatDecimal("999", "ru")).toBe("999");
    expect(formatDecimal("999.999999", "zh")).toBe("999.999999");
  });

  it("matches Intl.NumberFormat wherever a double is exact", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.constantFrom("en", "ru", "zh", "de", "es", "fr", "en-IN", "ar-EG", "fa", "sv"),
        (n, locale) => formatDecimal(n.toString(), locale) === new Intl.NumberFormat(locale).format(n),
      ),
    );
  });

  it("only inserts separators: removing them gives the input back", () => {
    fc.assert(
      fc.property(bigInt, fc.constantFrom("en", "zh"), (n, locale) => {
        const text = sunToTrx(n);
        return formatDecimal(text, locale).replaceAll(",", "") === text;
      }),
    );
    fc.assert(
      fc.property(bigInt, (n) => {
        const text = sunToTrx(n);
        return formatDecimal(text, "ru").replaceAll(NBSP, "").replace(",", ".") === text;
      }),
    );
  });

  it("falls back to English separators for a malformed locale tag", () => {
    expect(formatDecimal("1234.5", "!!")).toBe("1,234.5");
  });

  it("refuses text that is not a plain decimal", () => {
    for (const bad of ["1e5", "1,000", "", "-", "1.", "abc", " 1"]) {
      expect(() => formatDecimal(bad, "en"), bad).toThrow(RangeError);
    }
  });

  it("formats sun as grouped TRX in one step", () => {
    expect(formatSunAsTrx(1_234_567_500_000n, "ru")).toBe(`1${NBSP}234${NBSP}567,5`);
    expect(formatSunAsTrx(1, "en")).toBe("0.000001");
  });
});
