import type { SpendStatus } from "../../shared/limits/spend-guard.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { zoneName } from "../../shared/limits/zone-input.js";
import { leftUnderCap } from "../../bot/helpers/refusal-texts.js";

/** The /limits card: caps with what was spent and what is left, the threshold, the zone, Freeze. */
export function limitsCardText(tr: Translator, status: SpendStatus, locale: string): string {
  const { settings, spent } = status;
  const cap = (capSun: string | undefined, spentSun: bigint): string =>
    capSun === undefined
      ? tr.t("limits-none")
      : tr.t("limits-cap-value", { capTrx: formatTrx(BigInt(capSun), locale), leftTrx: formatTrx(leftUnderCap(BigInt(capSun), spentSun), locale) });
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
