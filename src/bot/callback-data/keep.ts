import { createCallbackData } from "./create-callback-data.js";

/** c confirm a draft, x drop a draft, p pause, r resume, s stop, l redraw the list, v redraw a plan's card. */
export const keepData = createCallbackData("keep", ["action", "id"]);

/** "Keep this order's receiver charged" (same amount and duration), drawn by other features under an order. */
export const keepOrderData = createCallbackData("keep-order", ["orderId"]);
