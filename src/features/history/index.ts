/**
 * /orders and /track: the account's orders and broadcasts as a ledger (filters, pages, a row's button opening
 * its card) and a record's live card with Refresh, kept current by the tracking module as the record moves. The
 * history they read and the tracker are shared domain (`shared/orders`, `shared/tracking`).
 */
export { createOrdersFeature } from "./orders-feature.js";
export { createTrackFeature } from "./track-feature.js";
// The tracker with the notifier that draws its changes on the cards: built by the app once.
export { createTrackingModule, type TrackingModule, type TrackingModuleDeps } from "./tracking-module.js";
// An /orders page drawn again, as the time-zone offer under it redraws it in the new zone.
export { createOrdersView } from "./orders-feature.js";
// A ledger row's words, as the Mini App's History screen shows them too.
export { ledgerRowText } from "./ledger-texts.js";
// The Track button and its data, as the cards of orders and broadcasts elsewhere (the tracking notifier, finished cards,
// a pasted id) carry it to open the live card.
