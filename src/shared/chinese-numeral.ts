/**
 * Chinese numerals as written in full: "十万" = 100 000, "六万五千" = 65 000,
 * "一万零五" = 10 005, "十五" = 15, "两千" = 2 000. The colloquial elliptic
 * forms ("六万五" for 65 000, "一百五" for 150) are refused: read literally
 * they are other numbers, and guessing an amount is worse than asking again.
 */

const DIGITS: Readonly<Record<string, bigint>> = { 一: 1n, 二: 2n, 两: 2n, 三: 3n, 四: 4n, 五: 5n, 六: 6n, 七: 7n, 八: 8n, 九: 9n };
const UNITS: Readonly<Record<string, bigint>> = { 十: 10n, 百: 100n, 千: 1000n };
const ZERO = new Set(["零", "〇"]);

interface Section {
  value: bigint;
  /** The first place unit written (10, 100, 1000), undefined for a lone digit. */
  firstUnit: bigint | undefined;
}

/** 0-9999 written with 十/百/千; `leading` allows an implicit 一 before 十 ("十五"). */
function section(text: string, leading: boolean): Section | undefined {
  let value = 0n;
  let lastUnit = 10_000n;
  let firstUnit: bigint | undefined;
  let pending: bigint | undefined;
  let zero = false;
  for (const ch of text) {
    if (ZERO.has(ch)) {
      if (pending !== undefined) return undefined;
      zero = true;
      continue;
    }
    const digit = DIGITS[ch];
    if (digit !== undefined) {
      if (pending !== undefined) return undefined;
      pending = digit;
      continue;
    }
    const unit = UNITS[ch];
    if (unit === undefined || unit >= lastUnit) return undefined;
    if (pending === undefined) {
      if (!(unit === 10n && leading && value === 0n && !zero)) return undefined;
      pending = 1n;
    }
    value += pending * unit;
    firstUnit ??= unit;
    lastUnit = unit;
    pending = undefined;
    zero = false;
  }
  if (pending !== undefined) {
    // A trailing digit is the ones place only after 十 or a 零; after 百/千 it is elliptic ("一百五").
    if (!(lastUnit === 10_000n || lastUnit === 10n || zero)) return undefined;
    value += pending;
  }
  return { value, firstUnit };
}

/** Below 10^8: an optional "<section>万" then a section. */
function belowYi(text: string, leading: boolean): bigint | undefined {
  const parts = text.split("万");
  if (parts.length > 2) return undefined;
  if (parts.length === 1) return text === "" ? undefined : section(text, leading)?.value;
  const [high = "", low = ""] = parts;
  const head = section(high, leading);
  if (!head || head.value === 0n) return undefined;
  const tail = lowerPart(low, 1000n);
  return tail === undefined ? undefined : head.value * 10_000n + tail;
}

/** What follows 万 or 亿: nothing, a part starting with 零, or a full one starting at the highest place. */
function lowerPart(text: string, highest: bigint): bigint | undefined {
  if (text === "") return 0n;
  const zeroLed = ZERO.has(text[0]!);
  if (highest === 1000n) {
    const s = section(text, false);
    if (!s || (!zeroLed && s.firstUnit !== 1000n)) return undefined;
    return s.value;
  }
  // After 亿: "零…", or thousands of 万 written in full ("一亿五千万"); "一亿五千" may mean 1.5亿.
  if (!zeroLed && section(text.split("万")[0] ?? "", false)?.firstUnit !== 1000n) return undefined;
  if (!zeroLed && !text.includes("万")) return undefined;
  return belowYi(zeroLed ? text.slice(1) : text, false);
}

/** A whole number written in Chinese numerals, or undefined. */
export function parseChineseInteger(text: string): bigint | undefined {
  const parts = text.split("亿");
  if (parts.length > 2) return undefined;
  if (parts.length === 1) return belowYi(text, true);
  const [high = "", low = ""] = parts;
  const head = belowYi(high, true);
  if (head === undefined || head === 0n) return undefined;
  const tail = lowerPart(low, 10_000_000n);
  return tail === undefined ? undefined : head * 100_000_000n + tail;
}
