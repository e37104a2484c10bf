import { parseChineseInteger } from "../chinese-numeral.js";
import { normalizeTyped } from "../energy-amount.js";

/**
 * Rental durations typed in en, ru or zh: "3600", "3600s", "1h", "1 hour",
 * "1ч", "1 час", "2 часа", "60 мин", "15 минут", "5м", "1小时", "15分钟",
 * "60秒", "一小时", "半小时", "1.5h", "1,5 ч". Unit words do not clash across
 * the three languages, so every word is read in every locale. Thousands may
 * be grouped as each locale prints them ("1,000 h", "1 000 ч"); otherwise a
 * "," or "." is a decimal mark ("1,5 ч"), and the result must be whole seconds.
 */

const UNIT_WORDS: readonly (readonly [number, readonly string[]])[] = [
  [1, ["s", "sec", "secs", "second", "seconds", "с", "сек", "секунда", "секунды", "секунд", "秒", "秒钟"]],
  [60, ["m", "min", "mins", "minute", "minutes", "м", "мин", "минута", "минуты", "минут", "分", "分钟"]],
  [3600, ["h", "hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов", "小时", "个小时", "钟头", "个钟头"]],
  [86_400, ["d", "day", "days", "д", "дн", "день", "дня", "дней", "天", "日"]],
];

const UNIT_SECONDS: ReadonlyMap<string, number> = new Map(UNIT_WORDS.flatMap(([seconds, words]) => words.map((w) => [w, seconds] as const)));

/** The longest duration anyone rents: beyond it a typed number is a mistake, not a tier. */
const MAX_DURATION_SEC = 10 ** 9;

function scaled(count: bigint, fraction: string, unit: number): number | undefined {
  const scale = 10n ** BigInt(fraction.length);
  const total = (count * scale + BigInt(fraction || "0")) * BigInt(unit);
  if (total % scale !== 0n) return undefined;
  const seconds = total / scale;
  return seconds > 0n && seconds <= BigInt(MAX_DURATION_SEC) ? Number(seconds) : undefined;
}

/** Seconds named by `text` ("15 минут" -> 900), or undefined when it names no duration. */
export function parseDurationText(input: string): number | undefined {
  const text = normalizeTyped(input)
    .toLowerCase()
    .replace(/(\p{L})\.$/u, "$1");
  const numeric = /^(\d{1,3}(?:([, \u00a0\u202f])\d{3})(?:\2\d{3})*|\d{1,15})(?:[.,](\d{1,6}))?\s*(\p{L}*)$/u.exec(text);
  if (numeric) {
    const [, count = "", , fraction = "", word = ""] = numeric;
    // Without a unit only plain seconds ("3600"): "65,000" or "1.5" alone are amounts or typos, not durations.
    if (word === "" && !/^\d+$/.test(text)) return undefined;
    const unit = word === "" ? 1 : UNIT_SECONDS.get(word);
    return unit === undefined ? undefined : scaled(BigInt(count.replace(/\D/g, "")), fraction, unit);
  }
  // "半小时": half of a unit; "一小时", "十五分钟": Chinese numerals before a Chinese unit.
  const half = /^半(?:个)?(\p{L}+)$/u.exec(text);
  if (half) {
    const unit = UNIT_SECONDS.get(half[1]!);
    return unit === undefined || unit % 2 !== 0 ? undefined : unit / 2;
  }
  const chinese = /^([零〇一二两三四五六七八九十百千]+)\s*(\p{L}+)$/u.exec(text);
  if (chinese) {
    const count = parseChineseInteger(chinese[1]!);
    const unit = UNIT_SECONDS.get(chinese[2]!);
    return count === undefined || unit === undefined ? undefined : scaled(count, "", unit);
  }
  return undefined;
}

/**
 * The durations the last words of a line may form, longest first: "1 час",
 * "1 000 с" (a count grouped as ru prints it). Two to four words, the last a
 * unit word: "65 000" is an amount with a group separator, never 65 000 seconds.
 */
export function trailingDurations(words: readonly string[]): { words: number; text: string }[] {
  if (words.length < 2 || !/\p{L}/u.test(words.at(-1)!)) return [];
  const found: { words: number; text: string }[] = [];
  for (let n = Math.min(4, words.length); n >= 2; n -= 1) {
    const text = words.slice(-n).join(" ");
    if (parseDurationText(text) !== undefined) found.push({ words: n, text });
  }
  return found;
}
