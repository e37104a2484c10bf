import { InlineKeyboard } from "grammy";
import { ALERT_SWITCHES, type AlertSettings, type AlertSwitch } from "../../core/topup/alert-settings.js";
import { alertsData } from "../callback-data/alerts.js";
import type { ConversationContext } from "../context.js";

/** The switch's part of its message ids (`alerts-<part>-on`, …). */
export const ALERT_TEXT_ID: Record<AlertSwitch, string> = { deposits: "deposits", lowBalance: "low", foreignCharges: "foreign" };

/** One switch per kind of balance news; each button shows the current state and flips it. */
export function createAlertsKeyboard(ctx: Pick<ConversationContext, "t">, settings: AlertSettings): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const kind of ALERT_SWITCHES) {
    const on = settings[kind];
    if (kind !== ALERT_SWITCHES[0]) keyboard.row();
    keyboard.text(ctx.t(`alerts-${ALERT_TEXT_ID[kind]}-${on ? "on" : "off"}`), alertsData.pack({ kind, value: on ? "off" : "on" }));
  }
  return keyboard;
}
