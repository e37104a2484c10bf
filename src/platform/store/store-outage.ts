/**
 * Whether an error means "the store cannot be reached right now" (a refused,
 * reset or timed-out connection, a server shutting down or starting up), as
 * opposed to a store that answers and refuses (bad credentials, a missing
 * permission, a bad table): the first is waited out, the second is told.
 */

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);
/** Postgres: admin/crash shutdown, starting up, connection exceptions, too many connections. */
const POSTGRES_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "53300"]);
/** node-redis's errors of a connection that is down or going down. */
const CONNECTION_ERRORS = new Set([
  "ConnectionTimeoutError",
  "SocketTimeoutError",
  "ClientClosedError",
  "ClientOfflineError",
  "SocketClosedUnexpectedlyError",
  "ReconnectStrategyError",
]);
/** pg and ioredis (BullMQ) say it in words only. */
const CONNECTION_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection is closed|client is (?:closed|offline)|socket closed unexpectedly|client network socket disconnected/i;

export function isStoreUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const { code, name, message, cause, errors, socketError } = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    socketError?: unknown;
  };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code))) return true;
  // node-redis names its classes but keeps "Error" as the name: the constructor's tells.
  if ([name, error.constructor?.name].some((n) => typeof n === "string" && CONNECTION_ERRORS.has(n))) return true;
  // Its ReconnectStrategyError carries the socket's error beside it, not as the cause.
  if (socketError !== undefined && isStoreUnreachable(socketError, depth + 1)) return true;
  if (typeof message === "string" && CONNECTION_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnreachable(inner, depth + 1))) return true;
  return isStoreUnreachable(cause, depth + 1);
}
