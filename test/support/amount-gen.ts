/**
 * Energy amounts written the ways people type them, built from the integer
 * they must parse back to: plain or grouped digits (one separator kind,
 * strict threes), or a k/m suffix (Latin or Cyrillic) with an exact decimal
 * part, optional spaces before the suffix and around the whole.
 */
import fc from "fast-check";

export const GROUP_SEPARATORS = [",", "_", " ", "\u00a0", "\u202f"] as const;
const SUFFIXES = [
  ["k", 3],
  ["K", 3],
  ["\u043a", 3],
  ["\u041a", 3],
  ["m", 6],
  ["M", 6],
] as const;

/** "1234567" -> "1,234,567" with `sep` ("" leaves it plain). */
export function group(digits: string, sep: string): string {
  if (sep === "") return digits;
  const parts: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) parts.unshift(digits.slice(Math.max(0, end - 3), end));
  return parts.join(sep);
}

/** n / 10^decimals as an exact decimal string, trailing zeros trimmed: (1500n, 3) -> "1.5". */
export function shiftDecimal(n: bigint, decimals: number): string {
  const digits = n.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export interface AmountStyle {
  sep: string;
  /** Index into SUFFIXES, or -1 for none. */
  suffix: number;
  spaceBeforeSuffix: string;
}

export const amountStyleArb: fc.Arbitrary<AmountStyle> = fc.record({
  sep: fc.constantFrom("", ...GROUP_SEPARATORS),
  suffix: fc.integer({ min: -1, max: SUFFIXES.length - 1 }),
  spaceBeforeSuffix: fc.constantFrom("", " ", "  "),
});

/** `n` written in `style`; the text always parses back to exactly `n`. */
export function renderAmount(n: bigint, style: AmountStyle): string {
  const suffix = SUFFIXES[style.suffix];
  if (suffix === undefined) return group(n.toString(), style.sep);
  const [letter, decimals] = suffix;
  const [whole = "", fraction] = shiftDecimal(n, decimals).split(".");
  return `${group(whole, style.sep)}${fraction === undefined ? "" : `.${fraction}`}${style.spaceBeforeSuffix}${letter}`;
}

/** Whitespace people leave around a pasted amount. */
export const padArb = fc.constantFrom("", " ", "\t", "  ", "\u00a0");
