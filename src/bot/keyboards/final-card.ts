import { InlineKeyboard } from "grammy";
import type { Broadcast, Order } from "../../platform/service/schemas.js";
import { rentAgainData } from "../callback-data/order.js";
import { trackRefreshData } from "../callback-data/orders.js";
import type { Links } from "../helpers/links.js";
import type { Translator } from "../helpers/record-text.js";
import { createResendKeyboard, reminderToggleButton } from "./reminder-keyboards.js";

const trackButton = (tr: Translator, kind: "o" | "b", id: string) => InlineKeyboard.text(tr.t("buttons-track"), trackRefreshData.pack({ kind, id }));

/**
 * Under a finished order, card and notification alike: Track (the card read
 * again), Rent again once it was fulfilled, the reminder switch while the
 * delegation lasts (`reminder` = scheduled or not), and the receiver on the
 * block explorer.
 */
export function createFinishedOrderKeyboard(
  tr: Translator,
  links: Links,
  order: Pick<Order, "orderId" | "receiver" | "status">,
  reminder?: boolean,
): InlineKeyboard {
  const kb = new InlineKeyboard().add(trackButton(tr, "o", order.orderId));
  if (order.status === "fulfilled") kb.text(tr.t("tracking-rent-again-button"), rentAgainData.pack({ orderId: order.orderId }));
  if (reminder !== undefined) {
    const button = reminderToggleButton(tr, order.orderId, reminder);
    kb.row().text(button.text, button.callback_data);
  }
  return kb.row().url(tr.t("buttons-explorer"), links.address(order.receiver));
}

/** Under a finished broadcast: Track, Resend while its transaction may still go, and the transaction on the explorer. */
export function createFinishedBroadcastKeyboard(
  tr: Translator,
  links: Links,
  broadcast: Pick<Broadcast, "broadcastId" | "txId">,
  resend: boolean,
): InlineKeyboard {
  const kb = new InlineKeyboard().add(trackButton(tr, "b", broadcast.broadcastId));
  if (resend) kb.add(...createResendKeyboard(tr, broadcast.broadcastId).inline_keyboard.flat());
  return kb.row().url(tr.t("buttons-explorer"), links.transaction(broadcast.txId));
}
