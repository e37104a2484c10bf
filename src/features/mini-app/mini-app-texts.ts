import { SUPPORTED_LOCALES } from "../../config.js";
import type { Translations } from "../../bot/i18n.js";

/**
 * The app's words (locales/<lang>/mini-app.ftl), rendered by the server in the caller's language and handed
 * to the page as plain strings; `{name}` marks what the page fills in itself.
 */
const APP_TEXTS: Record<string, Record<string, string>> = {
  "mini-app-title": {},
  "mini-app-balance": {},
  "mini-app-balance-unavailable": {},
  "mini-app-deposit": {},
  "mini-app-history": {},
  "mini-app-filter-all": {},
  "mini-app-filter-orders": {},
  "mini-app-filter-broadcasts": {},
  "mini-app-filter-month": {},
  "mini-app-page": { page: "{page}", pages: "{pages}", total: "{total}" },
  "mini-app-newer": {},
  "mini-app-older": {},
  "mini-app-empty": {},
  "mini-app-empty-filtered": {},
  "mini-app-explorer": {},
  "mini-app-export": {},
  "mini-app-export-month": {},
  "mini-app-export-empty": { month: "{month}" },
  "mini-app-exact-sun": { sun: "{sun}" },
  "mini-app-not-linked": {},
  "mini-app-failed": {},
  "mini-app-retry": {},
  "mini-app-back": {},
  "mini-app-tab-order": {},
  "mini-app-order-receiver": {},
  "mini-app-order-receiver-paste": {},
  "mini-app-order-amount": {},
  "mini-app-order-duration": {},
  "mini-app-order-tier": { duration: "{duration}", total: "{total}" },
  "mini-app-order-get-quote": {},
  "mini-app-order-quote": { amount: "{amount}", duration: "{duration}", receiver: "{receiver}", total: "{total}" },
  "mini-app-order-balance-after": { balance: "{balance}" },
  "mini-app-order-confirm": {},
  "mini-app-order-confirm-again": {},
  "mini-app-save": {},
  "mini-app-tab-spend": {},
  "mini-app-tab-limits": {},
  "mini-app-tab-addresses": {},
  "mini-app-tab-keep": {},
  "mini-app-spend-prev": {},
  "mini-app-spend-next": {},
  "mini-app-spend-tap": {},
  "mini-app-spend-day": { day: "{day}", month: "{month}", total: "{total}" },
  "mini-app-spend-day-empty": {},
  "mini-app-limits-zone": { zone: "{zone}" },
  "mini-app-limits-custom-label": {},
  "mini-app-limits-custom-hint": {},
  "mini-app-addresses-empty": {},
  "mini-app-addresses-address": {},
  "mini-app-addresses-label": { max: "{max}" },
  "mini-app-addresses-saved": { label: "{label}" },
  "mini-app-addresses-removed": { label: "{label}" },
  "mini-app-keep-active": {},
  "mini-app-keep-paused": {},
  "mini-app-keep-stopped": {},
  "mini-app-keep-empty": {},
  "mini-app-keep-new": {},
  "mini-app-filter-refunds": {},
  "mini-app-filter-receiver": {},
  "mini-app-filter-any-receiver": {},
  "mini-app-zone-change": {},
  "mini-app-zone-title": {},
  "mini-app-zone-search-hint": {},
  "mini-app-zone-search": {},
  "mini-app-tab-send": {},
  "mini-app-send-amount": {},
  "mini-app-send-amount-hint": {},
  // The chat's own button words, so a setting is called the same in both places.
  "limits-daily-button": {},
  "limits-monthly-button": {},
  "limits-threshold-button": {},
  "limits-freeze-button": {},
  "limits-unfreeze-button": {},
  "limits-clear-button": {},
  "limits-custom-button": {},
  "time-zone-city-button": {},
  "time-zone-offsets-button": {},
  "addresses-add-button": {},
  "addresses-rename-button": {},
  "addresses-delete-button": {},
  "addresses-delete-confirm-button": {},
  "keep-pause-button": {},
  "keep-resume-button": {},
  "keep-stop-button": {},
  "send-confirm-button": {},
  "send-sign-button": {},
};

/** What the page shows before it knows whose app it is: its loading line and the refusals. */
const SHELL_TEXTS = [
  "mini-app-title",
  "mini-app-loading",
  "mini-app-no-telegram",
  "mini-app-refused",
  "mini-app-expired",
  "mini-app-failed",
  "mini-app-retry",
] as const;

export function appTexts(i18n: Translations, locale: string): Record<string, string> {
  return Object.fromEntries(Object.entries(APP_TEXTS).map(([key, vars]) => [key, i18n.t(locale, key, vars)]));
}

/** The shell's few words in every language: the page picks by the launch data's language before any call. */
export function shellTexts(i18n: Translations): Record<string, Record<string, string>> {
  return Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, Object.fromEntries(SHELL_TEXTS.map((key) => [key, i18n.t(locale, key)]))]));
}
