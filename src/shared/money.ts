/**
 * Exact money arithmetic and text conversions. Everything works on integers
 * (`bigint`, or `number` only while it is a safe integer) and decimal strings;
 * no value ever passes through a float, because 0.1 + 0.2 style rounding in a
 * balance or a price shown to a user is a bug we cannot explain away.
 */

import { decimalMarkOf, GROUP_CHARS, groupedDigits, normalizeTyped, readEnergyAmount } from "./energy-amount.js";

/** 1 TRX = 1,000,000 sun (service-api.md section 1). */
export const SUN_PER_TRX = 1_000_000n;
/** The `usdt` token has 6 decimals (service-api.md section 8). */
export const USDT_DECIMALS = 6;
export const TRX_DECIMALS = 6;

// ---------------------------------------------------------------------------
// Integer <-> decimal string
// ---------------------------------------------------------------------------

/** Accepts a bigint or a safe-integer number; anything else is a caller bug. */
function toBigInt(value: bigint | number, name: string): bigint {
  if (typeof value === "bigint") return value;
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be a safe integer, got ${String(value)}`);
  }
  return BigInt(value);
}

/**
 * Shifts an integer count of the smallest unit into a decimal string with
 * `decimals` places, trimming trailing zeros: 1500000n, 6 -> "1.5".
 */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * Grammar of amounts typed by people or read from config:
 *   optional sign, then either plain digits or digits grouped by commas in
 *   strict groups of three ("1,000,000"), then optionally "." and 1+ digits.
 * The decimal mark is always ".". A comma is only ever a thousands separator,
 * and only in well-formed groups: "1,5" is refused rather than guessed,
 * because it means 1.5 in Russian and could be a typo for 1,500 in English.
 */
const DECIMAL_TEXT = /^([+-]?)(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/;

/** Inverse of `formatUnits`. Throws `RangeError` on malformed text or too many decimals. */
export function parseUnits(text: string, decimals: number): bigint {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole = "", fraction = ""] = match;
  if (fraction.length > decimals) {
    throw new RangeError(`at most ${decimals} decimal places are allowed: ${JSON.stringify(text)}`);
  }
  const units = BigInt(whole.replaceAll(",", "") + fraction.padEnd(decimals, "0"));
  return sign === "-" ? -units : units;
}

/** 12_500_000 -> "12.5"; exact for any integer, negatives included. */
export function sunToTrx(sun: bigint | number): string {
  return formatUnits(toBigInt(sun, "sun"), TRX_DECIMALS);
}

/**
 * "1.5" -> 1_500_000n. Accepts "1", "0.000001", "-2.5", "1,000.25" (strict
 * comma grouping), surrounding whitespace. Refuses more than 6 decimals,
 * exponents, "1,5", ".5", "1." and anything else with a `RangeError`.
 */
export function trxToSun(text: string): bigint {
  return parseUnits(text, TRX_DECIMALS);
}

export type TrxAmountRead =
  | { ok: true; sun: bigint }
  | { ok: false; reason: "invalid" }
  /** Two readings that differ; [thousands-separator reading, decimal-comma reading] in sun. */
  | { ok: false; reason: "ambiguous"; readings: [bigint, bigint] };

/**
 * A TRX amount as a person types it in their language: "12.5" everywhere,
 * "12,5", "1 000", "1 000 000" and "1 000,5" in ru (space, no-break or narrow
 * no-break space between groups), "1,000.25" in en and zh, full-width digits
 * from a Chinese keyboard. The rules of `readEnergyAmount` hold: "." is
 * always the decimal mark; a comma groups thousands in strict threes, and may
 * be the decimal mark only where the locale writes decimals with it; when
 * both readings fit and differ ("1,000" in ru: 1 000 or 1) the text is
 * refused with both, never guessed. At most 6 decimals (1 sun); a leading
 * "-" is read so that callers can say a negative amount is not allowed.
 */
export function readTrxAmount(input: string, locale?: string): TrxAmountRead {
  const text = normalizeTyped(input);
  const negative = /^[-−]/.test(text);
  const body = negative ? text.slice(1).trimStart() : text.replace(/^\+/, "");
  if (!/^\d(?:[\d,_ \u00a0\u202f.]*\d)?$/.test(body)) return INVALID_TRX;
  const sunOf = (whole: string, fraction: string): bigint | undefined =>
    fraction.length > TRX_DECIMALS ? undefined : (negative ? -1n : 1n) * BigInt(whole + fraction.padEnd(TRX_DECIMALS, "0"));
  const dot = body.split(".");
  if (dot.length > 2) return INVALID_TRX;
  if (dot.length === 2) {
    const whole = groupedDigits(dot[0]!, GROUP_CHARS);
    const sun = whole !== undefined && /^\d+$/.test(dot[1]!) ? sunOf(whole, dot[1]!) : undefined;
    return sun === undefined ? INVALID_TRX : { ok: true, sun };
  }
  const grouped = groupedDigits(body, GROUP_CHARS);
  const groupReading = grouped === undefined ? undefined : sunOf(grouped, "");
  let commaReading: bigint | undefined;
  const commas = body.split(",");
  if (decimalMarkOf(locale) === "," && commas.length === 2) {
    const whole = groupedDigits(commas[0]!, GROUP_CHARS.replace(",", ""));
    if (whole !== undefined && /^\d+$/.test(commas[1]!)) commaReading = sunOf(whole, commas[1]!);
  }
  if (groupReading !== undefined && commaReading !== undefined && groupReading !== commaReading) {
    return { ok: false, reason: "ambiguous", readings: [groupReading, commaReading] };
  }
  const sun = groupReading ?? commaReading;
  return sun === undefined ? INVALID_TRX : { ok: true, sun };
}

const INVALID_TRX: TrxAmountRead = { ok: false, reason: "invalid" };

/** Token smallest units (bigint or decimal integer string) -> "1.25". Trailing zeros trimmed. */
export function atomicToUsdt(atomic: bigint | string): string {
  if (typeof atomic === "string") {
    if (!/^-?\d+$/.test(atomic)) throw new RangeError(`not an integer string: ${JSON.stringify(atomic)}`);
    return formatUnits(BigInt(atomic), USDT_DECIMALS);
  }
  return formatUnits(atomic, USDT_DECIMALS);
}

/** "1.25" -> 1_250_000n, same grammar as `trxToSun`. */
export function usdtToAtomic(text: string): bigint {
  return parseUnits(text, USDT_DECIMALS);
}

/** amount x unit price, exactly (the order cost relation of service-api.md section 4). */
export function mulSun(amount: bigint | number, unitPriceSun: bigint | number): bigint {
  return toBigInt(amount, "amount") * toBigInt(unitPriceSun, "unitPriceSun");
}

// ---------------------------------------------------------------------------
// Energy amounts typed in chat
// ---------------------------------------------------------------------------

/**
 * "100000", "100k", "1.5k", "100,000", "100 000", "100_000", "10万", "100 тыс"
 * -> integer; `undefined` for fractions, negatives, exponents, garbage, values
 * above `Number.MAX_SAFE_INTEGER`, and text the locale makes ambiguous ("65,000"
 * in ru). The grammar and its rules are in energy-amount.ts (`readEnergyAmount`
 * also says why a text was refused).
 */
export function parseEnergyAmount(input: string, locale?: string): number | undefined {
  const read = readEnergyAmount(input, locale);
  return read.ok ? read.value : undefined;
}

// ---------------------------------------------------------------------------
// Locale formatting of decimal strings
// ---------------------------------------------------------------------------

interface NumberSymbols {
  group: string;
  decimal: string;
  /** Text put before the digits of a negative number (minus sign and any bidi mark). */
  negativePrefix: string;
  primaryGroup: number;
  secondaryGroup: number;
  /** Integer digits needed before grouping kicks in (CLDR minimumGroupingDigits). */
  minGroupingDigits: number;
  /** The locale's digits 0-9 when it does not use ASCII ones. */
  digits: readonly string[] | undefined;
}

// Locale data is immutable, so memoizing it is safe; building an
// Intl.NumberFormat costs far more than formatting one amount.
const symbolsCache = new Map<string, NumberSymbols>();

function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    // A malformed tag (RangeError) must not take down a reply: fall back to English.
    return new Intl.NumberFormat("en", options);
  }
}

function learnSymbols(locale: string): NumberSymbols {
  const format = numberFormat(locale);
  const parts = format.formatToParts(-1234567.5);
  const integers = parts.filter((p) => p.type === "integer").map((p) => p.value.length);
  const firstInteger = parts.findIndex((p) => p.type === "integer");
  const primaryGroup = integers.at(-1) ?? 3;
  const plain = numberFormat(locale, { useGrouping: false });
  const digits = Array.from({ length: 10 }, (_, d) => plain.format(d));
  return {
    group: parts.find((p) => p.type === "group")?.value ?? ",",
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
    negativePrefix:
      parts
        .slice(0, Math.max(firstInteger, 0))
        .map((p) => p.value)
        .join("") || "-",
    primaryGroup,
    secondaryGroup: integers.length >= 3 ? integers.at(-2)! : primaryGroup,
    minGroupingDigits: format.formatToParts(1234).some((p) => p.type === "group") ? 1 : 2,
    digits: digits.join("") === "0123456789" ? undefined : digits,
  };
}

function symbolsFor(locale: string): NumberSymbols {
  let symbols = symbolsCache.get(locale);
  if (!symbols) {
    symbols = learnSymbols(locale);
    symbolsCache.set(locale, symbols);
  }
  return symbols;
}

function groupInteger(whole: string, s: NumberSymbols): string {
  if (whole.length < s.primaryGroup + s.minGroupingDigits) return whole;
  const groups = [whole.slice(-s.primaryGroup)];
  let rest = whole.slice(0, -s.primaryGroup);
  while (rest.length > s.secondaryGroup) {
    groups.unshift(rest.slice(-s.secondaryGroup));
    rest = rest.slice(0, -s.secondaryGroup);
  }
  if (rest) groups.unshift(rest);
  return groups.join(s.group);
}

/**
 * Groups an exact decimal string for display: ("-1234567.5", "en") ->
 * "-1,234,567.5"; "ru" -> "1 234 567,5" with U+00A0 as group separator;
 * "zh" -> "1,234,567.5". The digits are never converted to a number, so
 * amounts beyond 2^53 and all 6 decimals stay exact. Separators, grouping
 * sizes and digits come from the locale's Intl data. Fraction digits are
 * kept as given (no rounding, no trimming).
 */
export function formatDecimal(decimal: string, locale: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new RangeError(`not a decimal string: ${JSON.stringify(decimal)}`);
  const [, minus, whole = "", fraction] = match;
  const s = symbolsFor(locale);
  let text = groupInteger(whole, s) + (fraction === undefined ? "" : s.decimal + fraction);
  if (s.digits) {
    const digits = s.digits;
    text = text.replace(/\d/g, (d) => digits[Number(d)]!);
  }
  return minus ? s.negativePrefix + text : text;
}

/** Convenience for messages: sun -> grouped TRX text in the user's locale. */
export function formatSunAsTrx(sun: bigint | number, locale: string): string {
  return formatDecimal(sunToTrx(sun), locale);
}

export type UsdtAmountRead = { ok: true; atomic: bigint } | Exclude<TrxAmountRead, { ok: true }>;

/** A USDT amount as a person types it in their language: the grammar of `readTrxAmount` (both have 6 decimals). */
export function readUsdtAmount(input: string, locale?: string): UsdtAmountRead {
  const read = readTrxAmount(input, locale);
  return read.ok ? { ok: true, atomic: read.sun } : read;
}
