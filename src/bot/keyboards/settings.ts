import { InlineKeyboard } from "grammy";
import type { NotificationSettings } from "../../core/chats/chat-record.js";
import { settingsData } from "../callback-data/settings.js";
import type { ConversationContext } from "../context.js";

/** One switch per notification kind; each button shows the current state and flips it. */
export function createSettingsKeyboard(ctx: Pick<ConversationContext, "t">, settings: NotificationSettings): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t(settings.orders ? "settings-orders-on" : "settings-orders-off"), settingsData.pack({ kind: "orders", value: settings.orders ? "off" : "on" }))
    .row()
    .text(
      ctx.t(settings.broadcasts ? "settings-broadcasts-on" : "settings-broadcasts-off"),
      settingsData.pack({ kind: "broadcasts", value: settings.broadcasts ? "off" : "on" }),
    );
}
