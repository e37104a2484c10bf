import { fail } from "./errors.js";
import type { AccountStore, ApiKeyRecord } from "./state/accounts.js";

/** A header is a key only in the exact form `Bearer <non-empty token>`. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer +(\S+) *$/.exec(header);
  return m?.[1];
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so allowlists hold plain IPv4. */
export function normalizeIp(ip: string | undefined): string {
  if (!ip) return "unknown";
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/**
 * Section 5: unknown → 401 api_key.invalid, revoked → 401 api_key.revoked,
 * allowlist miss → 403 with seenIp (from the socket, never from headers).
 * `optional` (POST /v1/broadcasts): no usable header means anonymous.
 */
export function authenticate(accounts: AccountStore, header: string | undefined, ip: string, optional: boolean): ApiKeyRecord | undefined {
  const token = bearerToken(header);
  if (token === undefined) {
    if (optional) return undefined;
    throw fail.keyInvalid(header === undefined ? "Authorization header missing" : "Authorization must be Bearer <API_KEY>");
  }
  const key = accounts.key(token);
  if (!key) throw fail.keyInvalid("API key is not valid");
  if (key.revoked) throw fail.keyRevoked();
  if (key.ipAllowlist !== null && !key.ipAllowlist.map(normalizeIp).includes(ip)) throw fail.ipNotAllowed(ip);
  return key;
}
