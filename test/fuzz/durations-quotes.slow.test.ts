import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration } from "../../src/bot/helpers/duration.js";
import { orderDeepLink, parseOrderDeepLink, parseQuoteQuery, type QuoteQuery } from "../../src/bot/helpers/quote-query.js";
import { labelSeconds, SAMPLE_AMOUNT, sortedTiers, tierName } from "../../src/bot/helpers/tiers.js";
import { parseDurationText } from "../../src/shared/orders/duration-input.js";
import type { Pricing, PricingTier } from "../../src/platform/service/schemas.js";
import { amountStyleArb, padArb, renderAmount } from "../support/amount-gen.js";
import { fuzz, fuzzTimeoutMs, sameJson, binaryString } from "../support/fuzz.js";
import { pricingArb } from "../support/pricing-gen.js";

// Built once: fc.stringMatching compiles its regexp into an arbitrary, far too slow to do per case.
const wordLabel = fc.stringMatching(/^[a-z]{3,8}$/);
const junkWord = fc.stringMatching(/^[a-z!?]{0,3}[x-z!?][0-9]{0,2}$/);

/** A translator that shows which message and count it was asked for. */
const tr = { t: (key: string, vars?: Record<string, unknown>) => `${key}=${String(vars?.["count"])}` };
const UNIT_OF: Record<string, number> = { "duration-hours": 3600, "duration-minutes": 60, "duration-seconds": 1 };

describe("durations (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("formatDuration says any number of seconds exactly, in the largest unit that divides it", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 1, max: 10_000_000 }),
          fc.integer({ min: 1, max: 1_000 }).map((n) => n * 3600),
        ),
        (seconds) => {
          const [key = "", count = ""] = formatDuration(tr, seconds).split("=");
          const unit = UNIT_OF[key]!;
          const largest = [3600, 60, 1].find((u) => seconds >= u && seconds % u === 0);
          return unit === largest && Number(count) * unit === seconds;
        },
      ),
      fuzz("formatDuration: exact"),
    );
  });

  it("labelSeconds reads '<n><unit>' in any case and spacing, and nothing else", () => {
    const UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hr: 3600, d: 86_400 };
    const good = fc
      .tuple(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(...Object.keys(UNITS)), fc.boolean(), fc.constantFrom("", " ", "  "), padArb)
      .map(([n, u, upper, gap, pad]) => ({
        text: `${pad}${n}${gap}${upper ? u.toUpperCase() : u}${pad}`,
        seconds: n * UNITS[u]!,
      }));
    const bad = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 999 }), fc.constantFrom("w", "ms", "x", "hrs", "mins", "secs", "days", "")).map(([n, u]) => `${n}${u}`),
      fc.tuple(fc.integer({ min: 1_000_000, max: 2 ** 40 }), fc.constantFrom("s", "m", "h")).map(([n, u]) => `${n}${u}`),
      fc.constantFrom("h", "-1h", "1.5h", "1,5h", "1 h 30 m", "express"),
    );
    fc.assert(
      fc.property(good, bad, ({ text, seconds }, b) => labelSeconds(text) === seconds && labelSeconds(b) === undefined),
      fuzz("labelSeconds: grammar"),
    );
  });

  it("tierName says a label that only abbreviates the duration once, and keeps any other label beside it", () => {
    const SEC: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
    const tier = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom("s", "m", "h", "d"))
        .map(([n, u]) => ({ label: `${n}${u}`, durationSec: n * SEC[u]!, abbreviates: true })),
      fc
        .tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom("s", "m", "h", "d"), fc.integer({ min: 1, max: 100_000 }))
        .map(([n, u, d]) => ({ label: `${n}${u}`, durationSec: d, abbreviates: d === n * SEC[u]! })),
      fc.tuple(wordLabel, fc.integer({ min: 1, max: 100_000 })).map(([label, d]) => ({ label, durationSec: d, abbreviates: false })),
    );
    fc.assert(
      fc.property(tier, (t) => {
        const duration = formatDuration(tr, t.durationSec);
        return tierName(tr, t) === (t.abbreviates ? duration : `${t.label} (${duration})`);
      }),
      fuzz("tierName: once"),
    );
  });
});

/** A tier named in an inline query: its label in any case, or "<seconds>s". */
const tierWord = (t: PricingTier) => fc.constantFrom(t.label, t.label.toUpperCase(), `${t.durationSec}s`);
/** A word picks a tier by its label or by the duration it names in any of our languages ("1days", "60 мин"); bare digits are an amount. */
const findsTier = (w: string, p: Pricing) =>
  p.tiers.some((t) => t.label.toLowerCase() === w.toLowerCase() || (!/^\d+$/.test(w) && parseDurationText(w) === t.durationSec));

describe("inline quote queries (parseQuoteQuery, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("quotes any typed amount in range exactly, for the named tier or for all of them", () => {
    const arb = pricingArb.chain((p) =>
      fc
        .record({
          p: fc.constant(p),
          n: fc.bigInt({ min: BigInt(p.amountMin), max: BigInt(p.amountMax) }),
          style: amountStyleArb,
          tier: fc.option(fc.constantFrom(...p.tiers), { nil: undefined }),
        })
        .chain((c) => fc.record({ c: fc.constant(c), word: c.tier ? tierWord(c.tier) : fc.constant(undefined) })),
    );
    fc.assert(
      fc.property(arb, ({ c: { p, n, style, tier }, word }) => {
        const amount = renderAmount(n, style);
        // "5m" alone is the 5-minute tier, not five million: a lone word naming a tier is the tier.
        fc.pre(word !== undefined || !findsTier(amount.split(/\s+/).at(-1)!, p));
        const q = parseQuoteQuery(`${amount}${word === undefined ? "" : ` ${word}`}`, p);
        return sameJson(q, { kind: "quote", amount: Number(n), tiers: tier ? [tier] : sortedTiers(p) });
      }),
      fuzz("quote query: valid"),
    );
  });

  it("answers out-of-range amounts, unknown duration words and other text with the matching kind", () => {
    const arb = pricingArb.chain((p) =>
      fc.record({
        p: fc.constant(p),
        outside: fc.oneof(
          ...(p.amountMin > 1 ? [fc.integer({ min: 1, max: p.amountMin - 1 })] : []),
          fc.integer({ min: p.amountMax + 1, max: Number.MAX_SAFE_INTEGER }),
        ),
        duration: fc
          .tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom("s", "sec", "m", "min", "h", "hr", "d", "day", "days", "w"))
          .map(([n, u]) => `${n}${u}`)
          .filter((w) => !findsTier(w, p)),
        n: fc.bigInt({ min: BigInt(p.amountMin), max: BigInt(p.amountMax) }),
        junk: junkWord,
      }),
    );
    fc.assert(
      fc.property(arb, ({ p, outside, duration, n, junk }) => {
        fc.pre(!findsTier(junk, p) && !findsTier(String(outside), p));
        const results: [QuoteQuery, QuoteQuery][] = [
          [parseQuoteQuery(String(outside), p), { kind: "out-of-range", amount: outside }],
          [parseQuoteQuery(`${n} ${duration}`, p), { kind: "unknown-tier", duration }],
          [parseQuoteQuery(junk, p), { kind: "unparsed" }],
          [parseQuoteQuery(`  \t `, p), { kind: "quote", amount: Math.min(Math.max(SAMPLE_AMOUNT, p.amountMin), p.amountMax), tiers: sortedTiers(p) }],
        ];
        return results.every(([got, want]) => sameJson(got, want));
      }),
      fuzz("quote query: refused kinds"),
    );
  });

  it("never throws on any query; a quote is always in range, and its deep link carries exactly its numbers", () => {
    const query = fc.oneof(fc.string({ maxLength: 30 }), binaryString({ maxLength: 64 }), fc.stringMatching(/^\d{1,12}[kKm]? ?[0-9a-z]{0,4}$/));
    fc.assert(
      fc.property(pricingArb, query, (p, text) => {
        const q = parseQuoteQuery(text, p);
        if (q.kind === "unparsed") return true;
        if (q.kind === "unknown-tier") return q.duration !== "" && !findsTier(q.duration, p);
        if (!Number.isSafeInteger(q.amount) || q.amount < 0) return false;
        if (q.kind === "out-of-range") return q.amount < p.amountMin || q.amount > p.amountMax;
        return (
          q.amount >= p.amountMin &&
          q.amount <= p.amountMax &&
          q.tiers.length > 0 &&
          q.tiers.every(
            (t) =>
              p.tiers.includes(t) &&
              new URL(orderDeepLink("fuzz_bot", q.amount, t.durationSec)).searchParams.get("start") === `order_${q.amount}_${t.durationSec}`,
          )
        );
      }),
      fuzz("quote query: total"),
    );
    expect(orderDeepLink("b", 1, 2)).toBe("https://t.me/b?start=order_1_2");
  });

  it("reads back every order deep link exactly, and nothing else as one", () => {
    const other = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.constantFrom("_", "__", "-", "_x", "_-"))
        .map(([a, d, s]) => `order_${a}${s}${d}`),
      fc.constantFrom("order_", "order_1", "order_1_2_3", "order_-1_60", "order_1e5_60", " order_1_60", "order_1_60 "),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }).filter((n) => String(n).length <= 15),
        fc.integer({ min: 0, max: 999_999_999 }),
        other,
        (amount, durationSec, o) => {
          const start = new URL(orderDeepLink("fuzz_bot", amount, durationSec)).searchParams.get("start")!;
          const m = /^order_(\d+)_(\d+)$/.exec(o);
          const otherOk = m !== null && m[1]!.length <= 15 && m[2]!.length <= 9;
          return sameJson(parseOrderDeepLink(start), { amount, durationSec }) && (parseOrderDeepLink(o) !== undefined) === otherOk && start.length <= 64;
        },
      ),
      fuzz("order deep link: round trip"),
    );
  });
});

/** Durations as the three locales print them: "1 ч", "15 мин", "1小时", "15 min". */
const PRINTED: Record<string, (count: number, unit: "h" | "m" | "s") => string> = {
  en: (c, u) => `${c} ${{ h: "h", m: "min", s: "s" }[u]}`,
  ru: (c, u) => `${c} ${{ h: "ч", m: "мин", s: "с" }[u]}`,
  zh: (c, u) => `${c}${{ h: "小时", m: "分钟", s: "秒" }[u]}`,
};

describe("inline quote queries in each language (parseQuoteQuery, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("quotes an amount printed in the locale for the tier named in the locale's words, exactly", () => {
    const arb = pricingArb.chain((p) =>
      fc.record({
        p: fc.constant(p),
        n: fc.integer({ min: p.amountMin, max: p.amountMax }),
        tier: fc.constantFrom(...p.tiers),
        locale: fc.constantFrom("en", "ru", "zh"),
      }),
    );
    fc.assert(
      fc.property(arb, ({ p, n, tier, locale }) => {
        const s = tier.durationSec;
        const unit = s % 3600 === 0 ? "h" : s % 60 === 0 ? "m" : "s";
        const count = s / { h: 3600, m: 60, s: 1 }[unit];
        // Counts of 1,000+ are printed grouped; this property keeps to the usual short ones.
        fc.pre(count < 1000);
        const amount = new Intl.NumberFormat(locale).format(n);
        return sameJson(parseQuoteQuery(`${amount} ${PRINTED[locale]!(count, unit)}`, p, locale), { kind: "quote", amount: n, tiers: [tier] });
      }),
      fuzz("quote query: localized"),
    );
  });
});
