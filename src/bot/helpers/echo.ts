/**
 * Quoting what the user typed back to them ("“…” is not an amount"): a
 * pasted 4,000-character word must not push the reply past Telegram's 4,096
 * limit, and a long echo helps nobody. The value is cut before `translate`
 * escapes it, so no HTML entity is ever split, and it is cut by code point,
 * so no surrogate pair (emoji) is either.
 */

/** About one line of a phone screen. */
export const ECHO_MAX_CHARS = 64;

/** `value` on one line, at most `max` code points, with "…" when it was cut. */
export function echo(value: string, max = ECHO_MAX_CHARS): string {
  const oneLine = value.replace(/\s+/g, " ").trim();
  const points = Array.from(oneLine);
  if (points.length <= max) return oneLine;
  return `${points.slice(0, max - 1).join("")}…`;
}

/**
 * Lines of a list that stay within `budget` UTF-16 units (what Telegram
 * counts) together, at most `maxLines` of them; the rest become one closing
 * line from `more(count)`.
 */
export function cappedLines(lines: readonly string[], options: { budget: number; maxLines: number; more: (count: number) => string }): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    // Room for the "…and K more" line is kept while lines remain.
    if (kept.length >= options.maxLines || used + line.length + 1 > options.budget - 64) break;
    kept.push(line);
    used += line.length + 1;
  }
  return kept.length < lines.length ? [...kept, options.more(lines.length - kept.length)] : kept;
}
