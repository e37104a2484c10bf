import { describe, expect, it } from "vitest";
import { isValidTronAddress } from "../../../src/shared/tron/index.js";
import { parseOneShotOrder } from "../../../src/shared/orders/one-shot.js";
import type { Pricing } from "../../../src/platform/service/schemas.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";

const pricing: Pricing = {
  resource: "ENERGY",
  baseUnitPriceSun: 60,
  amountMin: 50_000,
  amountMax: 200_000,
  tiers: [
    { durationSec: 60, label: "1m", unitPriceSun: 60 },
    { durationSec: 300, label: "5m", unitPriceSun: 60 },
    { durationSec: 900, label: "15m", unitPriceSun: 65 },
    { durationSec: 3600, label: "1h", unitPriceSun: 90 },
  ],
};
const A = TEST_KEYS.alice.address;
const B = TEST_KEYS.bob.address;
const labels: Record<string, string> = { "bob wallet": B, savings: A };
const resolve = (text: string) => Promise.resolve(isValidTronAddress(text) ? text : labels[text.toLowerCase()]);
const parse = (text: string) => parseOneShotOrder(text, pricing, resolve);

describe("parseOneShotOrder", () => {
  it("reads address, amount and an optional duration", async () => {
    expect(await parse(`${A} 100k 1h`)).toEqual({ ok: true, address: A, amount: 100_000, durationSec: 3600 });
    expect(await parse(`${A} 65,000 300`)).toEqual({ ok: true, address: A, amount: 65_000, durationSec: 300 });
    expect(await parse(`${A} 100k`)).toEqual({ ok: true, address: A, amount: 100_000, durationSec: undefined });
    expect(await parse(`${A} 70 000 15m`)).toEqual({ ok: true, address: A, amount: 70_000, durationSec: 900 });
  });

  it("takes a saved label with spaces in place of the address", async () => {
    expect(await parse("bob wallet 80k 15m")).toEqual({ ok: true, address: B, amount: 80_000, durationSec: 900 });
    expect(await parse("Bob  Wallet 80k")).toEqual({ ok: true, address: B, amount: 80_000, durationSec: undefined });
    expect(await parse("savings 70 000 1h")).toEqual({ ok: true, address: A, amount: 70_000, durationSec: 3600 });
  });

  it("names the one wrong part of a single order", async () => {
    expect(await parse(`${A} 80k 2h`)).toEqual({ ok: false, reason: "bad_duration", value: "2h" });
    expect(await parse("bob wallet 80k 2h")).toEqual({ ok: false, reason: "bad_duration", value: "2h" });
    expect(await parse(`${A} 10 1h`)).toEqual({ ok: false, reason: "amount_out_of_range", value: "10", min: 50_000, max: 200_000 });
    expect(await parse(`${A} lots 1h`)).toEqual({ ok: false, reason: "bad_amount", value: "lots" });
    expect(await parse("nobody 80k 1h")).toEqual({ ok: false, reason: "bad_receiver", value: "nobody" });
    expect(await parse("no body 80k 1h")).toEqual({ ok: false, reason: "bad_receiver", value: "no body" });
    expect(await parse(A)).toEqual({ ok: false, reason: "usage" });
    expect(await parse(`${A} 80k 1h extra words`)).toEqual({ ok: false, reason: "usage" });
  });
});
