/**
 * Texts that send the user to the dashboard or to support. Each gets a URL
 * button to it under the message when DASHBOARD_URL / SUPPORT_URL is set, and
 * nothing when it is not (test/bot/service-links.test.ts checks that every
 * such text in locales/en is listed here).
 */
export type ServiceLink = "dashboard" | "support";

const DASHBOARD: readonly ServiceLink[] = ["dashboard"];
const SUPPORT: readonly ServiceLink[] = ["support"];

export const TEXT_LINKS: Readonly<Record<string, readonly ServiceLink[]>> = {
  "start-welcome": DASHBOARD,
  "account-deeplink-after-link": DASHBOARD,
  "not-linked": DASHBOARD,
  "link-ask-key": DASHBOARD,
  "link-key-format": DASHBOARD,
  "link-key-is-secret": DASHBOARD,
  "link-key-invalid": DASHBOARD,
  "link-key-revoked": DASHBOARD,
  "link-no-wallet": DASHBOARD,
  "link-callback-url": DASHBOARD,
  "balance-no-address": DASHBOARD,
  "balance-no-wallet": DASHBOARD,
  "home-balance-no-wallet": DASHBOARD,
  "topup-no-address": DASHBOARD,
  "order-quote-no-wallet": DASHBOARD,
  "order-quote-blocked-no-wallet": DASHBOARD,
  "order-insufficient-no-wallet": DASHBOARD,
  "order-insufficient-no-address": DASHBOARD,
  "error-api_key-invalid": DASHBOARD,
  "error-api_key-revoked": DASHBOARD,
  "error-api_keys-ip_not_allowed": DASHBOARD,
  "error-validation-invalid_callback_url": DASHBOARD,
  "error-unknown": SUPPORT,
  "error-internal": SUPPORT,
  "alerts-foreign": DASHBOARD,
  "webhook-url": DASHBOARD,
  "webhook-rotate-confirm": DASHBOARD,
  "webhook-rotated": DASHBOARD,
  "webhook-ask-secret": DASHBOARD,
  "webhook-secret-format": DASHBOARD,
  "system-provider": DASHBOARD,
  "group-key-exposed": DASHBOARD,
  "group-key-deleted": DASHBOARD,
  "groups-key-deleted": DASHBOARD,
  "unhandled-key-deleted": DASHBOARD,
  "unhandled-key-not-deleted": DASHBOARD,
};

/** The links of one text, or of a message put together from several (each link once, dashboard first). */
export function linksOfText(keys: string | readonly string[]): readonly ServiceLink[] {
  const wanted = new Set((typeof keys === "string" ? [keys] : keys).flatMap((key) => TEXT_LINKS[key] ?? []));
  return (["dashboard", "support"] as const).filter((link) => wanted.has(link));
}

/** A message put together from several texts, with the ids of those texts (for their links). */
export interface ComposedText {
  text: string;
  keys: readonly string[];
}
