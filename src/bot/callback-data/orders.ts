import { createCallbackData } from "./create-callback-data.js";

/** /orders pages (0-based). */
export const historyPageData = createCallbackData("hp", ["page"]);

/** Refresh of a /track card: kind o (order) or b (broadcast). */
export const trackRefreshData = createCallbackData("tr", ["kind", "id"]);
