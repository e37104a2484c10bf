import type { I18nFlavor } from "../i18n.js";
import { echo } from "./echo.js";
import { formatInteger } from "./format.js";
import { translate } from "./html.js";

/**
 * The refusal of an amount the locale makes ambiguous ("65,000" in ru: 65 000
 * or 65), naming both readings in the locale's own grouping, each of which
 * the parser accepts as typed.
 */
export function ambiguousAmountText(
  ctx: Pick<I18nFlavor, "t">,
  value: string,
  readings: readonly [number, number],
  locale: string,
  id: "input-amount-ambiguous" | "input-amount-ambiguous-reason" = "input-amount-ambiguous",
): string {
  return translate(ctx, id, { value: echo(value), first: formatInteger(readings[0], locale), second: formatInteger(readings[1], locale) });
}
