/**
 * /orders and /track: the account's orders and broadcasts as a ledger (filters, pages, a row's button opening
 * its card) and a record's live card with Refresh. The history they read is shared domain in `core/orders`.
 */
export { createOrdersFeature } from "./orders-feature.js";
export { createTrackFeature } from "./track-feature.js";
// An /orders page drawn again, as the time-zone offer under it redraws it in the new zone.
export { createOrdersView } from "./orders-feature.js";
export { isHistoryFilterCode } from "./orders-callback-data.js";
// A ledger row's words, as the Mini App's History screen shows them too.
export { ledgerRowText } from "./ledger-texts.js";
// The Track button and its data, as the cards of orders and broadcasts elsewhere (the tracking notifier, finished cards,
// a pasted id) carry it to open the live card.
export { createTrackRefreshKeyboard } from "./orders-keyboards.js";
export { historyPageData, trackRefreshData } from "./orders-callback-data.js";
