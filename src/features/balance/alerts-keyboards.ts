import { InlineKeyboard } from "grammy";
import type { AlertSettings, AlertSwitch } from "../../shared/chats/alert-settings.js";
import { SUN_PER_TRX } from "../../shared/money.js";
import { alertsData } from "../../bot/callback-data/alerts.js";
import type { ConversationContext } from "../../bot/context.js";
import { formatTrx } from "../../bot/helpers/format.js";

/** The switch's part of its message ids (`alerts-<part>-on`, …). */
export const ALERT_TEXT_ID: Record<AlertSwitch, string> = { deposits: "deposits", lowBalance: "low", foreignCharges: "foreign" };

/** The switches drawn as on/off buttons; the low-balance alert is the threshold row's 🔕 Off instead. */
const SWITCH_BUTTONS = ["deposits", "foreignCharges"] as const;

/**
 * Low-balance thresholds one tap away, in whole TRX: the service's minimum deposit (10 TRX) and the
 * balances that cover from a few orders to a day of busy keep-charged renewals.
 */
const THRESHOLD_PRESETS_TRX = [10, 25, 50, 100, 250] as const;

/** The values of `alerts:threshold:<value>` besides a preset's TRX. */
export const THRESHOLD_DEFAULT = "default";
export const THRESHOLD_CUSTOM = "custom";

/**
 * The two switches (each shows its state and flips it), then the low-balance alert as one choice: the
 * default threshold, the presets, ✏️ another amount (typed) or 🔕 Off, the current one marked.
 */
export function createAlertsKeyboard(ctx: Pick<ConversationContext, "t">, settings: AlertSettings, locale: string): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const kind of SWITCH_BUTTONS) {
    const on = settings[kind];
    keyboard.text(ctx.t(`alerts-${ALERT_TEXT_ID[kind]}-${on ? "on" : "off"}`), alertsData.pack({ kind, value: on ? "off" : "on" })).row();
  }
  const own = settings.lowBalance ? settings.thresholdSun : undefined;
  const marked = (chosen: boolean, label: string) => (chosen ? ctx.t("alerts-threshold-chosen", { label }) : label);
  const choices = [
    { value: THRESHOLD_DEFAULT, label: marked(settings.lowBalance && own === undefined, ctx.t("alerts-threshold-default-button")) },
    ...THRESHOLD_PRESETS_TRX.map((trx) => ({
      value: String(trx),
      label: marked(own === String(BigInt(trx) * SUN_PER_TRX), ctx.t("alerts-threshold-button", { thresholdTrx: String(trx) })),
    })),
  ];
  choices.forEach(({ value, label }, i) => {
    keyboard.text(label, alertsData.pack({ kind: "threshold", value }));
    if (i % 3 === 2 && i < choices.length - 1) keyboard.row();
  });
  const isPreset = own !== undefined && THRESHOLD_PRESETS_TRX.some((trx) => String(BigInt(trx) * SUN_PER_TRX) === own);
  const custom =
    own === undefined || isPreset
      ? ctx.t("alerts-threshold-custom-button")
      : marked(true, ctx.t("alerts-threshold-custom-own", { thresholdTrx: formatTrx(BigInt(own), locale) }));
  return keyboard
    .row()
    .text(custom, alertsData.pack({ kind: "threshold", value: THRESHOLD_CUSTOM }))
    .text(marked(!settings.lowBalance, ctx.t("alerts-low-off-button")), alertsData.pack({ kind: "lowBalance", value: "off" }));
}
