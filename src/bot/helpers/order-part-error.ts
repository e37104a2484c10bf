import type { OneShotParse } from "../../shared/orders/one-shot.js";
import { ambiguousAmountText } from "./amount-text.js";
import { echo } from "./echo.js";
import { formatInteger } from "./format.js";
import { translate } from "./html.js";
import type { Translator } from "./record-text.js";

/** The parts of an order a one-line command names (receiver, amount, duration): what /order and /keep refuse alike. */
export type OrderPartError = Extract<OneShotParse, { reason: "bad_receiver" | "bad_amount" | "amount_out_of_range" | "bad_duration" }>;

/** The one wrong part of a one-line order, named; undefined for what is not about one part (usage). */
export function orderPartErrorText(ctx: Translator, e: OrderPartError | { reason: string }, durations: string, locale: string): string | undefined {
  if (!isOrderPartError(e)) return undefined;
  switch (e.reason) {
    case "bad_receiver":
      return translate(ctx, "order-oneshot-bad-receiver", { value: echo(e.value) });
    case "bad_amount":
      if (e.readings) return ambiguousAmountText(ctx, e.value, e.readings, locale);
      return translate(ctx, "order-oneshot-bad-amount", { value: echo(e.value) });
    case "amount_out_of_range":
      return translate(ctx, "order-oneshot-amount-range", { value: echo(e.value), min: formatInteger(e.min, locale), max: formatInteger(e.max, locale) });
    case "bad_duration":
      return translate(ctx, "order-oneshot-bad-duration", { value: echo(e.value), durations });
  }
}

const PART_REASONS: ReadonlySet<string> = new Set(["bad_receiver", "bad_amount", "amount_out_of_range", "bad_duration"]);

function isOrderPartError(e: { reason: string }): e is OrderPartError {
  return PART_REASONS.has(e.reason);
}
