import fc from "fast-check";
import { describe, it } from "vitest";
import { parseEnergyAmount } from "../../src/shared/money.js";
import { MAX_BATCH_ITEMS, parseBatch, type BatchLineError, type BatchParse } from "../../src/shared/orders/batch-parse.js";
import { checkAmount, resolveTier } from "../../src/shared/orders/order-input.js";
import type { Pricing, PricingTier } from "../../src/platform/service/schemas.js";
import { isValidTronAddress } from "../../src/shared/tron/index.js";
import { amountStyleArb, renderAmount } from "../support/amount-gen.js";
import { fuzz, fuzzTimeoutMs, sameJson, scaledRuns, binaryString } from "../support/fuzz.js";
import { pricingArb, tierWordArb } from "../support/pricing-gen.js";
import { BASE58_ALPHABET, pooledAddressArb } from "../support/tron-address-gen.js";

/** Pasted lines (`address amount [duration]`) and CSV documents, built from the items they must parse to. */
type Mode = "space" | "tab" | "semicolon" | "comma";
const DELIMITER: Record<Mode, string> = { space: " ", tab: "\t", semicolon: ";", comma: "," };

interface Row {
  address: string;
  amount: bigint;
  amountText: string;
  tier: PricingTier | undefined;
  tierWord: string | undefined;
  quote: boolean;
}

const junkBase = fc.stringMatching(/^[0-9]{0,3}[a-j!?#]{0,3}[x-z!?#][0-9]{0,2}$/);
const junk = (p: Pricing) => junkBase.filter((w) => parseEnergyAmount(w) === undefined && resolveTier(w, p.tiers) === undefined);

/** Amount parts as the parser's split sees them in `mode` (a quoted CSV field stays whole). */
function amountParts(row: Pick<Row, "amountText" | "quote">, mode: Mode): string[] {
  if (mode === "space") return row.amountText.split(/\s+/);
  if (mode === "comma" && !row.quote) return row.amountText.split(",").map((p) => p.trim());
  return [row.amountText.trim()];
}

/** "70 300" with a 300 s tier is also 70 for 5 minutes; when both readings are orders the duration one wins. */
function ambiguous(row: Row, mode: Mode, pricing: Pricing): boolean {
  const parts = amountParts(row, mode);
  if (row.tierWord !== undefined || parts.length < 2) return false;
  return resolveTier(parts.at(-1)!, pricing.tiers) !== undefined && checkAmount(parts.slice(0, -1).join(mode === "space" ? " " : DELIMITER[mode]), pricing).ok;
}

function rowArb(pricing: Pricing): fc.Arbitrary<Row> {
  return fc
    .record({
      address: pooledAddressArb,
      amount: fc.bigInt({ min: BigInt(pricing.amountMin), max: BigInt(pricing.amountMax) }),
      style: amountStyleArb,
      tier: fc.option(fc.constantFrom(...pricing.tiers), { nil: undefined }),
      quote: fc.boolean(),
    })
    .chain(({ style, tier, ...r }) =>
      (tier === undefined ? fc.constant(undefined) : tierWordArb(tier)).map((tierWord) => ({
        ...r,
        amountText: renderAmount(r.amount, style),
        tier,
        tierWord,
      })),
    );
}

function renderRow(fields: readonly string[], mode: Mode, quote: boolean): string {
  const d = DELIMITER[mode];
  // A field holding the delimiter must be quoted in CSV; others are quoted at random.
  return fields.map((f) => (mode !== "space" && (f.includes(d) ? quote || mode !== "comma" : quote && mode === "comma") ? `"${f}"` : f)).join(d);
}

interface Doc {
  pricing: Pricing;
  mode: Mode;
  csv: boolean;
  lines: string[];
  /** Line numbers (1-based) of the data rows, in order. */
  dataLines: number[];
  rows: Row[];
  text: string;
}

const eolArb = fc.constantFrom("\n", "\r\n", "\r");
const docArb: fc.Arbitrary<Doc> = pricingArb.chain((pricing) =>
  fc
    .record({
      mode: fc.constantFrom<Mode>("space", "tab", "semicolon", "comma"),
      csvFlag: fc.boolean(),
      header: fc.boolean(),
      bom: fc.boolean(),
      eol: eolArb,
      rows: fc.array(fc.tuple(rowArb(pricing), fc.constantFrom("", "", "", "blank", "comment")), { minLength: 1, maxLength: 4 }),
      trailingCells: fc.boolean(),
    })
    .map(({ mode, csvFlag, header, bom, eol, rows, trailingCells }) => {
      const csv = mode === "space" ? false : csvFlag;
      const lines: string[] = header ? [renderRow(["address", "amount", "duration"], mode, false)] : [];
      const dataLines: number[] = [];
      for (const [row, extra] of rows) {
        if (extra === "blank") lines.push("  ");
        if (extra === "comment") lines.push(`# ${row.address}`);
        const fields = [row.address, row.amountText, ...(row.tierWord === undefined ? [] : [row.tierWord])];
        lines.push(renderRow(fields, mode, row.quote) + (trailingCells && mode === "comma" ? ",," : ""));
        dataLines.push(lines.length);
      }
      return { pricing, mode, csv, lines, dataLines, rows: rows.map(([r]) => r), text: (bom ? "\uFEFF" : "") + lines.join(eol) };
    }),
);

const parseDoc = (d: Pick<Doc, "text" | "pricing" | "csv">): BatchParse => parseBatch(d.text, d.pricing, { csv: d.csv });
const itemsOf = (d: Doc) => d.rows.map((r, i) => ({ line: d.dataLines[i]!, toAddress: r.address, amount: Number(r.amount), durationSec: r.tier?.durationSec }));

describe("batch lines and CSV (parseBatch, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("reads every well-formed document to exactly its items and line numbers", () => {
    fc.assert(
      fc.property(docArb, (d) => {
        fc.pre(d.rows.every((r) => !ambiguous(r, d.mode, d.pricing)));
        return sameJson(parseDoc(d), { items: itemsOf(d), errors: [] });
      }),
      fuzz("batch: valid documents"),
    );
  });

  it("reports one broken line with its number and the right reason, and still reads every other line", () => {
    const kinds = ["bad_address", "missing_amount", "bad_amount", "amount_out_of_range", "bad_duration", "too_many_fields"] as const;
    const arb = docArb.chain((d) =>
      fc.record({
        d: fc.constant(d),
        at: fc.nat({ max: d.rows.length - 1 }),
        kind: fc.constantFrom(...kinds),
        pos: fc.nat({ max: 33 }),
        shift: fc.nat({ max: 56 }),
        word: junk(d.pricing),
        outside:
          d.pricing.amountMin > 1
            ? fc.oneof(fc.integer({ min: 1, max: d.pricing.amountMin - 1 }), fc.integer({ min: d.pricing.amountMax + 1, max: 2 ** 40 }))
            : fc.integer({ min: d.pricing.amountMax + 1, max: 2 ** 40 }),
        labelOnly: fc.option(
          fc.constantFrom(...d.pricing.tiers).filter((t) => !/^\d+$/.test(t.label)),
          { nil: undefined },
        ),
      }),
    );
    fc.assert(
      fc.property(arb, ({ d, at, kind, pos, shift, word, outside, labelOnly }) => {
        fc.pre(d.rows.every((r) => !ambiguous(r, d.mode, d.pricing)));
        const row = d.rows[at]!;
        const line = d.dataLines[at]!;
        const old = BASE58_ALPHABET.indexOf(row.address[pos]!);
        const badAddress = row.address.slice(0, pos) + BASE58_ALPHABET[(old + 1 + shift) % 58]! + row.address.slice(pos + 1);
        const single = row.amount.toString();
        const [fields, error]: [string[], BatchLineError] = {
          bad_address: (): [string[], BatchLineError] => [[badAddress, single], { line, reason: "bad_address", value: badAddress }],
          missing_amount: (): [string[], BatchLineError] => [[row.address], { line, reason: "missing_amount" }],
          bad_amount: (): [string[], BatchLineError] => [
            [row.address, word, ...(labelOnly ? [labelOnly.label] : [])],
            { line, reason: "bad_amount", value: word },
          ],
          amount_out_of_range: (): [string[], BatchLineError] => [
            [row.address, String(outside), ...(labelOnly ? [labelOnly.label] : [])],
            { line, reason: "amount_out_of_range", value: String(outside), min: d.pricing.amountMin, max: d.pricing.amountMax },
          ],
          bad_duration: (): [string[], BatchLineError] => [[row.address, row.amountText, word], { line, reason: "bad_duration", value: word }],
          too_many_fields: (): [string[], BatchLineError] => [
            [row.address, single, ...(row.tierWord ? [row.tierWord] : []), word, word],
            { line, reason: "too_many_fields" },
          ],
        }[kind]();
        // The broken row must not be the first line, or the delimiter may be guessed from it instead.
        fc.pre(kind !== "missing_amount" || at > 0);
        const lines = [...d.lines];
        lines[line - 1] = renderRow(fields, d.mode, row.quote);
        const result = parseDoc({ ...d, text: lines.join("\n") });
        return sameJson(result, { items: itemsOf(d).filter((i) => i.line !== line), errors: [error] });
      }),
      fuzz("batch: one broken line"),
    );
  });

  it("refuses more than 100 items as a whole, and an empty text as empty", () => {
    fc.assert(
      fc.property(pooledAddressArb, fc.integer({ min: 0, max: 130 }), fc.constantFrom("", "# only a comment", "address amount"), (address, count, filler) => {
        const text = [filler, ...Array.from({ length: count }, () => `${address} 100000`)].join("\n");
        const r = parseBatch(text, {
          resource: "ENERGY",
          baseUnitPriceSun: 60,
          amountMin: 1,
          amountMax: 200_000,
          tiers: [{ durationSec: 3600, label: "1h", unitPriceSun: 90 }],
        });
        if (count === 0) return r.fatal?.reason === "empty";
        if (count > MAX_BATCH_ITEMS) return r.fatal?.reason === "too_many_items" && r.fatal.count === count && r.fatal.max === MAX_BATCH_ITEMS;
        return r.fatal === undefined && r.items.length === count;
      }),
      // Each case parses up to 130 lines; 300 cases (never fewer) cover every count 0..130 several times over.
      fuzz("batch: counts", Math.max(300, scaledRuns(300))),
    );
  });

  it("never throws on any text; every item is valid and every line is reported at most once, in order", () => {
    const token = fc.oneof(
      pooledAddressArb,
      fc.stringMatching(/^\d{1,6}[kKm]?$/),
      fc.constantFrom("1h", "15m", "300", "address", '"', '""', "#", ",", ";", "\t", "65,000"),
      fc.string({ maxLength: 6 }),
    );
    const line = fc.tuple(fc.array(token, { maxLength: 5 }), fc.constantFrom(" ", ",", ";", "\t", "")).map(([t, d]) => t.join(d));
    const text = fc.oneof(
      fc.tuple(fc.array(line, { maxLength: 8 }), eolArb).map(([l, e]) => l.join(e)),
      binaryString({ maxLength: 200 }),
    );
    fc.assert(
      fc.property(pricingArb, text, fc.boolean(), (pricing, t, csv) => {
        const r = parseBatch(t, pricing, { csv });
        const lineCount = t.split(/\r\n|\n|\r/).length;
        const numbers = [...r.items.map((i) => i.line), ...r.errors.map((e) => e.line)].sort((a, b) => a - b);
        const validItems = r.items.every(
          (i) =>
            isValidTronAddress(i.toAddress) &&
            i.amount >= pricing.amountMin &&
            i.amount <= pricing.amountMax &&
            (i.durationSec === undefined || pricing.tiers.some((x) => x.durationSec === i.durationSec)),
        );
        const count = numbers.length;
        const fatalRight = count === 0 ? r.fatal?.reason === "empty" : count > MAX_BATCH_ITEMS ? r.fatal?.reason === "too_many_items" : r.fatal === undefined;
        return validItems && fatalRight && new Set(numbers).size === count && numbers.every((n) => n >= 1 && n <= lineCount);
      }),
      fuzz("batch: total"),
    );
  });
});
