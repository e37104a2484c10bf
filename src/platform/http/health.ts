import type { Logger } from "pino";
import type { ServiceClient } from "../service/client.js";
import type { StoreBackend } from "../store/types.js";

type UpDown = "ok" | "down";

/** /healthz: is this process alive? Only its own store counts, so an outside outage never restarts it. */
export interface LivenessReport {
  status: UpDown;
  store: UpDown;
}

/** /readyz: can this process do its work right now (the service, and Telegram when it is watched)? */
export interface ReadinessReport {
  status: "ready" | "not_ready";
  store: UpDown;
  service: UpDown;
  /** Present when the app watches Telegram; "unknown" until the first call. */
  telegram?: UpDown | "unknown";
  /**
   * Present (true) once the store came back without what it held (a Redis without persistence
   * restarted): the bot works on, so it stays ready, but an operator must see it. Gone after a restart of the bot.
   */
  storeDataLost?: true;
}

export interface HealthCheckDeps {
  store: Pick<StoreBackend, "ping">;
  service: Pick<ServiceClient, "getSystem">;
  /** The outcome of the latest Telegram call (no request of its own). */
  telegram?: () => UpDown | "unknown";
  /** Whether the store was seen to have lost its data since start. */
  storeDataLost?: () => boolean;
  logger: Logger;
  /** How long a service answer is reused; probes and load balancers poll often. Default 15 s. */
  serviceCacheMs?: number;
  /** Budget of one service probe. Default 2 s. */
  serviceTimeoutMs?: number;
}

export interface HealthCheck {
  liveness(): Promise<LivenessReport>;
  readiness(): Promise<ReadinessReport>;
}

/**
 * The store is pinged on every call (cheap, local or one round trip); the
 * service's public GET /v1/public/system is asked at most once per cache
 * period, single-flight, so a scrape storm never becomes a request storm.
 */
export function createHealthCheck(deps: HealthCheckDeps): HealthCheck {
  const cacheMs = deps.serviceCacheMs ?? 15_000;
  const timeoutMs = deps.serviceTimeoutMs ?? 2_000;
  let cached: { ok: boolean; at: number } | undefined;
  let probing: Promise<boolean> | undefined;

  async function probeService(): Promise<boolean> {
    try {
      await deps.service.getSystem({ signal: AbortSignal.timeout(timeoutMs) });
      return true;
    } catch (error) {
      deps.logger.warn({ err: error }, "readiness: service unreachable");
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

  function storeOk(): Promise<boolean> {
    // The store watch tells an outage once; a probe every few seconds would repeat it.
    return deps.store.ping().catch((error: unknown) => {
      deps.logger.debug({ err: error }, "health: store unreachable");
      return false;
    });
  }

  return {
    async liveness() {
      const up = await storeOk();
      return { status: up ? "ok" : "down", store: up ? "ok" : "down" };
    },
    async readiness() {
      const [storeUp, svcUp] = await Promise.all([storeOk(), serviceOk()]);
      const telegram = deps.telegram?.();
      const ready = storeUp && svcUp && telegram !== "down";
      return {
        status: ready ? "ready" : "not_ready",
        store: storeUp ? "ok" : "down",
        service: svcUp ? "ok" : "down",
        ...(telegram !== undefined ? { telegram } : {}),
        ...(deps.storeDataLost?.() ? { storeDataLost: true as const } : {}),
      };
    },
  };
}
