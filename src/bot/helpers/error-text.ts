/**
 * The only place where a ServiceError code becomes text. Every code of
 * service-api.md section 7 and every client code has its own message with
 * the next step; anything else shows its detail and requestId.
 */
import type { I18nFlavor } from "../i18n.js";
import { redactSecrets } from "../../shared/redact-secrets.js";
import { MIN_DEPOSIT_SUN } from "../../shared/orders/top-up-advice.js";
import { CLIENT_ERROR_CODES, isKnownErrorCode, ServiceError, type KnownErrorCode } from "../../platform/service/errors.js";
import { formatTrx } from "./format.js";
import { code, translate, type TextVars } from "./html.js";

type VarsOf = (error: ServiceError, locale: string) => TextVars;
interface ErrorTextEntry {
  readonly key: string;
  readonly vars: VarsOf;
}

const none: VarsOf = () => ({});
/** The service's own words, with anything that looks like a key or secret blanked. */
const detailOf = (e: ServiceError): string => (e.detail === undefined ? "-" : redactSecrets(e.detail));
const withRequest: VarsOf = (e) => ({ requestId: e.requestId ?? "-" });

/**
 * code -> Fluent id and its variables (same variables in every locale).
 * Exhaustive: a code added to the union without a text fails the build.
 */
export const ERROR_TEXTS: Readonly<Record<KnownErrorCode, ErrorTextEntry>> = {
  "api_key.invalid": { key: "error-api_key-invalid", vars: none },
  "api_key.revoked": { key: "error-api_key-revoked", vars: none },
  "api_keys.ip_not_allowed": { key: "error-api_keys-ip_not_allowed", vars: (e) => ({ seenIp: code(e.seenIp ?? "?") }) },
  rate_limited: { key: "error-rate_limited", vars: (e) => ({ retryAfterSec: e.retryAfterSec ?? 5 }) },
  "validation.invalid_field": { key: "error-validation-invalid_field", vars: (e) => ({ detail: detailOf(e) }) },
  "request.invalid": { key: "error-request-invalid", vars: none },
  "validation.invalid_callback_url": { key: "error-validation-invalid_callback_url", vars: none },
  "idempotency.in_progress": { key: "error-idempotency-in_progress", vars: none },
  "idempotency.key_reuse": { key: "error-idempotency-key_reuse", vars: none },
  "wallet.insufficient_balance": {
    key: "error-wallet-insufficient_balance",
    vars: (e, locale) => ({
      requiredTrx: e.requiredSun === undefined ? "?" : formatTrx(e.requiredSun, locale),
      minDepositTrx: formatTrx(MIN_DEPOSIT_SUN, locale),
    }),
  },
  "wallet.not_registered": { key: "error-wallet-not_registered", vars: none },
  not_found: { key: "error-not_found", vars: none },
  "order.receiver_undeliverable": { key: "error-order-receiver_undeliverable", vars: none },
  "broadcast.malformed": { key: "error-broadcast-malformed", vars: none },
  "broadcast.no_signature": { key: "error-broadcast-no_signature", vars: none },
  "broadcast.duplicate_tx": { key: "error-broadcast-duplicate_tx", vars: none },
  "broadcast.invalid_tx": { key: "error-broadcast-invalid_tx", vars: (e) => ({ detail: detailOf(e) }) },
  "broadcast.tx_would_revert": { key: "error-broadcast-tx_would_revert", vars: none },
  "broadcast.insufficient_usdt": { key: "error-broadcast-insufficient_usdt", vars: none },
  "broadcast.insufficient_bandwidth": { key: "error-broadcast-insufficient_bandwidth", vars: none },
  "broadcast.insufficient_time": { key: "error-broadcast-insufficient_time", vars: none },
  "broadcast.tx_expired": { key: "error-broadcast-tx_expired", vars: none },
  "broadcast.unsupported_contract": { key: "error-broadcast-unsupported_contract", vars: none },
  "broadcast.upstream_unavailable": { key: "error-broadcast-upstream_unavailable", vars: none },
  [CLIENT_ERROR_CODES.timeout]: { key: "error-client-timeout", vars: none },
  [CLIENT_ERROR_CODES.connection]: { key: "error-client-connection_failed", vars: none },
  [CLIENT_ERROR_CODES.badErrorBody]: { key: "error-client-bad_error_body", vars: withRequest },
  [CLIENT_ERROR_CODES.badResponse]: { key: "error-client-bad_response", vars: withRequest },
  [CLIENT_ERROR_CODES.bodyTooLarge]: { key: "error-client-body_too_large", vars: none },
  [CLIENT_ERROR_CODES.invalidId]: { key: "error-client-invalid_id", vars: none },
  [CLIENT_ERROR_CODES.invalidIdempotencyKey]: { key: "error-client-invalid_idempotency_key", vars: none },
};

/**
 * A key the user just sent (not the one this chat holds) refused: the
 * generic texts ("the key of this chat") would misname it.
 */
const SENT_KEY_TEXTS: Readonly<Partial<Record<KnownErrorCode, ErrorTextEntry>>> = {
  "api_key.invalid": { key: "link-key-invalid", vars: none },
  "api_key.revoked": { key: "link-key-revoked", vars: none },
};

type Translator = Pick<I18nFlavor, "t">;

/** Localized explanation with the next step, HTML-safe. `locale` picks number formatting. */
export function serviceErrorText(ctx: Translator, error: ServiceError, locale: string): string {
  if (isKnownErrorCode(error.code)) {
    const entry = ERROR_TEXTS[error.code];
    return translate(ctx, entry.key, entry.vars(error, locale));
  }
  return translate(ctx, "error-unknown", {
    code: code(error.code),
    detail: error.detail !== undefined ? detailOf(error) : error.status ? `HTTP ${error.status}` : "-",
    requestId: code(error.requestId ?? "-"),
  });
}

/** The Fluent id `sentKeyErrorText` says this refusal with. */
export function sentKeyErrorKey(error: ServiceError): string {
  const entry = isKnownErrorCode(error.code) ? SENT_KEY_TEXTS[error.code] : undefined;
  return entry?.key ?? errorTextKey(error);
}

/** A refusal of a key the user just sent, to link it. */
export function sentKeyErrorText(ctx: Translator, error: ServiceError, locale: string): string {
  const entry = isKnownErrorCode(error.code) ? SENT_KEY_TEXTS[error.code] : undefined;
  return entry ? translate(ctx, entry.key, entry.vars(error, locale)) : serviceErrorText(ctx, error, locale);
}

/** The Fluent id `errorText` says this failure with (its dashboard or support button follows it). */
export function errorTextKey(error: unknown): string {
  if (!ServiceError.isInstance(error)) return "error-internal";
  return isKnownErrorCode(error.code) ? ERROR_TEXTS[error.code].key : "error-unknown";
}

/** Any failure as text: a ServiceError gets its own message, anything else the generic line. */
export function errorText(ctx: Translator, error: unknown, locale: string): string {
  if (ServiceError.isInstance(error)) return serviceErrorText(ctx, error, locale);
  return translate(ctx, "error-internal");
}
