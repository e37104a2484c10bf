import { LABEL_MAX_LENGTH, LABELLED_LIMIT, type AddressBookRefusal } from "../../shared/address-book.js";
import { echo } from "./echo.js";
import { code, translate } from "./html.js";
import type { Translator } from "./record-text.js";
import type { SpendRefusal } from "../../shared/limits/spend-guard.js";
import { formatTrx } from "./format.js";
import { MIN_DEPOSIT_SUN, type TopUpAdvice } from "../../shared/orders/top-up-advice.js";

/** The words of a refusal every spending feature shows: a balance that falls short, a limit, an address book that is full. */

type ShortAdvice = Extract<TopUpAdvice, { covered: false }>;

/**
 * How much to send and where, for a balance that falls short: the amount is
 * never below the minimum deposit, and when the floor raised it the user is
 * told why (otherwise "send 10 TRX" for a 1 TRX shortfall looks like a bug).
 */
export function topUpAdviceText(tr: Translator, advice: ShortAdvice, depositAddress: string | null, locale: string): string {
  if (depositAddress === null) return translate(tr, "topup-no-address");
  const lines = [translate(tr, "topup-send", { sendTrx: formatTrx(advice.sendSun, locale), address: code(depositAddress) })];
  if (advice.shortfallSun < MIN_DEPOSIT_SUN) {
    lines.push(
      translate(tr, "topup-minimum-note", { minDepositTrx: formatTrx(MIN_DEPOSIT_SUN, locale), shortfallTrx: formatTrx(advice.shortfallSun, locale) }),
    );
  }
  return lines.join("\n");
}

/** Why the limits refused a charge, with the cap, what was spent, what is left and the cost, in exact TRX. */
export function limitRefusalText(tr: Translator, refusal: SpendRefusal, costSun: bigint, locale: string): string {
  if (refusal.reason === "frozen") return translate(tr, "limits-refused-frozen");
  const capSun = BigInt(refusal.capSun ?? "0");
  const spentSun = BigInt(refusal.spentSun ?? "0");
  const vars = {
    capTrx: formatTrx(capSun, locale),
    spentTrx: formatTrx(spentSun, locale),
    leftTrx: formatTrx(leftUnderCap(capSun, spentSun), locale),
    costTrx: formatTrx(costSun, locale),
  };
  return [translate(tr, refusal.reason === "daily_cap" ? "limits-refused-daily" : "limits-refused-monthly", vars), translate(tr, "limits-refused-hint")].join(
    "\n",
  );
}

/** Why the book refused an address or label, naming what was typed. */
export function addressBookRefusalText(tr: Translator, reason: AddressBookRefusal, typed: string): string {
  return translate(tr, `addresses-refused-${reason.replace(/_/g, "-")}`, { value: echo(typed), max: LABEL_MAX_LENGTH, limit: LABELLED_LIMIT });
}

/** What is left under a cap (never below 0). */
export function leftUnderCap(capSun: bigint, spentSun: bigint): bigint {
  return capSun > spentSun ? capSun - spentSun : 0n;
}
