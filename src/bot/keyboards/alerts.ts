import { InlineKeyboard } from "grammy";
import { ALERT_SWITCHES, type AlertSettings } from "../../core/topup/alert-settings.js";
import { alertsData } from "../callback-data/alerts.js";
import type { ConversationContext } from "../context.js";

/** One switch per kind of balance news; each button shows the current state and flips it. */
export function createAlertsKeyboard(ctx: Pick<ConversationContext, "t">, settings: AlertSettings): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const kind of ALERT_SWITCHES) {
    const on = settings[kind];
    keyboard.text(ctx.t(`alerts-${kind}-${on ? "on" : "off"}`), alertsData.pack({ kind, value: on ? "off" : "on" })).row();
  }
  return keyboard;
}
