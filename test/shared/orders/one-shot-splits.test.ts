import { describe, expect, it } from "vitest";
import { parseOneShotOrder } from "../../../src/shared/orders/one-shot.js";
import { isValidTronAddress } from "../../../src/shared/tron/index.js";
import { STANDARD_PRICING } from "../../support/pricing-gen.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";

const A = TEST_KEYS.alice.address;
const resolve = (text: string) => Promise.resolve(isValidTronAddress(text) ? text : undefined);
const parse = (text: string) => parseOneShotOrder(text, STANDARD_PRICING, resolve);

// Fixed cases of the properties in test/fuzz/order-one-shot.slow.test.ts.
describe("one-shot orders whose amount spans several words", () => {
  it("reads a grouped amount whose last group equals a tier's seconds as the amount when the shorter reading is out of range", async () => {
    // Was: amount_out_of_range "65" (read as 65 energy for 60 s).
    expect(await parse(`${A} 65 060`)).toEqual({ ok: true, address: A, amount: 65_060, durationSec: undefined });
    expect(await parse(`${A} 70 300`)).toEqual({ ok: true, address: A, amount: 70_300, durationSec: undefined });
    // Both readings refused: the first one is named.
    expect(await parse(`${A} 10 300`)).toEqual({ ok: false, reason: "amount_out_of_range", value: "10", min: 50_000, max: 200_000 });
  });

  it("names the duration after a two-word amount", async () => {
    // Was: bad_amount "99.5" and usage.
    expect(await parse(`${A} 99.5 k 2x`)).toEqual({ ok: false, reason: "bad_duration", value: "2x" });
    expect(await parse(`${A} 70 000 2h`)).toEqual({ ok: false, reason: "bad_duration", value: "2h" });
  });

  it("names only the receiver before a two-word amount", async () => {
    // Was: bad_receiver "nobody 60.5 k".
    expect(await parse("nobody 60.5 k 300")).toEqual({ ok: false, reason: "bad_receiver", value: "nobody" });
  });
});
