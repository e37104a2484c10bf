/**
 * The one error type of the service client. Built only in the HTTP layer
 * (`http.ts`); everything above branches on `code` and the getters below,
 * never on `detail`. `toJSON`/`from` carry it through JSON-only places
 * (conversation replay logs).
 */

/** Codes of service-api.md section 7, with the status each comes with. */
export const SERVICE_ERROR_STATUS = {
  "api_key.invalid": 401,
  "api_key.revoked": 401,
  "api_keys.ip_not_allowed": 403,
  rate_limited: 429,
  "validation.invalid_field": 400,
  "request.invalid": 413,
  "validation.invalid_callback_url": 422,
  "idempotency.in_progress": 409,
  "idempotency.key_reuse": 422,
  "wallet.insufficient_balance": 402,
  "wallet.not_registered": 422,
  not_found: 404,
  "order.receiver_undeliverable": 422,
  "broadcast.malformed": 400,
  "broadcast.no_signature": 400,
  "broadcast.duplicate_tx": 409,
  "broadcast.invalid_tx": 422,
  "broadcast.tx_would_revert": 422,
  "broadcast.insufficient_usdt": 422,
  "broadcast.insufficient_bandwidth": 422,
  "broadcast.insufficient_time": 422,
  "broadcast.tx_expired": 422,
  "broadcast.unsupported_contract": 422,
  "broadcast.upstream_unavailable": 503,
} as const;

export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** Codes the client itself produces when the service gave no usable envelope. */
export const CLIENT_ERROR_CODES = {
  /** The request did not finish within its time budget. Outcome unknown. */
  timeout: "client.timeout",
  /** The service could not be reached (refused, reset, DNS...). */
  connection: "client.connection_failed",
  /** An error status whose body was not the documented JSON envelope. */
  badErrorBody: "client.bad_error_body",
  /** A success status whose body did not match the documented shape. */
  badResponse: "client.bad_response",
  /** The request body is over the 1 MiB limit; refused before sending. */
  bodyTooLarge: "client.body_too_large",
  /** An orderId/broadcastId that is not 24 hexadecimal characters; refused before sending. */
  invalidId: "client.invalid_id",
  /** An Idempotency-Key that is empty, over 128 characters or not printable ASCII; refused before sending. */
  invalidIdempotencyKey: "client.invalid_idempotency_key",
} as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/** Every code this bot knows by name. */
export type KnownErrorCode = ServiceErrorCode | ClientErrorCode;

/** A known code, or any other the service may add later (kept as its string). */
export type ErrorCode = KnownErrorCode | (string & {});

export const KNOWN_ERROR_CODES: readonly KnownErrorCode[] = [
  ...(Object.keys(SERVICE_ERROR_STATUS) as ServiceErrorCode[]),
  ...Object.values(CLIENT_ERROR_CODES),
];

const KNOWN: ReadonlySet<string> = new Set(KNOWN_ERROR_CODES);

export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return KNOWN.has(code);
}

const MARKER = Symbol.for("tron-energy-bot.ServiceError");

/** What `toJSON` keeps: every field but `cause` (any object, not JSON). */
export interface ServiceErrorJSON {
  name?: "ServiceError";
  code: ErrorCode;
  status: number;
  detail?: string;
  requestId?: string;
  method?: string;
  path?: string;
  requiredSun?: number;
  seenIp?: string;
  retryAfterSec?: number;
  level?: string;
  broadcastId?: string;
  responseBody?: string;
}

type OptionalField = Exclude<keyof ServiceErrorJSON, "name" | "code" | "status">;
const OPTIONAL_FIELDS = [
  "detail",
  "requestId",
  "method",
  "path",
  "requiredSun",
  "seenIp",
  "retryAfterSec",
  "level",
  "broadcastId",
  "responseBody",
] as const satisfies readonly OptionalField[];

export interface ServiceErrorInit {
  code: ErrorCode;
  status: number;
  detail?: string | undefined;
  requestId?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  requiredSun?: number | undefined;
  seenIp?: string | undefined;
  retryAfterSec?: number | undefined;
  level?: string | undefined;
  /** On `broadcast.duplicate_tx`, when the service names the existing broadcast (not documented). */
  broadcastId?: string | undefined;
  /** Raw response body for off-shape answers; never contains the API key. */
  responseBody?: string | undefined;
  cause?: unknown;
}

export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  /** HTTP status; 0 when no response arrived (timeout, connection failure, refused locally). */
  readonly status: number;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly requiredSun: number | undefined;
  readonly seenIp: string | undefined;
  readonly retryAfterSec: number | undefined;
  readonly level: string | undefined;
  readonly broadcastId: string | undefined;
  readonly responseBody: string | undefined;

  constructor(init: ServiceErrorInit) {
    const where = init.method && init.path ? ` (${init.method} ${init.path})` : "";
    super(`${init.code}${init.status ? ` ${init.status}` : ""}${where}${init.detail ? `: ${init.detail}` : ""}`, {
      cause: init.cause,
    });
    this.code = init.code;
    this.status = init.status;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.requiredSun = init.requiredSun;
    this.seenIp = init.seenIp;
    this.retryAfterSec = init.retryAfterSec;
    this.level = init.level;
    this.broadcastId = init.broadcastId;
    this.responseBody = init.responseBody;
  }

  /** Works across duplicated copies of this module (vitest, bundling). */
  static isInstance(value: unknown): value is ServiceError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** The error `toJSON` described (also the older shape without `name`). */
  static from(json: ServiceErrorJSON): ServiceError {
    // Every field of the JSON is a field of the init; `name` is ignored by the constructor.
    return new ServiceError(json);
  }

  /** Plain data for JSON-only places; `from` rebuilds the error. Undefined fields are left out. */
  toJSON(): ServiceErrorJSON {
    const json: ServiceErrorJSON = { name: "ServiceError", code: this.code, status: this.status };
    for (const field of OPTIONAL_FIELDS) if (this[field] !== undefined) Object.assign(json, { [field]: this[field] });
    return json;
  }

  /** True when the outcome of the request is unknown (it may have been applied). */
  get outcomeUnknown(): boolean {
    return this.code === CLIENT_ERROR_CODES.timeout || (this.code === CLIENT_ERROR_CODES.connection && this.status === 0);
  }

  /** The key was refused: the chat must re-link. */
  get isKeyRejected(): boolean {
    return this.code === "api_key.invalid" || this.code === "api_key.revoked";
  }

  /** Unknown id, not this key's, or (balance) no wallet yet. */
  get isNotFound(): boolean {
    return this.code === "not_found";
  }

  /**
   * The service gave no usable answer right now (unreachable, overloaded,
   * off-shape): nothing was said about the request itself.
   */
  get isUnavailable(): boolean {
    switch (this.code) {
      case CLIENT_ERROR_CODES.timeout:
      case CLIENT_ERROR_CODES.connection:
      case CLIENT_ERROR_CODES.badErrorBody:
      case CLIENT_ERROR_CODES.badResponse:
      case "rate_limited":
      case "broadcast.upstream_unavailable":
        return true;
    }
    return this.status >= 500;
  }

  /**
   * Section 7's retry guidance: the same request may succeed later, after a
   * wait (429, 503, a network timeout) or once its cause is fixed (402 after a
   * top-up, an activated receiver, a finished idempotent twin).
   */
  get isRetryable(): boolean {
    switch (this.code) {
      case CLIENT_ERROR_CODES.timeout:
      case CLIENT_ERROR_CODES.connection:
      case "rate_limited":
      case "broadcast.upstream_unavailable":
      case "wallet.insufficient_balance":
      case "order.receiver_undeliverable":
      case "idempotency.in_progress":
        return true;
    }
    return this.status === 429 || this.status === 503;
  }
}
