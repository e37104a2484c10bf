import { formatDecimal, sunToTrx } from "../../shared/money.js";

/** Exact TRX for a sun amount, grouped for the locale: 1234567890 -> "1,234.56789". */
export function formatTrx(sun: bigint | number, locale: string): string {
  return formatDecimal(sunToTrx(sun), locale);
}

/** A whole number (or integer string) grouped for the locale, never through a float. */
export function formatInteger(value: number | bigint | string, locale: string): string {
  return formatDecimal(String(value), locale);
}

/** Alternatives the way the locale lists them: "1m, 5m or 1h", "1 мин, 5 мин или 1 ч", "1分钟、5分钟或1小时". */
export function formatChoices(items: readonly string[], locale: string): string {
  return spacedList(new Intl.ListFormat(locale, { type: "disjunction" }).formatToParts(items));
}

/** All of the items, the locale's way: "A and B", "A и B", "A 和 B". */
export function formatAll(items: readonly string[], locale: string): string {
  return spacedList(new Intl.ListFormat(locale, { type: "conjunction" }).formatToParts(items));
}

/** Chinese sets a Latin word apart from a Chinese one with a space ("A 和 B"), which Intl leaves out ("A和B"). */
function spacedList(parts: readonly { type: string; value: string }[]): string {
  return parts
    .map((part, i) => {
      if (part.type !== "literal" || !/^\p{Script=Han}+$/u.test(part.value)) return part.value;
      // A Latin word may sit in markup (<code>Name</code>).
      const latinBefore = /\p{Script=Latin}(?:<\/\w+>)?$/u.test(parts[i - 1]?.value ?? "");
      const latinAfter = /^(?:<\w+>)?\p{Script=Latin}/u.test(parts[i + 1]?.value ?? "");
      return `${latinBefore ? " " : ""}${part.value}${latinAfter ? " " : ""}`;
    })
    .join("");
}
