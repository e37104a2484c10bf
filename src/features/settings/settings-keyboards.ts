import { InlineKeyboard } from "grammy";
import type { NotificationSettings } from "../../shared/chats/chat-record.js";
import { settingsData } from "../../bot/callback-data/settings.js";
import type { ConversationContext } from "../../bot/context.js";

/** The notification kinds, and the opt-ins the app has: `expiry` the reminders' switch, `keepDay` the keep plans' daily summary. */
export type SettingsSwitches = NotificationSettings & { expiry?: boolean; keepDay?: boolean };

/** One switch per notification kind; each button shows the current state and flips it. */
export function createSettingsKeyboard(ctx: Pick<ConversationContext, "t">, settings: SettingsSwitches): InlineKeyboard {
  const kb = new InlineKeyboard()
    .text(ctx.t(settings.orders ? "settings-orders-on" : "settings-orders-off"), settingsData.pack({ kind: "orders", value: settings.orders ? "off" : "on" }))
    .row()
    .text(
      ctx.t(settings.broadcasts ? "settings-broadcasts-on" : "settings-broadcasts-off"),
      settingsData.pack({ kind: "broadcasts", value: settings.broadcasts ? "off" : "on" }),
    );
  if (settings.expiry !== undefined) {
    kb.row().text(
      ctx.t(settings.expiry ? "expiry-settings-on" : "expiry-settings-off"),
      settingsData.pack({ kind: "expiry", value: settings.expiry ? "off" : "on" }),
    );
  }
  if (settings.keepDay !== undefined) {
    kb.row().text(
      ctx.t(settings.keepDay ? "settings-keep-day-on" : "settings-keep-day-off"),
      settingsData.pack({ kind: "keepday", value: settings.keepDay ? "off" : "on" }),
    );
  }
  return kb;
}
