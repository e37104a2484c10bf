import { randomBytes } from "node:crypto";

/**
 * A route id is the only thing that separates a stranger from a chat's
 * webhook URL, so it is a capability: at least 128 random bits (144 here),
 * URL-safe, and never written to a log in full.
 */
export function newRouteId(): string {
  return randomBytes(18).toString("base64url");
}

/** The first 6 characters (36 bits): enough to tell routes apart in logs, useless to post to. */
export function routeIdForLog(routeId: string): string {
  return `${routeId.slice(0, 6)}…`;
}
