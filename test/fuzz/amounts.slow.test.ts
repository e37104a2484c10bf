import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readEnergyAmount } from "../../src/shared/energy-amount.js";
import { formatUnits, parseEnergyAmount, parseUnits } from "../../src/shared/money.js";
import { checkAmount } from "../../src/shared/orders/order-input.js";
import { amountStyleArb, GROUP_SEPARATORS, group, padArb, renderAmount } from "../support/amount-gen.js";
import { fuzz, fuzzTimeoutMs, binaryString } from "../support/fuzz.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const safeAmount = fc.oneof(fc.bigInt({ min: 0n, max: MAX_SAFE }), fc.bigInt({ min: 0n, max: 10_000_000n }));
/** Characters of the amount grammar and its near misses, so random text often comes close. */
const amountChars = fc.string({ unit: fc.constantFrom(...Array.from("0123456789,._ \u00a0\u202f\t.kKmM\u043a\u041a-+eE1x")), maxLength: 16 });

describe("energy amounts typed in chat (parseEnergyAmount, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("parses every amount written in an accepted way back to exactly its integer", () => {
    fc.assert(
      fc.property(safeAmount, amountStyleArb, padArb, padArb, (n, style, before, after) => {
        return parseEnergyAmount(before + renderAmount(n, style) + after) === Number(n);
      }),
      fuzz("energy amount: valid renderings"),
    );
  });

  it("refuses amounts above 2^53 - 1 instead of rounding them", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_SAFE + 1n, max: 2n ** 80n }), amountStyleArb, (n, style) => parseEnergyAmount(renderAmount(n, style)) === undefined),
      fuzz("energy amount: beyond safe"),
    );
  });

  it("refuses fractions of a unit, negatives, exponents and broken grouping", () => {
    const fractional = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.stringMatching(/^\d{0,3}[1-9]$/), fc.constantFrom("", "k", "m"))
      // With k, the 4th decimal is below one unit; with m, the 7th.
      .map(([n, frac, suffix]) => `${n}.${suffix === "k" ? `000${frac}` : suffix === "m" ? `000000${frac}` : frac}${suffix}`);
    const signed = fc.tuple(fc.constantFrom("-", "+"), safeAmount, amountStyleArb).map(([sign, n, style]) => sign + renderAmount(n, style));
    const exponent = fc.tuple(fc.nat({ max: 999 }), fc.constantFrom("e", "E", "e+", "e-"), fc.nat({ max: 9 })).map(([m, e, x]) => `${m}${e}${x}`);
    // A group of 1, 2 or 4+ digits after the first separator, or two separator kinds.
    const badGroups = fc
      .tuple(
        fc.stringMatching(/^[1-9]\d{0,2}$/),
        fc.array(fc.stringMatching(/^\d{1,5}$/), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...GROUP_SEPARATORS),
      )
      .filter(([, groups]) => groups.some((g) => g.length !== 3))
      .map(([head, groups, sep]) => [head, ...groups].join(sep));
    const mixed = fc
      .tuple(fc.bigInt({ min: 1_000_000n, max: MAX_SAFE }), fc.constantFrom(...GROUP_SEPARATORS), fc.constantFrom(...GROUP_SEPARATORS))
      .filter(([, a, b]) => a !== b)
      .map(([n, a, b]) => {
        const grouped = group(n.toString(), a);
        const at = grouped.lastIndexOf(a);
        return grouped.slice(0, at) + b + grouped.slice(at + 1);
      });
    fc.assert(
      fc.property(fc.oneof(fractional, signed, exponent, badGroups, mixed), (text) => parseEnergyAmount(text) === undefined),
      fuzz("energy amount: refused forms"),
    );
  });

  it("never throws on any text; anything it accepts is a safe integer equal to its digits times the suffix", () => {
    fc.assert(
      fc.property(fc.oneof(amountChars, binaryString({ maxLength: 24 })), (text) => {
        const value = parseEnergyAmount(text);
        if (value === undefined) return true;
        const m = /^([\d,_ \u00a0\u202f]+)(?:\.(\d+))?\s*([kKmM\u043a\u041a]?)$/.exec(text.trim());
        if (!m || !Number.isSafeInteger(value) || value < 0) return false;
        const factor = m[3] === "" ? 1n : /[mM]/.test(m[3]!) ? 1_000_000n : 1_000n;
        const fraction = m[2] ?? "";
        return BigInt(m[1]!.replace(/\D/g, "") + fraction) * factor === BigInt(value) * 10n ** BigInt(fraction.length);
      }),
      fuzz("energy amount: total"),
    );
  });
});

describe("checkAmount against the pricing range (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("accepts exactly the positive amounts within [amountMin, amountMax] and names the range otherwise", () => {
    const range = fc
      .tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000_000 }))
      .map(([min, span]) => ({ amountMin: min, amountMax: min + span }));
    const text = fc.oneof(
      fc.tuple(fc.bigInt({ min: 0n, max: 30_000_000n }), amountStyleArb).map(([n, style]) => renderAmount(n, style)),
      amountChars,
    );
    fc.assert(
      fc.property(range, text, (pricing, t) => {
        const parsed = parseEnergyAmount(t);
        const result = checkAmount(t, pricing);
        if (parsed === undefined || parsed === 0) return !result.ok && result.reason === "bad_amount";
        if (parsed < pricing.amountMin || parsed > pricing.amountMax) {
          expect(result).toEqual({ ok: false, reason: "amount_out_of_range", min: pricing.amountMin, max: pricing.amountMax });
          return true;
        }
        return result.ok && result.amount === parsed;
      }),
      fuzz("checkAmount: range"),
    );
  });
});

describe("TRX / USDT decimal text (parseUnits, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("round-trips every integer through its grouped, signed, padded decimal text without precision loss", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 100n), max: 2n ** 100n }), fc.constantFrom(6, 0, 18), fc.boolean(), padArb, (units, decimals, grouped, pad) => {
        const text = formatUnits(units, decimals);
        const negative = text.startsWith("-");
        const [whole = "", fraction] = text.replace("-", "").split(".");
        const typed = `${pad}${negative ? "-" : grouped ? "+" : ""}${group(whole, grouped ? "," : "")}${fraction === undefined ? "" : `.${fraction}`}${pad}`;
        return parseUnits(typed, decimals) === units;
      }),
      fuzz("parseUnits: round trip"),
    );
  });

  it("either returns a bigint or throws a RangeError, never anything else, on any text", () => {
    fc.assert(
      fc.property(fc.oneof(amountChars, binaryString({ maxLength: 24 })), fc.constantFrom(0, 6), (text, decimals) => {
        try {
          return typeof parseUnits(text, decimals) === "bigint";
        } catch (e) {
          return e instanceof RangeError;
        }
      }),
      fuzz("parseUnits: total"),
    );
  });
});

describe("energy amounts read with a locale (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("en and zh read every accepted spelling as before; ru reads it the same or refuses it as ambiguous, naming the value", () => {
    fc.assert(
      fc.property(safeAmount, amountStyleArb, padArb, (n, style, pad) => {
        const text = pad + renderAmount(n, style) + pad;
        if (parseEnergyAmount(text, "en") !== Number(n) || parseEnergyAmount(text, "zh") !== Number(n)) return false;
        const ru = readEnergyAmount(text, "ru");
        return ru.ok ? ru.value === Number(n) : ru.reason === "ambiguous" && ru.readings[0] === Number(n) && text.includes(",");
      }),
      fuzz("energy amount: locales keep values"),
    );
  });
});
