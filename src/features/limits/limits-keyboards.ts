import { InlineKeyboard } from "grammy";
import type { LimitSettings } from "../../shared/limits/limit-settings.js";
import { SUN_PER_TRX } from "../../shared/money.js";
import { limitPresetData, limitsData, type LimitAmountInput } from "../../bot/callback-data/limits.js";
import { formatTrx } from "../../bot/helpers/format.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** A button per setting, then Freeze or Unfreeze (whichever changes something). */
export function createLimitsKeyboard(tr: Translator, settings: LimitSettings): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("limits-daily-button"), limitsData.pack({ action: "d" }))
    .text(tr.t("limits-monthly-button"), limitsData.pack({ action: "m" }))
    .row()
    .text(tr.t("limits-threshold-button"), limitsData.pack({ action: "t" }))
    .text(tr.t("limits-zone-button"), limitsData.pack({ action: "z" }))
    .row()
    .text(tr.t(settings.frozen ? "limits-unfreeze-button" : "limits-freeze-button"), limitsData.pack({ action: settings.frozen ? "u" : "f" }));
}

/**
 * The amounts one tap away, in whole TRX: a day of a few orders to a busy one; a month of them; and
 * for the second tap, from a single large order up.
 */
export const LIMIT_PRESETS_TRX: Record<LimitAmountInput, readonly number[]> = {
  d: [10, 25, 50, 100, 250, 500],
  m: [100, 250, 500, 1_000, 2_500, 5_000],
  t: [5, 10, 25, 50, 100, 250],
};

/** The choices for one amount, drawn on the card: the presets three a row (the one in force marked), ✏️ Custom, No limit, ◀️ Back. */
export function createLimitPresetsKeyboard(tr: Translator, input: LimitAmountInput, currentSun: string | undefined, locale: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  const presets = LIMIT_PRESETS_TRX[input];
  presets.forEach((trx, i) => {
    const sun = BigInt(trx) * SUN_PER_TRX;
    const label = tr.t("limits-preset-button", { amountTrx: formatTrx(sun, locale) });
    kb.text(currentSun === sun.toString() ? tr.t("limits-preset-chosen", { label }) : label, limitPresetData.pack({ input, value: trx }));
    if (i % 3 === 2 && i < presets.length - 1) kb.row();
  });
  return kb
    .row()
    .text(tr.t("limits-custom-button"), limitPresetData.pack({ input, value: "c" }))
    .text(tr.t(currentSun === undefined ? "limits-no-limit-chosen" : "limits-clear-button"), limitPresetData.pack({ input, value: "x" }))
    .row()
    .text(tr.t("buttons-back"), limitsData.pack({ action: "b" }));
}
