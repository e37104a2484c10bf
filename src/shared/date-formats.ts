/**
 * `Intl.DateTimeFormat`s built once per (locale, options) and reused: building one costs far more
 * than formatting a date with it (a profile of 1,000 concurrent journeys found a card's clock times
 * building up to three per call). The options of a call site are a handful of literals, the zones
 * a few dozen, so the cache stays small; it is cleared rather than grown past a bound all the same.
 */

const MAX_FORMATS = 512;
const formats = new Map<string, Intl.DateTimeFormat>();

function keyOf(locale: string, options: Intl.DateTimeFormatOptions): string {
  const keys = Object.keys(options).sort() as Array<keyof Intl.DateTimeFormatOptions>;
  return `${locale}|${keys.map((k) => `${k}=${String(options[k])}`).join(",")}`;
}

/**
 * The formatter for `locale` and `options`. A malformed locale tag falls back to English (a reply
 * must not fail for it); an unknown `timeZone` throws RangeError, as `Intl` does.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = keyOf(locale, options);
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(locale, options);
    } catch (error) {
      if (!(error instanceof RangeError) || !isBadLocale(locale)) throw error;
      format = new Intl.DateTimeFormat("en", options);
    }
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  return format;
}

function isBadLocale(locale: string): boolean {
  try {
    Intl.getCanonicalLocales(locale);
    return false;
  } catch {
    return true;
  }
}

/** How many formatters are kept (tests read it to see they are reused). */
export function dateTimeFormatCount(): number {
  return formats.size;
}
