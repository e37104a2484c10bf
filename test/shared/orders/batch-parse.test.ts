import { describe, expect, it } from "vitest";
import { MAX_BATCH_ITEMS, parseBatch } from "../../../src/shared/orders/batch-parse.js";
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

describe("parseBatch", () => {
  it("reads pasted lines `address amount [duration]` with k-suffixes, grouped digits and tier labels", () => {
    const result = parseBatch(`${A} 100k 1h\n\n${B} 65,000 300\n${A} 70 000`, pricing);
    expect(result.errors).toEqual([]);
    expect(result.fatal).toBeUndefined();
    expect(result.items).toEqual([
      { line: 1, toAddress: A, amount: 100_000, durationSec: 3600 },
      { line: 3, toAddress: B, amount: 65_000, durationSec: 300 },
      { line: 4, toAddress: A, amount: 70_000, durationSec: undefined },
    ]);
  });

  it("reports every bad line with its number and reason before anything is sent", () => {
    const text = [`${A} 100000 1h`, "Tnotanaddress 100000", B, `${B} lots`, `${B} 10`, `${B} 100000 2h`, `${A} 1 2 3`].join("\n");
    const result = parseBatch(text, pricing);
    expect(result.items).toHaveLength(1);
    expect(result.errors).toEqual([
      { line: 2, reason: "bad_address", value: "Tnotanaddress" },
      { line: 3, reason: "missing_amount" },
      { line: 4, reason: "bad_amount", value: "lots" },
      { line: 5, reason: "amount_out_of_range", value: "10", min: 50_000, max: 200_000 },
      { line: 6, reason: "bad_duration", value: "2h" },
      { line: 7, reason: "too_many_fields" },
    ]);
  });

  it("reads a CSV document with a header, quotes, semicolons and a BOM", () => {
    const csv = `\uFEFFaddress,amount,duration\r\n${A},"65,000",15m\r\n${B},100000,3600\r\n`;
    expect(parseBatch(csv, pricing, { csv: true }).items).toEqual([
      { line: 2, toAddress: A, amount: 65_000, durationSec: 900 },
      { line: 3, toAddress: B, amount: 100_000, durationSec: 3600 },
    ]);
    const semi = `${A};65,000;1m\n${B};100k;`;
    expect(parseBatch(semi, pricing, { csv: true }).items.map((i) => [i.amount, i.durationSec])).toEqual([
      [65_000, 60],
      [100_000, undefined],
    ]);
  });

  it("joins an unquoted grouped amount split by the comma delimiter", () => {
    expect(parseBatch(`${A},65,000,1h`, pricing, { csv: true }).items[0]).toMatchObject({ amount: 65_000, durationSec: 3600 });
  });

  it("accepts a tier that appeared in the pricing by itself", () => {
    const grown = { ...pricing, tiers: [...pricing.tiers, { durationSec: 7200, label: "2h", unitPriceSun: 120 }] };
    expect(parseBatch(`${A} 100000 2h`, grown).items[0]?.durationSec).toBe(7200);
  });

  it("refuses an empty batch and one over the API's 100 items", () => {
    expect(parseBatch("\n# only a comment\n", pricing).fatal).toEqual({ reason: "empty" });
    const many = Array.from({ length: MAX_BATCH_ITEMS + 1 }, () => `${A} 100000`).join("\n");
    expect(parseBatch(many, pricing).fatal).toEqual({ reason: "too_many_items", count: 101, max: 100 });
    const exactly = Array.from({ length: MAX_BATCH_ITEMS }, () => `${A} 100000`).join("\n");
    expect(parseBatch(exactly, pricing).fatal).toBeUndefined();
  });
});

describe("parseBatch in Russian number style", () => {
  it("reads a decimal comma and spaced groups in pasted lines; a CSV cell needs quotes when its comma is the delimiter", () => {
    const pasted = parseBatch(`${A} 65,5 тыс 1 ч\n${B} 100\u00a0000 15 мин\n${A} 1 000 000 1ч`, { ...pricing, amountMax: 2_000_000 }, { locale: "ru" });
    expect(pasted.items.map((i) => [i.amount, i.durationSec])).toEqual([
      [65_500, 3600],
      [100_000, 900],
      [1_000_000, 3600],
    ]);
    expect(parseBatch(`${A};65,5k;1h`, pricing, { csv: true, locale: "ru" }).items[0]).toMatchObject({ amount: 65_500 });
    expect(parseBatch(`${A},"65,5k",1h`, pricing, { csv: true, locale: "ru" }).items[0]).toMatchObject({ amount: 65_500 });
  });
});
