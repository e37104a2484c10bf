/**
 * Amounts and durations written the way en, ru and zh write them: whatever a
 * locale prints reads back to the same value, and no text ever reads as two
 * different amounts (a locale may only refuse what another accepts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration } from "../../src/bot/helpers/duration.js";
import { formatInteger } from "../../src/bot/helpers/format.js";
import { createI18n, LOCALES_DIRECTORY, type I18nFlavor } from "../../src/bot/i18n.js";
import { createLogger } from "../../src/platform/logger.js";
import { tierLabel } from "../../src/bot/helpers/tiers.js";
import { readEnergyAmount } from "../../src/shared/energy-amount.js";
import { parseEnergyAmount } from "../../src/shared/money.js";
import { parseDurationText } from "../../src/shared/orders/duration-input.js";
import { parseOneShotOrder } from "../../src/shared/orders/one-shot.js";
import { group, padArb, shiftDecimal } from "../support/amount-gen.js";
import { fuzz, fuzzTimeoutMs, sameJson, scaledRuns } from "../support/fuzz.js";
import { pricingArb } from "../support/pricing-gen.js";
import { pooledAddressArb } from "../support/tron-address-gen.js";

const LOCALES = ["en", "ru", "zh"] as const;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const i18n = createI18n({
  defaultLocale: "en",
  directory: LOCALES_DIRECTORY,
  storedLocale: () => Promise.resolve(undefined),
  logger: createLogger({ level: "silent" }),
});
const translator = (locale: string): Pick<I18nFlavor, "t"> => ({
  t: ((key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars)) as I18nFlavor["t"],
});

const DIGIT = "零一二三四五六七八九";
/** 0 < n < 10^4 in full Chinese numerals, 零 for skipped places ("一千零五"); `leading` drops the 一 of 一十. */
function chineseSection(n: number, leading: boolean): string {
  let out = "";
  let zero = false;
  for (const [unit, char] of [
    [1000, "千"],
    [100, "百"],
    [10, "十"],
    [1, ""],
  ] as const) {
    const d = Math.floor(n / unit) % 10;
    if (d === 0) {
      zero = out !== "";
      continue;
    }
    if (zero) out += "零";
    zero = false;
    out += (leading && out === "" && unit === 10 && d === 1 ? "" : (DIGIT[d] ?? "")) + char;
  }
  return out;
}
/** 0 < n < 10^8 as Chinese numerals: "十万", "六万五千", "一万零五". */
function chinese(n: number): string {
  if (n < 10_000) return chineseSection(n, true);
  const low = n % 10_000;
  return `${chineseSection(Math.floor(n / 10_000), true)}万${low === 0 ? "" : `${low < 1000 ? "零" : ""}${chineseSection(low, false)}`}`;
}

const SUFFIX_DECIMALS = {
  en: [
    ["k", 3],
    ["K", 3],
    ["m", 6],
  ],
  ru: [
    ["к", 3],
    ["К", 3],
    [" тыс", 3],
    ["тыс.", 3],
    [" млн", 6],
    ["k", 3],
  ],
  zh: [
    ["千", 3],
    ["万", 4],
    ["十万", 5],
    ["百万", 6],
    ["亿", 8],
    ["k", 3],
  ],
} as const;

/** n with a multiplier suffix, its fraction written with the locale's decimal mark. */
function withSuffix(n: bigint, locale: (typeof LOCALES)[number], pick: number, sep: string): string {
  const options = SUFFIX_DECIMALS[locale];
  const [suffix, decimals] = options[pick % options.length]!;
  const [whole = "", fraction] = shiftDecimal(n, decimals).split(".");
  return `${group(whole, sep)}${fraction === undefined ? "" : `${locale === "ru" ? "," : "."}${fraction}`}${suffix}`;
}

const safeAmount = fc.oneof(fc.bigInt({ min: 0n, max: MAX_SAFE }), fc.bigInt({ min: 0n, max: 10_000_000n }));
/** The amount alphabet of all three languages, so random text often comes close. */
const amountChars = fc.string({
  unit: fc.constantFrom(...Array.from("0123456789,._ \u00a0\u202f.kKmкКм万千亿十百一二五零тысмлн"), "тыс", "млн", "１", "，"),
  maxLength: 14,
});

describe("localized amounts (readEnergyAmount, property)", { timeout: fuzzTimeoutMs() }, () => {
  it("reads back every integer as its locale prints it (65,000 / 65 000 / 65,000), padded", () => {
    fc.assert(
      fc.property(
        safeAmount,
        fc.constantFrom(...LOCALES),
        padArb,
        (n, locale, pad) => parseEnergyAmount(`${pad}${formatInteger(n, locale)}${pad}`, locale) === Number(n),
      ),
      fuzz("localized amount: printed round trip"),
    );
  });

  it("reads back k / тыс / млн / 万 / 亿 forms with the locale's decimal mark; in ru a 3-digit decimal part is refused as ambiguous, never misread", () => {
    fc.assert(
      fc.property(safeAmount, fc.constantFrom(...LOCALES), fc.nat(), fc.constantFrom("", " ", "\u00a0"), (n, locale, pick, sep) => {
        const text = withSuffix(n, locale, pick, sep);
        const read = readEnergyAmount(text, locale);
        if (read.ok) return read.value === Number(n);
        // "1,500 тыс": 1 500 000 or 1 500. Only ru has a decimal comma; the refusal names the meant value.
        return locale === "ru" && read.reason === "ambiguous" && read.readings[1] === Number(n) && /,\d{3}(?!\d)/.test(text);
      }),
      fuzz("localized amount: suffix round trip"),
    );
  });

  it("reads Chinese numerals in full form, and refuses the elliptic 六万五 style", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => parseEnergyAmount(chinese(n), "zh") === n),
      fuzz("localized amount: chinese numerals"),
    );
    expect(["六万五", "一百五", "一亿五千", "两两"].map((t) => parseEnergyAmount(t, "zh"))).toEqual([undefined, undefined, undefined, undefined]);
    expect(["十万", "六万五千", "一万零五", "１０万"].map((t) => parseEnergyAmount(t, "zh"))).toEqual([100_000, 65_000, 10_005, 100_000]);
  });

  it("never gives one text two values: where two locales both accept it, they agree", () => {
    const grouped = fc
      .tuple(
        safeAmount,
        fc.constantFrom(",", " ", "\u00a0", "_"),
        fc.constantFrom("", ",5", ",25", ",500", ".5"),
        fc.constantFrom("", "k", "к", " тыс", "万", "m"),
      )
      .map(([n, sep, frac, s]) => `${group(n.toString(), sep)}${frac}${s}`);
    fc.assert(
      fc.property(fc.oneof(amountChars, grouped, fc.string({ maxLength: 12 })), (text) => {
        const values = LOCALES.map((l) => parseEnergyAmount(text, l)).filter((v) => v !== undefined);
        if (values.some((v) => !Number.isSafeInteger(v) || v < 0)) return false;
        // en and zh share the grammar exactly: the comma is never a decimal mark there.
        if (parseEnergyAmount(text, "en") !== parseEnergyAmount(text, "zh")) return false;
        return new Set(values).size <= 1;
      }),
      fuzz("localized amount: one value"),
    );
  });
});

const UNIT_WORDS: Record<number, readonly string[]> = {
  1: ["s", "sec", "seconds", "с", "сек", "секунд", "秒", "秒钟"],
  60: ["m", "min", "minutes", "м", "мин", "минута", "минуты", "минут", "分", "分钟"],
  3600: ["h", "hr", "hours", "ч", "час", "часа", "часов", "小时", "个小时", "钟头"],
  86_400: ["d", "days", "д", "день", "дня", "дней", "天"],
};

describe("localized durations (parseDurationText, property)", { timeout: fuzzTimeoutMs() }, () => {
  it("reads <count><unit> in en, ru and zh, with or without a space and in any case", () => {
    const arb = fc.tuple(fc.integer({ min: 1, max: 9_999 }), fc.constantFrom(1, 60, 3600, 86_400), fc.nat(), fc.constantFrom("", " "), fc.boolean());
    fc.assert(
      fc.property(arb, padArb, ([n, unit, pick, gap, upper], pad) => {
        const words = UNIT_WORDS[unit]!;
        const word = words[pick % words.length]!;
        return parseDurationText(`${pad}${n}${gap}${upper ? word.toUpperCase() : word}${pad}`) === n * unit;
      }),
      fuzz("localized duration: words"),
    );
  });

  it("reads back every duration and tier label as each locale prints it (1 ч, 15 мин, 1小时, 15分钟, 1h)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 1, max: 10_000_000 }),
          fc.integer({ min: 1, max: 999 }).map((h) => h * 3600),
        ),
        fc.constantFrom(...LOCALES),
        (seconds, locale) => {
          const tr = translator(locale);
          const unit = seconds % 3600 === 0 ? "h" : seconds % 60 === 0 ? "m" : "s";
          const label = `${seconds / { h: 3600, m: 60, s: 1 }[unit]}${unit}`;
          return parseDurationText(formatDuration(tr, seconds)) === seconds && parseDurationText(tierLabel(tr, { label, durationSec: seconds })) === seconds;
        },
      ),
      fuzz("localized duration: printed round trip", scaledRuns(2_000)),
    );
  });

  it("never reads a bare grouped or decimal number as a duration, and never throws", () => {
    fc.assert(
      fc.property(fc.oneof(amountChars, fc.string({ maxLength: 12 })), (text) => {
        const seconds = parseDurationText(text);
        if (seconds === undefined) return true;
        const typed = text.normalize("NFKC");
        return Number.isSafeInteger(seconds) && seconds > 0 && (/\p{L}/u.test(typed) || /^\s*\d+\s*$/.test(typed));
      }),
      fuzz("localized duration: total"),
    );
  });
});

describe("/order <receiver> <amount> <duration> in each language (parseOneShotOrder, property)", { timeout: fuzzTimeoutMs() }, () => {
  it("takes the amount as the locale prints it and the duration as the locale names it, exactly", async () => {
    const arb = pricingArb.chain((p) =>
      fc.record({
        p: fc.constant(p),
        address: pooledAddressArb,
        n: fc.integer({ min: p.amountMin, max: p.amountMax }),
        tier: fc.constantFrom(...p.tiers),
        locale: fc.constantFrom(...LOCALES),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ p, address, n, tier, locale }) => {
        const duration = formatDuration(translator(locale), tier.durationSec);
        // A tier whose word label is exactly such a duration would make the pick ambiguous; the generator never names them so.
        const text = `${address} ${formatInteger(n, locale)} ${duration}`;
        const parsed = await parseOneShotOrder(text, p, (r) => Promise.resolve(r === address ? address : undefined), locale);
        return sameJson(parsed, { ok: true, address, amount: n, durationSec: tier.durationSec });
      }),
      fuzz("one-shot: localized", scaledRuns(3_000)),
    );
  });
});
