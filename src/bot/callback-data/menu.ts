import { createCallbackData } from "./create-callback-data.js";

/**
 * The main actions as buttons (/start, and /balance's Order and Top up):
 * `menu:<action>`. Each action is handled by the feature that owns its
 * command, with the command's own handler.
 */
export const MENU_ACTIONS = ["balance", "order", "prices", "orders", "topup", "broadcast", "settings", "help", "language", "send", "keep"] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

export const menuData = createCallbackData("menu", ["action"]);

/** Matches exactly one action's button: `feature.callbackQuery(menuAction("balance"), …)`. */
export function menuAction(action: MenuAction): RegExp {
  return new RegExp(`^${menuData.pack({ action })}$`);
}

/** ◀️ Home: the message it is on becomes the home card again (features/home.ts). */
export const homeData = createCallbackData("home", []);

/** /balance's Refresh: the same message, read again. */
export const balanceRefreshData = createCallbackData("balance", ["action"]);

/** /prices' "Order this": the guided order with the tier's duration already chosen. */
export const orderTierData = createCallbackData("ot", ["durationSec"]);
