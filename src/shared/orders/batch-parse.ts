import { parseEnergyAmount } from "../money.js";
import { isValidTronAddress } from "../tron/index.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { trailingDurations } from "./duration-input.js";
import { checkAmount, resolveTier } from "./order-input.js";

/**
 * Batch orders from pasted lines (`address amount [duration]`) or a CSV
 * document. Every line is checked and every bad one reported with its
 * number before anything is sent, because the API batch is all-or-nothing.
 */

/** The API's limit of items per request (service-api.md section 8). */
export const MAX_BATCH_ITEMS = 100;

export type BatchLineError =
  | { line: number; reason: "bad_address"; value: string }
  | { line: number; reason: "missing_amount" }
  /** `readings` when the locale makes the amount ambiguous ("65,000" in ru: 65 000 or 65). */
  | { line: number; reason: "bad_amount"; value: string; readings?: [number, number] }
  | { line: number; reason: "amount_out_of_range"; value: string; min: number; max: number }
  | { line: number; reason: "bad_duration"; value: string }
  | { line: number; reason: "too_many_fields" }
  /** One of the bot's token contracts: not a wallet, the service would refuse the whole batch. */
  | { line: number; reason: "contract"; value: string };

export interface BatchItem {
  line: number;
  toAddress: string;
  amount: number;
  /** Undefined when the line gave none: the flow asks once for all of them. */
  durationSec: number | undefined;
}

export interface BatchParse {
  items: BatchItem[];
  errors: BatchLineError[];
  /** Set when the batch as a whole cannot be sent. */
  fatal?: { reason: "empty" } | { reason: "too_many_items"; count: number; max: number };
}

type Delimiter = "," | ";" | "\t" | "whitespace";

/** Splits one CSV record, honouring double quotes ("65,000" stays one field). */
function splitCsv(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        current += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      fields.push(current);
      current = "";
    } else current += c;
  }
  fields.push(current);
  return fields.map((f) => f.trim());
}

function split(line: string, delimiter: Delimiter): string[] {
  if (delimiter === "whitespace") return line.trim().split(/\s+/).filter(Boolean);
  const fields = splitCsv(line, delimiter);
  // Trailing empty cells from spreadsheet exports carry nothing.
  while (fields.length > 0 && fields.at(-1) === "") fields.pop();
  return fields;
}

function detectDelimiter(lines: readonly string[], csv: boolean): Delimiter {
  const sample = lines.find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "";
  if (sample.includes("\t")) return "\t";
  if (sample.includes(";")) return ";";
  // Pasted text is whitespace-separated; commas there are thousands separators.
  if (csv || /^\s*\S+\s*,/.test(sample)) return ",";
  return "whitespace";
}

/** Base58 text as long as an address: a mistyped address (even one without digits), never a column name. */
const ADDRESS_SHAPED = /^[1-9A-HJ-NP-Za-km-z]{25,}$/;

/** A header names its columns in words; a mistyped address that happens to contain "to" is a bad line, not a header. */
function isHeader(fields: readonly string[]): boolean {
  const first = fields[0] ?? "";
  return /^[\p{L}\s_-]+$/u.test(first) && !ADDRESS_SHAPED.test(first) && /address|receiver|recipient|wallet|to/i.test(first);
}

type LineResult = { item: BatchItem } | { error: BatchLineError };

function parseFields(line: number, fields: string[], pricing: Pricing, delimiter: Delimiter, locale: string | undefined): LineResult {
  const [address = "", ...rest] = fields;
  if (!isValidTronAddress(address)) return { error: { line, reason: "bad_address", value: address } };
  if (rest.length === 0) return { error: { line, reason: "missing_amount" } };
  // A grouped amount may itself be split by the delimiter ("70 000", "65,000" unquoted).
  const sep = delimiter === "whitespace" ? " " : delimiter;
  const last = rest.at(-1)!;
  let tier = rest.length >= 2 ? resolveTier(last, pricing.tiers) : undefined;
  // A duration of several words ("1 час", "1 000 с") when the fields are split by spaces; the amount keeps at least one.
  const durations = delimiter === "whitespace" ? trailingDurations(rest.slice(1)) : [];
  let durationWords = tier ? 1 : 0;
  for (const d of tier ? [] : durations) {
    tier = resolveTier(d.text, pricing.tiers);
    if (tier) {
      durationWords = d.words;
      break;
    }
  }
  const amountParts = rest.slice(0, rest.length - durationWords);
  let amountText = amountParts[0]!;
  if (amountParts.length > 1) {
    const joined = amountParts.join(sep);
    if (parseEnergyAmount(joined, locale) === undefined) {
      // An amount (of one or more parts) and then words naming a duration: they were meant as the duration.
      const meant = durations.find((d) => parseEnergyAmount(rest.slice(0, -d.words).join(sep), locale) !== undefined);
      if (meant) return { error: { line, reason: "bad_duration", value: meant.text } };
      if (rest.length === 2 || parseEnergyAmount(rest.slice(0, -1).join(sep), locale) !== undefined)
        return { error: { line, reason: "bad_duration", value: last } };
      return { error: { line, reason: "too_many_fields" } };
    }
    amountText = joined;
  }
  let amount = checkAmount(amountText, pricing, locale);
  // "70 300" with a 300 s tier: when 70 is refused, 70,300 without a duration may still be an order.
  const whole = tier && !amount.ok ? checkAmount(rest.join(sep), pricing, locale) : undefined;
  if (whole?.ok) {
    tier = undefined;
    amount = whole;
    amountText = rest.join(sep);
  }
  if (!amount.ok) {
    return amount.reason === "bad_amount"
      ? { error: { line, reason: "bad_amount", value: amountText, ...(amount.readings ? { readings: amount.readings } : {}) } }
      : { error: { line, reason: "amount_out_of_range", value: amountText, min: amount.min, max: amount.max } };
  }
  return { item: { line, toAddress: address, amount: amount.amount, durationSec: tier?.durationSec } };
}

/**
 * Parses `text`; `csv` marks a document (comma is then the default
 * delimiter); `locale` decides how a comma in an amount reads (energy-amount.ts).
 * Line numbers are 1-based positions in the text as given.
 */
export interface BatchParseOptions {
  csv?: boolean;
  locale?: string;
  /** Address book labels, lower case → address: a line may name its receiver by label. */
  labels?: ReadonlyMap<string, string>;
}

/** Lower-cased label → address, the form `parseBatch` looks labels up in. */
export function labelIndex(entries: readonly { address: string; label?: string | undefined }[]): Map<string, string> {
  return new Map(entries.flatMap((e) => (e.label === undefined ? [] : [[e.label.toLowerCase(), e.address] as const])));
}

/** The fields with a leading label (of one or more words, longest first) replaced by its address. */
function withLabelResolved(fields: string[], labels: ReadonlyMap<string, string> | undefined): string[] {
  if (!labels || labels.size === 0 || isValidTronAddress(fields[0] ?? "")) return fields;
  for (let words = fields.length - 1; words >= 1; words -= 1) {
    const address = labels.get(fields.slice(0, words).join(" ").replace(/\s+/g, " ").toLowerCase());
    if (address !== undefined) return [address, ...fields.slice(words)];
  }
  return fields;
}

export function parseBatch(text: string, pricing: Pricing, options: BatchParseOptions = {}): BatchParse {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const delimiter = detectDelimiter(lines, options.csv ?? false);
  const items: BatchItem[] = [];
  const errors: BatchLineError[] = [];
  let sawData = false;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const fields = split(trimmed, delimiter);
    if (fields.length === 0) return;
    if (!sawData && isHeader(fields) && withLabelResolved(fields, options.labels) === fields) {
      sawData = true;
      return;
    }
    sawData = true;
    const result = parseFields(index + 1, withLabelResolved(fields, options.labels), pricing, delimiter, options.locale);
    if ("item" in result) items.push(result.item);
    else errors.push(result.error);
  });
  const count = items.length + errors.length;
  if (count === 0) return { items, errors, fatal: { reason: "empty" } };
  if (count > MAX_BATCH_ITEMS) return { items, errors, fatal: { reason: "too_many_items", count, max: MAX_BATCH_ITEMS } };
  return { items, errors };
}

/** The parse with every line whose receiver is a known contract refused, before anything is quoted. */
export function refuseContractLines(parsed: BatchParse, knownContracts: readonly string[]): BatchParse {
  const contracts = parsed.items.filter((i) => knownContracts.includes(i.toAddress));
  if (contracts.length === 0) return parsed;
  const errors = [...parsed.errors, ...contracts.map((i) => ({ line: i.line, reason: "contract" as const, value: i.toAddress }))].sort(
    (a, b) => a.line - b.line,
  );
  return { ...parsed, items: parsed.items.filter((i) => !knownContracts.includes(i.toAddress)), errors };
}
