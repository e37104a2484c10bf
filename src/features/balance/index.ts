/**
 * /balance, /top-up and /alerts: the account's balance, how to top it up, and the low-balance and deposit
 * alerts. The app builds the balance watch of linked chats with `createBalanceModule` (docs/balance-watch.md);
 * the bot lists the commands. It also waits for a top-up: the watcher a short quote or a refused broadcast starts
 * (`top-up-watcher.ts`); how much to send is shared domain (`shared/orders/top-up-advice.ts`).
 */
export { createBalanceModule, type BalanceModule, type BalanceModuleDeps } from "./balance-module.js";
export { createBalanceFeature } from "./balance-feature.js";
export { createTopUpFeature } from "./top-up-feature.js";
export { createAlertsFeature } from "./alerts-feature.js";
// The chat's alert settings, as the bot's deps carry them, and the level the low-balance alert fires at (the home card shows it).
// A credited top-up, told in the chat that waited for it (the delivery layer sends it through the push queue).
export { createTopUpNotifier, type TopUpNotifier } from "./top-up-notifier.js";
// The watch of a quote or draft the balance cannot cover yet: order and broadcast start it, /balance lists it.
export { type BalanceWatcher } from "./top-up-watcher.js";
// A balance that falls short, wherever it is shown (quotes, broadcasts, keep-charged renewals): the words, and the button that opens the top-up.
// The deep link from an inline quote the balance cannot cover into the private chat's top-up.
// A QR code as a PNG, drawn the same way for a deposit address and for a signing link.
