import { parseChineseInteger } from "./chinese-numeral.js";

/**
 * Energy amounts as people type them in en, ru and zh: "100000", "100k",
 * "65,000", "65 000" (space, no-break or narrow no-break space), "100_000",
 * "1.5k", "100 тыс", "100к", "1,5 млн", "10万", "6.5万", "十万", and full-width
 * digits from a Chinese keyboard ("１０万").
 *
 * Rules that never misread money:
 * - "." is always a decimal mark (no locale of ours groups with dots).
 * - "," groups thousands in strict threes. Where the locale's decimal mark is
 *   a comma (ru, and the uk/be/kk users who get ru), a single comma may also
 *   be that decimal mark: "1,5k" = 1500. When both readings give a whole
 *   amount and they differ ("65,000": 65 000 or 65; "1,500k"), the text is
 *   refused as ambiguous with both readings, never guessed. In en and zh a
 *   comma is only a thousands separator ("1,5k" is refused, as before).
 * - A decimal part must still give a whole amount ("1.5k" yes, "1.5" no).
 * - One separator kind per amount; no signs, no exponents; at most 2^53 - 1.
 * - Cyrillic "м" is not a million: "5м" means five minutes to a Russian reader.
 */

export type EnergyAmountRead =
  | { ok: true; value: number }
  | { ok: false; reason: "invalid" }
  /** Two whole readings that differ; `readings` is [thousands-separator reading, decimal-comma reading]. */
  | { ok: false; reason: "ambiguous"; readings: [number, number] };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Thousands separators people type: comma, underscore, space, no-break and narrow no-break space. */
export const GROUP_CHARS = ",_ \u00a0\u202f";

/** Multipliers after the number, matched case-insensitively (the longest first). */
const SUFFIXES: readonly (readonly [string, bigint])[] = [
  ["тысячи", 1_000n],
  ["тысяча", 1_000n],
  ["тысяч", 1_000n],
  ["тыс.", 1_000n],
  ["тыс", 1_000n],
  ["миллиона", 1_000_000n],
  ["миллионов", 1_000_000n],
  ["миллион", 1_000_000n],
  ["млн.", 1_000_000n],
  ["млн", 1_000_000n],
  ["十万", 100_000n],
  ["百万", 1_000_000n],
  ["千万", 10_000_000n],
  ["千", 1_000n],
  ["万", 10_000n],
  ["亿", 100_000_000n],
  ["k", 1_000n],
  ["к", 1_000n],
  ["m", 1_000_000n],
];

const decimalMarks = new Map<string, string>();

/** The locale's decimal mark from Intl ("," for ru, "." for en and zh); "." for a malformed tag. */
export function decimalMarkOf(locale: string | undefined): string {
  if (locale === undefined) return ".";
  let mark = decimalMarks.get(locale);
  if (mark === undefined) {
    try {
      mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
    } catch {
      mark = ".";
    }
    decimalMarks.set(locale, mark);
  }
  return mark;
}

/**
 * Full-width digits, commas and letters (Chinese keyboards) -> ASCII; trimmed.
 * Spaces are left as typed: a no-break space is a separator kind of its own,
 * so "1 000\u00a0000" mixes two kinds and is refused like "1,000 000".
 */
export function normalizeTyped(text: string): string {
  return text.replace(/\S/gu, (c) => c.normalize("NFKC")).trim();
}

function splitSuffix(text: string): { body: string; factor: bigint } | undefined {
  const lower = text.toLowerCase();
  for (const [suffix, factor] of SUFFIXES) {
    if (lower.endsWith(suffix)) return { body: text.slice(0, -suffix.length).trimEnd(), factor };
  }
  return /\d$/.test(text) ? { body: text, factor: 1n } : undefined;
}

/** Digits grouped in strict threes by one separator kind from `separators`, or plain digits; digits only, or undefined. */
export function groupedDigits(text: string, separators: string): string | undefined {
  if (/^\d+$/.test(text)) return text;
  const used = [...new Set(Array.from(text).filter((c) => !/\d/.test(c)))];
  if (used.length !== 1 || !separators.includes(used[0]!)) return undefined;
  const groups = text.split(used[0]!);
  if (!/^\d{1,3}$/.test(groups[0]!) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return undefined;
  return groups.join("");
}

/** whole.fraction x factor, when that is a whole number within the safe range. */
function wholeValue(whole: string, fraction: string, factor: bigint): number | undefined {
  const scale = 10n ** BigInt(fraction.length);
  const scaled = BigInt(whole + fraction) * factor;
  if (scaled % scale !== 0n) return undefined;
  const value = scaled / scale;
  return value > MAX_SAFE ? undefined : Number(value);
}

/** "十万", "六万五千": Chinese numerals, whole numbers only (see chinese-numeral.ts). */
const CHINESE_NUMERAL = /^[零〇一二两三四五六七八九十百千万亿]+$/u;

const INVALID: EnergyAmountRead = { ok: false, reason: "invalid" };

/** Reads a typed energy amount; `locale` decides whether a comma may be a decimal mark (see the rules above). */
export function readEnergyAmount(input: string, locale?: string): EnergyAmountRead {
  const text = normalizeTyped(input);
  if (CHINESE_NUMERAL.test(text)) {
    const chinese = parseChineseInteger(text);
    return chinese !== undefined && chinese <= MAX_SAFE ? { ok: true, value: Number(chinese) } : INVALID;
  }
  const parts = splitSuffix(text);
  if (!parts) return INVALID;
  const { body, factor } = parts;
  if (!/^\d(?:[\d,_ \u00a0\u202f.]*\d)?$/.test(body)) return INVALID;
  const dot = body.split(".");
  if (dot.length > 2) return INVALID;
  if (dot.length === 2) {
    const whole = groupedDigits(dot[0]!, GROUP_CHARS);
    if (whole === undefined || !/^\d+$/.test(dot[1]!)) return INVALID;
    const value = wholeValue(whole, dot[1]!, factor);
    return value === undefined ? INVALID : { ok: true, value };
  }
  const grouped = groupedDigits(body, GROUP_CHARS);
  const groupReading = grouped === undefined ? undefined : wholeValue(grouped, "", factor);
  let commaReading: number | undefined;
  const commas = body.split(",");
  if (decimalMarkOf(locale) === "," && commas.length === 2) {
    const whole = groupedDigits(commas[0]!, GROUP_CHARS.replace(",", ""));
    if (whole !== undefined && /^\d+$/.test(commas[1]!)) commaReading = wholeValue(whole, commas[1]!, factor);
  }
  if (groupReading !== undefined && commaReading !== undefined && groupReading !== commaReading) {
    return { ok: false, reason: "ambiguous", readings: [groupReading, commaReading] };
  }
  const value = groupReading ?? commaReading;
  return value === undefined ? INVALID : { ok: true, value };
}
