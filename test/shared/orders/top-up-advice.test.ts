import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_DEPOSIT_SUN, topUpAdvice } from "../../../src/shared/orders/top-up-advice.js";

const TRX = 1_000_000n;

describe("topUpAdvice", () => {
  it("asks for the minimum deposit when less is missing, and for the exact shortfall when more is", () => {
    expect(topUpAdvice(15n * TRX, 10n * TRX)).toEqual({ covered: false, shortfallSun: 5n * TRX, sendSun: 10n * TRX });
    expect(topUpAdvice(15n * TRX, 1n * TRX)).toEqual({ covered: false, shortfallSun: 14n * TRX, sendSun: 14n * TRX });
    expect(topUpAdvice(15n * TRX, 5n * TRX)).toEqual({ covered: false, shortfallSun: 10n * TRX, sendSun: 10n * TRX });
    expect(topUpAdvice(20_000_001n, 0n)).toEqual({ covered: false, shortfallSun: 20_000_001n, sendSun: 20_000_001n });
    expect(topUpAdvice(1n, 0n)).toEqual({ covered: false, shortfallSun: 1n, sendSun: MIN_DEPOSIT_SUN });
  });

  it("asks for nothing when the balance covers the amount", () => {
    expect(topUpAdvice(15n * TRX, 15n * TRX)).toEqual({ covered: true, shortfallSun: 0n, sendSun: 0n });
    expect(topUpAdvice(0n, 0n).covered).toBe(true);
  });

  it("always advises the least amount that is both credited and enough", () => {
    const sun = fc.bigInt({ min: 0n, max: 10n ** 18n });
    fc.assert(
      fc.property(sun, sun, (required, available) => {
        const advice = topUpAdvice(required, available);
        expect(advice.covered).toBe(available >= required);
        if (advice.covered) return;
        expect(advice.shortfallSun).toBe(required - available);
        // Credited (not under the minimum) and enough after it arrives ...
        expect(advice.sendSun >= MIN_DEPOSIT_SUN).toBe(true);
        expect(available + advice.sendSun >= required).toBe(true);
        // ... and nothing more than one of those two needs.
        expect(advice.sendSun === MIN_DEPOSIT_SUN || advice.sendSun === advice.shortfallSun).toBe(true);
      }),
    );
  });

  it("reads a negative balance as nothing available", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: -1n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (available, required) => {
        expect(topUpAdvice(required, available)).toEqual(topUpAdvice(required, 0n));
      }),
    );
  });
});
