import { InlineKeyboard } from "grammy";
import { trackRefreshData } from "../callback-data/orders.js";
import type { Translator } from "../helpers/record-text.js";

/** The Track button the cards of orders and broadcasts carry, wherever they are drawn, to open a record's live card. */
export function createTrackRefreshKeyboard(tr: Translator, kind: "order" | "broadcast", id: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("track-refresh-button"), trackRefreshData.pack({ kind: kind === "order" ? "o" : "b", id }));
}
