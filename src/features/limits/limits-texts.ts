import type { SpendRefusal, SpendStatus } from "../../shared/limits/spend-guard.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { zoneName } from "../../shared/limits/zone-input.js";

/** What is left under a cap (never below 0). */
function left(capSun: bigint, spentSun: bigint): bigint {
  return capSun > spentSun ? capSun - spentSun : 0n;
}

/** The /limits card: caps with what was spent and what is left, the threshold, the zone, Freeze. */
export function limitsCardText(tr: Translator, status: SpendStatus, locale: string): string {
  const { settings, spent } = status;
  const cap = (capSun: string | undefined, spentSun: bigint): string =>
    capSun === undefined
      ? tr.t("limits-none")
      : tr.t("limits-cap-value", { capTrx: formatTrx(BigInt(capSun), locale), leftTrx: formatTrx(left(BigInt(capSun), spentSun), locale) });
  const threshold =
    settings.confirmAboveSun === undefined
      ? tr.t("limits-none")
      : tr.t("limits-threshold-value", { thresholdTrx: formatTrx(BigInt(settings.confirmAboveSun), locale) });
  return [
    translate(tr, "limits-title"),
    [
      translate(tr, "limits-daily", { cap: cap(settings.dailyCapSun, spent.daySun), spentTrx: formatTrx(spent.daySun, locale) }),
      translate(tr, "limits-monthly", { cap: cap(settings.monthlyCapSun, spent.monthSun), spentTrx: formatTrx(spent.monthSun, locale) }),
      translate(tr, "limits-threshold", { threshold }),
      translate(tr, "limits-zone", { zone: zoneName(status.timeZone) }),
    ].join("\n"),
    translate(tr, settings.frozen ? "limits-frozen" : "limits-active"),
    translate(tr, "limits-scope"),
  ].join("\n\n");
}

/** Why the limits refused a charge, with the cap, what was spent, what is left and the cost, in exact TRX. */
export function limitRefusalText(tr: Translator, refusal: SpendRefusal, costSun: bigint, locale: string): string {
  if (refusal.reason === "frozen") return translate(tr, "limits-refused-frozen");
  const capSun = BigInt(refusal.capSun ?? "0");
  const spentSun = BigInt(refusal.spentSun ?? "0");
  const vars = {
    capTrx: formatTrx(capSun, locale),
    spentTrx: formatTrx(spentSun, locale),
    leftTrx: formatTrx(left(capSun, spentSun), locale),
    costTrx: formatTrx(costSun, locale),
  };
  return [translate(tr, refusal.reason === "daily_cap" ? "limits-refused-daily" : "limits-refused-monthly", vars), translate(tr, "limits-refused-hint")].join(
    "\n",
  );
}
