import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEnergyAmount } from "../../src/shared/money.js";
import { parseOneShotOrder, type OneShotParse } from "../../src/shared/orders/one-shot.js";
import { checkAmount, resolveTier } from "../../src/shared/orders/order-input.js";
import type { Pricing, PricingTier } from "../../src/platform/service/schemas.js";
import { isValidTronAddress } from "../../src/shared/tron/index.js";
import { amountStyleArb, group, renderAmount } from "../support/amount-gen.js";
import { fuzz, fuzzTimeoutMs, scaledRuns, binaryString } from "../support/fuzz.js";
import { pricingArb, tierWordArb } from "../support/pricing-gen.js";
import { ADDRESS_POOL, pooledAddressArb } from "../support/tron-address-gen.js";

/** `/order <receiver> <amount> [duration]`: receiver an address or a saved label of letter words. */
type Book = ReadonlyMap<string, string>;
const bookArb: fc.Arbitrary<Book> = fc
  .array(fc.tuple(fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), { minLength: 1, maxLength: 3 }), pooledAddressArb), { maxLength: 4 })
  .map((entries) => new Map(entries.map(([words, a]) => [words.join(" "), a])));
// Address validity is the subject of address.test.ts; here the pool's addresses are known valid.
const POOL = new Set(ADDRESS_POOL);
const validAddress = (text: string) => POOL.has(text) || (text.length === 34 && isValidTronAddress(text));
const resolver = (book: Book) => (text: string) => Promise.resolve(validAddress(text) ? text : book.get(text.toLowerCase()));
const parse = (text: string, pricing: Pricing, book: Book) => parseOneShotOrder(text, pricing, resolver(book));

interface Scenario {
  pricing: Pricing;
  book: Book;
  receiver: string;
  address: string;
}
const scenarioArb: fc.Arbitrary<Scenario> = fc
  .tuple(pricingArb, bookArb, pooledAddressArb, fc.boolean(), fc.nat())
  .map(([pricing, book, fresh, useLabel, pick]) => {
    const labels = [...book.keys()];
    const label = labels[pick % Math.max(1, labels.length)];
    return useLabel && label !== undefined
      ? { pricing, book, receiver: label.toUpperCase(), address: book.get(label)! }
      : { pricing, book, receiver: fresh, address: fresh };
  });
const inRange = (p: Pricing) => fc.bigInt({ min: BigInt(p.amountMin), max: BigInt(p.amountMax) });
const pickTier = (p: Pricing) => fc.constantFrom(...p.tiers);
/** Words that are neither amounts nor any tier. */
// Built once: fc.stringMatching compiles its regexp into an arbitrary, far too slow to do per case.
const junkBase = fc.stringMatching(/^[0-9]{0,3}[a-j!?#]{0,3}[x-z!?#][0-9]{0,2}$/);
const letterWords = fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 3 });
const junkWord = (p: Pricing) => junkBase.filter((w) => parseEnergyAmount(w) === undefined && resolveTier(w, p.tiers) === undefined);

const SHAPES = new Set(["usage", "bad_receiver", "bad_amount", "amount_out_of_range", "bad_duration"]);
function wellFormed(r: OneShotParse, pricing: Pricing): boolean {
  if (r.ok) {
    return (
      validAddress(r.address) &&
      Number.isSafeInteger(r.amount) &&
      r.amount >= pricing.amountMin &&
      r.amount <= pricing.amountMax &&
      (r.durationSec === undefined || pricing.tiers.some((t) => t.durationSec === r.durationSec))
    );
  }
  return SHAPES.has(r.reason) && ("value" in r ? typeof r.value === "string" && r.value !== "" : true);
}

describe("/order one-shot arguments (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("accepts every well-formed order with the exact receiver, amount and duration", async () => {
    const arb = scenarioArb.chain((s) =>
      fc
        .record({ s: fc.constant(s), n: inRange(s.pricing), style: amountStyleArb, tier: fc.option(pickTier(s.pricing), { nil: undefined }) })
        .chain((c) => fc.record({ c: fc.constant(c), tierWord: c.tier === undefined ? fc.constant(undefined) : tierWordArb(c.tier) })),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ c: { s, n, style, tier }, tierWord }) => {
        const amountText = renderAmount(n, style);
        // "100 300" with a 300 s tier also reads as 100 for 5 minutes: both are orders, and the duration reading wins.
        const words = amountText.split(/\s+/);
        fc.pre(
          tierWord !== undefined ||
            words.length < 2 ||
            resolveTier(words.at(-1)!, s.pricing.tiers) === undefined ||
            !checkAmount(words.slice(0, -1).join(" "), s.pricing).ok,
        );
        const text = [s.receiver, amountText, ...(tierWord === undefined ? [] : [tierWord])].join(" ");
        expect(await parse(text, s.pricing, s.book)).toEqual({ ok: true, address: s.address, amount: Number(n), durationSec: tier?.durationSec });
      }),
      fuzz("one-shot: valid orders"),
    );
  });

  it("names the receiver when nothing before the amount resolves", async () => {
    const arb = fc.tuple(pricingArb, bookArb).chain(([pricing, book]) =>
      fc.record({
        pricing: fc.constant(pricing),
        book: fc.constant(book),
        // No leading part may be a saved label: the longest one that resolves is judged the receiver.
        receiver: letterWords.filter((w) => w.every((_, i) => !book.has(w.slice(0, i + 1).join(" ")))).map((w) => w.join(" ")),
        amount: fc.tuple(inRange(pricing), amountStyleArb).map(([n, st]) => renderAmount(n, st)),
        tier: fc.option(pickTier(pricing).chain(tierWordArb), { nil: undefined }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ pricing, book, receiver, amount, tier }) => {
        const r = await parse([receiver, amount, ...(tier === undefined ? [] : [tier])].join(" "), pricing, book);
        expect(r).toEqual({ ok: false, reason: "bad_receiver", value: receiver });
      }),
      fuzz("one-shot: unknown receiver"),
    );
  });

  it("names the amount when it is not a number, and the range when it is outside it", async () => {
    const arb = scenarioArb.chain((s) =>
      fc.record({
        s: fc.constant(s),
        amount: fc.oneof(
          junkWord(s.pricing).map((w) => ({ text: w, outside: false })),
          fc
            .oneof(
              ...(s.pricing.amountMin > 1 ? [fc.bigInt({ min: 1n, max: BigInt(s.pricing.amountMin) - 1n })] : []),
              fc.bigInt({ min: BigInt(s.pricing.amountMax) + 1n, max: 2n ** 40n }),
            )
            .chain((n) =>
              fc.constantFrom({ text: String(n), outside: true }, { text: renderAmount(n, { sep: ",", suffix: -1, spaceBeforeSuffix: "" }), outside: true }),
            ),
        ),
        // A tier named by bare seconds would join a refused amount into a good one ("1 900" is 1,900).
        tier: fc.option(
          pickTier(s.pricing)
            .chain(tierWordArb)
            .filter((w) => !/^\d+$/.test(w)),
          { nil: undefined },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ s, amount, tier }) => {
        const r = await parse([s.receiver, amount.text, ...(tier === undefined ? [] : [tier])].join(" "), s.pricing, s.book);
        const { amountMin: min, amountMax: max } = s.pricing;
        expect(r).toEqual(
          amount.outside ? { ok: false, reason: "amount_out_of_range", value: amount.text, min, max } : { ok: false, reason: "bad_amount", value: amount.text },
        );
      }),
      fuzz("one-shot: bad or out-of-range amount"),
    );
  });

  it("names the duration when the word after a good amount is no tier", async () => {
    const arb = scenarioArb.chain((s) => fc.record({ s: fc.constant(s), n: inRange(s.pricing), style: amountStyleArb, word: junkWord(s.pricing) }));
    await fc.assert(
      fc.asyncProperty(arb, async ({ s, n, style, word }) => {
        expect(await parse(`${s.receiver} ${renderAmount(n, style)} ${word}`, s.pricing, s.book)).toEqual({ ok: false, reason: "bad_duration", value: word });
      }),
      fuzz("one-shot: unknown duration"),
    );
  });

  it("never throws on any text and always answers one of the documented outcomes", async () => {
    const words = fc.oneof(fc.stringMatching(/^[a-z]{1,5}$/), fc.stringMatching(/^\d{1,4}[kKm]?$/), fc.string({ maxLength: 8 }), pooledAddressArb);
    const text = fc.oneof(
      fc.array(words, { maxLength: 7 }).map((w) => w.join(" ")),
      binaryString({ maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(pricingArb, bookArb, text, async (pricing, book, t) => wellFormed(await parse(t, pricing, book), pricing)),
      fuzz("one-shot: total"),
    );
  });
});

describe("tier words (resolveTier, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("finds the tier a user names by label (any case) or seconds, and nothing for other durations", () => {
    const arb = pricingArb.chain((p) =>
      fc
        .record({ tiers: fc.constant(p.tiers), tier: pickTier(p), other: fc.integer({ min: 0, max: 5_000_000 }) })
        .chain((c) => fc.record({ c: fc.constant(c), word: tierWordArb(c.tier) })),
    );
    fc.assert(
      fc.property(arb, ({ c: { tiers, tier, other }, word }) => {
        const found: PricingTier | undefined = resolveTier(` ${word} `, tiers);
        const unknown = tiers.some((t) => t.durationSec === other) || resolveTier(String(other), tiers) === undefined;
        return found?.durationSec === tier.durationSec && unknown;
      }),
      fuzz("resolveTier: names"),
    );
  });
});

describe("one-shot orders read with the user's locale (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("in ru, a comma-grouped amount is taken exactly or refused as ambiguous naming it; never another amount", async () => {
    const arb = scenarioArb.chain((s) =>
      fc.record({ s: fc.constant(s), n: inRange(s.pricing), tier: pickTier(s.pricing), sep: fc.constantFrom(",", " ", "") }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ s, n, tier, sep }) => {
        const amount = group(n.toString(), sep);
        const parsed = await parseOneShotOrder(`${s.receiver} ${amount} ${tier.label}`, s.pricing, resolver(s.book), "ru");
        if (parsed.ok) return parsed.amount === Number(n) && parsed.address === s.address && parsed.durationSec === tier.durationSec;
        return parsed.reason === "bad_amount" && parsed.readings?.[0] === Number(n) && (amount.match(/,/g) ?? []).length === 1;
      }),
      fuzz("one-shot: ru commas", scaledRuns(3_000)),
    );
  });
});
