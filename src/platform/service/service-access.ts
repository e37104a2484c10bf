import type { Logger } from "pino";
import { recordServiceCalls, type Metrics } from "../metrics.js";
import { createPricingCache, type PricingCache } from "./pricing-cache.js";
import type { ServiceClient } from "./client.js";
import { createServiceClient, type ServiceClientDeps } from "./create-service-client.js";

export interface ServiceAccessDeps {
  baseUrl: string;
  logger: Logger;
  metrics: Metrics;
  /** Shorter budgets and backoff (tests); the client's defaults otherwise. */
  tuning?: Pick<ServiceClientDeps, "attemptTimeoutMs" | "totalTimeoutMs" | "maxAttempts" | "backoffBaseMs" | "backoffMaxMs">;
}

/** The service client, counted in `service_calls_total` and timed in `service_call_duration_seconds`, and the pricing cache over it. */
export function createServiceAccess({ baseUrl, logger, metrics, tuning = {} }: ServiceAccessDeps): { service: ServiceClient; pricing: PricingCache } {
  const service = createServiceClient({
    baseUrl,
    logger,
    ...tuning,
    onCall: recordServiceCalls(metrics),
  });
  const pricing = createPricingCache({ load: () => service.getPricing(), logger });
  return { service, pricing };
}
