import { InlineKeyboard } from "grammy";
import { historyPageData, trackRefreshData } from "../callback-data/orders.js";
import type { Translator } from "../helpers/record-text.js";

/** Newer on the left, older on the right; page 0 is the newest. */
export function createHistoryKeyboard(tr: Translator, page: number, pages: number): InlineKeyboard | undefined {
  if (pages <= 1) return undefined;
  const kb = new InlineKeyboard();
  if (page > 0) kb.text(tr.t("orders-newer-button"), historyPageData.pack({ page: page - 1 }));
  if (page < pages - 1) kb.text(tr.t("orders-older-button"), historyPageData.pack({ page: page + 1 }));
  return kb;
}

export function createTrackRefreshKeyboard(tr: Translator, kind: "order" | "broadcast", id: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("track-refresh-button"), trackRefreshData.pack({ kind: kind === "order" ? "o" : "b", id }));
}
