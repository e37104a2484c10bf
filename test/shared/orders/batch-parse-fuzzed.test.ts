import { describe, expect, it } from "vitest";
import { parseBatch } from "../../../src/shared/orders/batch-parse.js";
import { STANDARD_PRICING } from "../../support/pricing-gen.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";

const A = TEST_KEYS.alice.address;
const B = TEST_KEYS.bob.address;

// Fixed cases of the properties in test/fuzz/batch-parse.slow.test.ts.
describe("batch lines the fuzz suite found misread", () => {
  it("reports a mistyped address on the first line as a bad address, even when it contains 'to'", () => {
    // Was: taken for a header ("to" as in "to_address") and silently dropped: one order fewer, no error.
    const typo = `${A.slice(0, 10)}to${A.slice(12)}`;
    expect(parseBatch(`${typo} 100000\n${B} 100000`, STANDARD_PRICING)).toEqual({
      items: [{ line: 2, toAddress: B, amount: 100_000, durationSec: undefined }],
      errors: [{ line: 1, reason: "bad_address", value: typo }],
    });
    // A typo can leave an address without digits: still an address, not a header.
    const letters = "TXToJgKufJswcxrMnLrnPJYcnJrZAbwedn";
    expect(parseBatch(`${letters} 2082045\n${B} 100000`, STANDARD_PRICING).errors).toEqual([{ line: 1, reason: "bad_address", value: letters }]);
    // Real headers still are headers.
    expect(parseBatch(`to_address amount\n${B} 100000`, STANDARD_PRICING)).toEqual({
      items: [{ line: 2, toAddress: B, amount: 100_000, durationSec: undefined }],
      errors: [],
    });
    for (const header of ["Receiver Address;Amount", "wallet,amount,duration", "ToAddress,Amount", "recipient_wallet_address;amount"]) {
      expect(parseBatch(`${header}\n${B}${header.includes(";") ? ";" : ","}100000`, STANDARD_PRICING, { csv: true })).toEqual({
        items: [{ line: 2, toAddress: B, amount: 100_000, durationSec: undefined }],
        errors: [],
      });
    }
  });

  it("reads a grouped amount whose last group equals a tier's seconds as the amount when the shorter reading is refused", () => {
    // Was: amount_out_of_range "70" (70 energy for 300 s).
    expect(parseBatch(`${A} 70 300`, STANDARD_PRICING).items).toEqual([{ line: 1, toAddress: A, amount: 70_300, durationSec: undefined }]);
    expect(parseBatch(`${B},65,060`, STANDARD_PRICING, { csv: true }).items).toEqual([{ line: 1, toAddress: B, amount: 65_060, durationSec: undefined }]);
    expect(parseBatch(`${A} 10 300`, STANDARD_PRICING).errors).toEqual([{ line: 1, reason: "amount_out_of_range", value: "10", min: 50_000, max: 200_000 }]);
  });

  it("names the duration after an amount of several parts", () => {
    // Was: too_many_fields.
    expect(parseBatch(`${A} 70 000 2x`, STANDARD_PRICING).errors).toEqual([{ line: 1, reason: "bad_duration", value: "2x" }]);
    expect(parseBatch(`${A},65,000,2x`, STANDARD_PRICING, { csv: true }).errors).toEqual([{ line: 1, reason: "bad_duration", value: "2x" }]);
    expect(parseBatch(`${A} 1 2 3`, STANDARD_PRICING).errors).toEqual([{ line: 1, reason: "too_many_fields" }]);
  });
});
