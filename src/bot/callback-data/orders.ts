import { createCallbackData } from "./create-callback-data.js";

/** /orders pages of the whole list (0-based), as buttons sent before the filters drew them; still answered. */
export const historyPageData = createCallbackData("hp", ["page"]);

/** /orders: a filter (`HISTORY_FILTERS`) and its 0-based page: `hl:<filter>:<page>`. */
export const historyListData = createCallbackData("hl", ["filter", "page"]);

/** a all, o orders, b broadcasts, m this month (in the chat's time zone). */
export const HISTORY_FILTERS = ["a", "o", "b", "m"] as const;
export type HistoryFilterCode = (typeof HISTORY_FILTERS)[number];
export const isHistoryFilterCode = (value: string | undefined): value is HistoryFilterCode => HISTORY_FILTERS.some((f) => f === value);

/** A history row's button: opens the live card of `hr:<o|b>:<id>`. */
export const historyRowData = createCallbackData("hr", ["kind", "id"]);

/** Refresh of a /track card: kind o (order) or b (broadcast). */
export const trackRefreshData = createCallbackData("tr", ["kind", "id"]);
