import { InlineKeyboard } from "grammy";
import type { NotificationSettings } from "../../core/chats/chat-record.js";
import { settingsData } from "../callback-data/settings.js";
import type { ConversationContext } from "../context.js";

/** One switch per notification kind; each button shows the current state and flips it. `expiry`: the reminders' switch, when they exist. */
export function createSettingsKeyboard(ctx: Pick<ConversationContext, "t">, settings: NotificationSettings & { expiry?: boolean }): InlineKeyboard {
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
  return kb;
}
