import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import type { Metrics } from "../metrics.js";

export interface MetricsHandlerDeps {
  metrics: Metrics;
  /** When set, only `Authorization: Bearer <token>` is answered. */
  token?: string | undefined;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** GET /metrics in Prometheus text format, optionally behind a bearer token. */
export function createMetricsHandler(deps: MetricsHandlerDeps) {
  // Compared as digests: equal lengths for timingSafeEqual, and the token's length does not leak.
  const expected = deps.token === undefined ? undefined : digest(deps.token);
  return async (c: Context): Promise<Response> => {
    if (expected !== undefined) {
      const m = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
      if (!m?.[1] || !timingSafeEqual(digest(m[1]), expected)) {
        return c.json({ error: "unauthorized" }, 401, { "WWW-Authenticate": 'Bearer realm="metrics"' });
      }
    }
    return c.text(await deps.metrics.render(), 200, { "Content-Type": deps.metrics.contentType });
  };
}
