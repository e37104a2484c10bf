/**
 * The error envelope of service-api.md section 7. Handlers throw SimError;
 * the server turns it into the RFC 7807 body with the request's id and path.
 */

export interface SimErrorExtras {
  seenIp?: string;
  requiredSun?: number;
  level?: string;
  retryAfterSec?: number;
  /** Undocumented helper member on broadcast.duplicate_tx (owner only). */
  broadcastId?: string;
}

export class SimError extends Error {
  override readonly name = "SimError";
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extras: SimErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

export function errorTypeUrl(errorsUrl: string, code: string): string {
  return `${errorsUrl}/${code.replaceAll(".", "-")}`;
}

export function errorEnvelope(
  errorsUrl: string,
  err: { status: number; code: string; detail: string; extras?: SimErrorExtras },
  instance: string,
  requestId: string,
): Record<string, unknown> {
  return {
    type: errorTypeUrl(errorsUrl, err.code),
    title: err.code,
    status: err.status,
    detail: err.detail,
    instance,
    code: err.code,
    requestId,
    ...err.extras,
  };
}

/** Shorthands for the codes the handlers raise. */
export const fail = {
  invalidField: (detail: string) => new SimError(400, "validation.invalid_field", detail),
  notFound: (detail = "Not found") => new SimError(404, "not_found", detail),
  keyInvalid: (detail = "API key missing or invalid") => new SimError(401, "api_key.invalid", detail),
  keyRevoked: () => new SimError(401, "api_key.revoked", "API key has been revoked"),
  ipNotAllowed: (seenIp: string) => new SimError(403, "api_keys.ip_not_allowed", `Source address ${seenIp} is not on this key's IP allowlist`, { seenIp }),
  insufficientBalance: (requiredSun: number, availableSun: number) =>
    new SimError(402, "wallet.insufficient_balance", `Insufficient balance: ${requiredSun} sun required, ${availableSun} sun available`, { requiredSun }),
  bodyTooLarge: () => new SimError(413, "request.invalid", "Request body exceeds 1 MiB (1048576 bytes)"),
};
