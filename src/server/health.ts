import type { Logger } from "pino";
import type { ServiceClient } from "../core/service/client.js";
import type { StoreBackend } from "../core/store/types.js";

export interface HealthReport {
  status: "ok" | "degraded";
  store: "ok" | "down";
  service: "ok" | "down";
}

export interface HealthCheckDeps {
  store: Pick<StoreBackend, "ping">;
  service: Pick<ServiceClient, "getSystem">;
  logger: Logger;
  /** How long a service answer is reused; probes and load balancers poll often. Default 15 s. */
  serviceCacheMs?: number;
  /** Budget of one service probe. Default 2 s. */
  serviceTimeoutMs?: number;
}

/**
 * /healthz: the store is pinged every time (cheap, local or one round trip);
 * the service's public GET /v1/public/system is asked at most once per cache
 * period, single-flight, so a scrape storm never becomes a request storm.
 */
export function createHealthCheck(deps: HealthCheckDeps): () => Promise<HealthReport> {
  const cacheMs = deps.serviceCacheMs ?? 15_000;
  const timeoutMs = deps.serviceTimeoutMs ?? 2_000;
  let cached: { ok: boolean; at: number } | undefined;
  let probing: Promise<boolean> | undefined;

  async function probeService(): Promise<boolean> {
    try {
      await deps.service.getSystem({ signal: AbortSignal.timeout(timeoutMs) });
      return true;
    } catch (error) {
      deps.logger.warn({ err: error }, "health: service unreachable");
      return false;
    }
  }

  async function serviceOk(): Promise<boolean> {
    if (cached && Date.now() - cached.at < cacheMs) return cached.ok;
    probing ??= probeService().then((ok) => {
      cached = { ok, at: Date.now() };
      probing = undefined;
      return ok;
    });
    return probing;
  }

  return async () => {
    const storePing = deps.store.ping().catch((error: unknown) => {
      deps.logger.warn({ err: error }, "health: store unreachable");
      return false;
    });
    const [storeUp, svcOk] = await Promise.all([storePing, serviceOk()]);
    return {
      status: storeUp && svcOk ? "ok" : "degraded",
      store: storeUp ? "ok" : "down",
      service: svcOk ? "ok" : "down",
    };
  };
}
