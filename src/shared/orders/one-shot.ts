import { readEnergyAmount } from "../energy-amount.js";
import { parseEnergyAmount } from "../money.js";
import type { Pricing, PricingTier } from "../../platform/service/schemas.js";
import { trailingDurations } from "./duration-input.js";
import { checkAmount, resolveTier } from "./order-input.js";

/**
 * `/order <receiver> <amount> [duration]` typed in one line. The receiver is
 * an address or a saved label, and labels may contain spaces ("bob wallet"),
 * so the line is read from the end: the last token may be a duration, the
 * one to three before it the amount ("70 000" is one amount), and everything
 * before that the receiver. A duration may be several words ("1 час", "1 000 с"). The first split whose receiver resolves and whose
 * amount is accepted wins; if none is accepted, the first refusal is named.
 */

export type OneShotParse =
  | { ok: true; address: string; amount: number; durationSec: number | undefined }
  | { ok: false; reason: "usage" }
  | { ok: false; reason: "bad_receiver"; value: string }
  /** `readings` when the locale makes the amount ambiguous ("65,000" in ru). */
  | { ok: false; reason: "bad_amount"; value: string; readings?: [number, number] }
  | { ok: false; reason: "amount_out_of_range"; value: string; min: number; max: number }
  | { ok: false; reason: "bad_duration"; value: string };

/** Address or saved label → address; undefined when it is neither. */
export type ReceiverResolver = (text: string) => Promise<string | undefined>;

/** Grouped amounts are at most "1 000 000": three tokens. */
const MAX_AMOUNT_TOKENS = 3;

/** `locale` decides how a comma in the amount reads (energy-amount.ts). */
export async function parseOneShotOrder(text: string, pricing: Pricing, resolveReceiver: ReceiverResolver, locale?: string): Promise<OneShotParse> {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return { ok: false, reason: "usage" };
  // Where the amount may end, and the tier named after it: one word, two words, or none.
  const ends: { end: number; tier: PricingTier | undefined }[] = [];
  const oneWord = resolveTier(tokens.at(-1)!, pricing.tiers);
  if (oneWord) ends.push({ end: tokens.length - 1, tier: oneWord });
  // Receiver and amount need at least two words before a duration of several.
  for (const d of trailingDurations(tokens.slice(2))) {
    const tier = resolveTier(d.text, pricing.tiers);
    if (tier) ends.push({ end: tokens.length - d.words, tier });
  }
  ends.push({ end: tokens.length, tier: undefined });
  // "70 300" with a 300 s tier reads first as 70 for 5 minutes; when that amount is refused,
  // the other splits still get their turn, and the first refusal is reported only if none fits.
  let refused: OneShotParse | undefined;
  for (const { end, tier } of ends) {
    for (let n = 1; n <= MAX_AMOUNT_TOKENS; n += 1) {
      const start = end - n;
      if (start < 1) break;
      const amountText = tokens.slice(start, end).join(" ");
      if (parseEnergyAmount(amountText, locale) === undefined) continue;
      const address = await resolveReceiver(tokens.slice(0, start).join(" "));
      if (address === undefined) continue;
      const amount = checkAmount(amountText, pricing, locale);
      if (!amount.ok) {
        refused ??=
          amount.reason === "bad_amount"
            ? { ok: false, reason: "bad_amount", value: amountText }
            : { ok: false, reason: "amount_out_of_range", value: amountText, min: amount.min, max: amount.max };
        continue;
      }
      return { ok: true, address, amount: amount.amount, durationSec: tier?.durationSec };
    }
  }
  return refused ?? diagnose(tokens, resolveReceiver, locale);
}

/** How many leading words (up to three: "70 000", "1.5 k") form one amount; 0 when none do. */
function amountWords(words: readonly string[], locale: string | undefined): number {
  for (let n = Math.min(MAX_AMOUNT_TOKENS, words.length); n >= 1; n -= 1) {
    if (parseEnergyAmount(words.slice(0, n).join(" "), locale) !== undefined) return n;
  }
  return 0;
}

/** The leading words that the locale makes an ambiguous amount ("65,000" in ru), with both readings. */
function ambiguousAmount(words: readonly string[], locale: string | undefined): { value: string; readings: [number, number] } | undefined {
  for (let n = Math.min(MAX_AMOUNT_TOKENS, words.length); n >= 1; n -= 1) {
    const value = words.slice(0, n).join(" ");
    const read = readEnergyAmount(value, locale);
    if (!read.ok && read.reason === "ambiguous") return { value, readings: read.readings };
  }
  return undefined;
}

/** No split worked: name the one part that is wrong, judged from the longest receiver that resolves. */
async function diagnose(tokens: readonly string[], resolveReceiver: ReceiverResolver, locale: string | undefined): Promise<OneShotParse> {
  for (let k = tokens.length; k >= 1; k -= 1) {
    if ((await resolveReceiver(tokens.slice(0, k).join(" "))) === undefined) continue;
    const rest = tokens.slice(k);
    if (rest.length === 0) return { ok: false, reason: "usage" };
    const n = amountWords(rest, locale);
    if (n === 0) {
      const ambiguous = ambiguousAmount(rest, locale);
      return ambiguous ? { ok: false, reason: "bad_amount", ...ambiguous } : { ok: false, reason: "bad_amount", value: rest[0]! };
    }
    // An amount followed by one more word, or by two that name a duration: that was meant as the duration.
    if (rest.length === n + 1) return { ok: false, reason: "bad_duration", value: rest[n]! };
    const duration = trailingDurations(rest.slice(n)).find((d) => d.words === rest.length - n);
    if (duration) return { ok: false, reason: "bad_duration", value: duration.text };
    return { ok: false, reason: "usage" };
  }
  // Nothing resolves: the receiver is the part before the first amount-looking word(s).
  const firstAmount = tokens.findIndex((_, i) => i > 0 && amountWords(tokens.slice(i), locale) > 0);
  const receiver = tokens.slice(0, firstAmount > 0 ? firstAmount : 1).join(" ");
  return { ok: false, reason: "bad_receiver", value: receiver };
}
