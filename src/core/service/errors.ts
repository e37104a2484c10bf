/**
 * The one error type of the service client. Built only in the HTTP layer
 * (`http.ts`); everything above branches on `code`, never on `detail`.
 */

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
  /** An orderId/broadcastId that is not 24 hex characters; refused before sending. */
  invalidId: "client.invalid_id",
  /** An Idempotency-Key that is empty, over 128 characters or not printable ASCII; refused before sending. */
  invalidIdempotencyKey: "client.invalid_idempotency_key",
} as const;

const MARKER = Symbol.for("tron-energy-bot.ServiceError");

export interface ServiceErrorInit {
  code: string;
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
  readonly code: string;
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

  /** True when the outcome of the request is unknown (it may have been applied). */
  get outcomeUnknown(): boolean {
    return this.code === CLIENT_ERROR_CODES.timeout || (this.code === CLIENT_ERROR_CODES.connection && this.status === 0);
  }

  /** The key was refused: the chat must re-link. */
  get isKeyRejected(): boolean {
    return this.code === "api_key.invalid" || this.code === "api_key.revoked";
  }
}
