import type { Logger } from "pino";
import type { ZodType } from "zod";
import type { CallOptions, ServiceClient } from "./client.js";
import { CLIENT_ERROR_CODES, ServiceError } from "./errors.js";
import { createHttpTransport, localError } from "./http.js";
import { runWithRetry, type Resend, type RetryPolicy } from "./retry.js";
import {
  balanceSchema,
  createBroadcastResponseSchema,
  createOrdersResponseSchema,
  getBroadcastResponseSchema,
  getOrderResponseSchema,
  pricingSchema,
  systemSnapshotSchema,
  type OrderItemInput,
} from "./schemas.js";

export interface ServiceCallEvent {
  /** Method and path template, e.g. `GET /v1/orders/:id`; bounded set, fit for a metric label. */
  endpoint: string;
  /** `ok`, or the ServiceError code of the final failure, or `aborted`. */
  outcome: string;
  /** Whole call, retries and waits included. */
  ms: number;
  attempts: number;
}

export interface ServiceClientDeps {
  baseUrl: string;
  logger: Logger;
  /** Budget of one attempt (headers and body). Default 5,000. */
  attemptTimeoutMs?: number;
  /** Budget of a whole call, retries and waits included. Default 14,000. */
  totalTimeoutMs?: number;
  /** Attempts per call, the first included. Default 4. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  userAgent?: string;
  /** Metrics hook, called once per call; must not throw (errors are logged and ignored). */
  onCall?: (event: ServiceCallEvent) => void;
}

/** Service limit on request bodies (service-api.md section 8). */
export const MAX_BODY_BYTES = 1_048_576;
const ID_PATTERN = /^[0-9a-f]{24}$/i;
// Printable ASCII without leading/trailing blanks: what an HTTP header carries intact.
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,126}[\x21-\x7e])?$/;
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

interface CallSpec<T> {
  method: "GET" | "POST";
  path: string;
  template: string;
  schema: ZodType<T>;
  resend: Resend;
  apiKey?: string | undefined;
  idempotencyKey?: string | undefined;
  body?: unknown;
}

export function createServiceClient(deps: ServiceClientDeps): ServiceClient {
  const attemptTimeoutMs = deps.attemptTimeoutMs ?? 5_000;
  const totalTimeoutMs = deps.totalTimeoutMs ?? 14_000;
  const policy: RetryPolicy = {
    maxAttempts: deps.maxAttempts ?? 4,
    backoffBaseMs: deps.backoffBaseMs ?? 300,
    backoffMaxMs: deps.backoffMaxMs ?? 4_000,
    random: deps.random ?? Math.random,
  };
  const logger = deps.logger.child({ component: "service-client" });
  const transport = createHttpTransport({
    baseUrl: deps.baseUrl,
    userAgent: deps.userAgent ?? "tron-energy-bot/0.1",
    connectTimeoutMs: attemptTimeoutMs,
  });

  function emit(event: ServiceCallEvent): void {
    if (!deps.onCall) return;
    try {
      deps.onCall(event);
    } catch (error) {
      logger.warn({ err: error }, "onCall hook threw");
    }
  }

  async function call<T>(spec: CallSpec<T>, options: CallOptions | undefined): Promise<{ status: number; data: T }> {
    const { method, path, template } = spec;
    const endpoint = `${method} ${template}`;
    const started = performance.now();
    let attempts = 0;
    try {
      if (spec.apiKey !== undefined && !API_KEY_PATTERN.test(spec.apiKey)) {
        // What the service answers for a malformed key (section 5 rule 3); refused
        // here because undici would otherwise throw with the header in hand.
        throw localError("api_key.invalid", "the API key is empty or has characters a header cannot carry", method, path);
      }
      const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
      if (body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES) {
        throw localError(CLIENT_ERROR_CODES.bodyTooLarge, `request body is ${Buffer.byteLength(body)} bytes; the limit is ${MAX_BODY_BYTES}`, method, path);
      }
      const result = await runWithRetry(
        async (attempt, timeoutMs) => {
          attempts = attempt;
          const attemptStarted = performance.now();
          try {
            const r = await transport.attempt({
              method,
              path,
              apiKey: spec.apiKey,
              idempotencyKey: spec.idempotencyKey,
              body,
              schema: spec.schema,
              timeoutMs,
              signal: options?.signal,
            });
            logger.debug({ method, path: template, status: r.status, attempt, ms: elapsed(attemptStarted) }, "service call");
            return r;
          } catch (error) {
            const e = ServiceError.isInstance(error) ? error : undefined;
            logger.debug(
              { method, path: template, status: e?.status ?? 0, code: e?.code ?? "aborted", requestId: e?.requestId, attempt, ms: elapsed(attemptStarted) },
              "service call failed",
            );
            throw error;
          }
        },
        {
          resend: spec.resend,
          policy,
          attemptTimeoutMs,
          totalTimeoutMs,
          signal: options?.signal,
          onRetry: ({ attempt, delayMs }) => logger.debug({ method, path: template, attempt, delayMs }, "service call will be retried"),
        },
      );
      emit({ endpoint, outcome: "ok", ms: elapsed(started), attempts });
      return result;
    } catch (error) {
      const outcome = ServiceError.isInstance(error) ? error.code : options?.signal?.aborted ? "aborted" : "error";
      emit({ endpoint, outcome, ms: elapsed(started), attempts });
      throw error;
    }
  }

  function checkId(id: string, method: "GET", template: string): string {
    const path = template.replace(":id", encodeURIComponent(id));
    if (!ID_PATTERN.test(id)) {
      throw localError(CLIENT_ERROR_CODES.invalidId, "ids are 24 hexadecimal characters", method, template);
    }
    return path;
  }

  return {
    async getBalance(apiKey, options) {
      const spec = { method: "GET", path: "/v1/balance", template: "/v1/balance", schema: balanceSchema } as const;
      return (await call({ ...spec, resend: "replayable", apiKey }, options)).data;
    },

    async createOrders(apiKey, items: readonly OrderItemInput[], idempotencyKey, options) {
      const path = "/v1/orders";
      if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
        throw localError(CLIENT_ERROR_CODES.invalidIdempotencyKey, "Idempotency-Key must be 1 to 128 printable ASCII characters", "POST", path);
      }
      const { status, data } = await call(
        {
          method: "POST",
          path,
          template: path,
          schema: createOrdersResponseSchema,
          // The key makes a resend a replay, never a second charge.
          resend: "replayable",
          apiKey,
          idempotencyKey,
          body: { items },
        },
        options,
      );
      return { orders: data.orders, replayed: status === 200 };
    },

    async getOrder(apiKey, orderId, options) {
      const template = "/v1/orders/:id";
      const path = checkId(orderId, "GET", template);
      const spec = { method: "GET", path, template, schema: getOrderResponseSchema } as const;
      return (await call({ ...spec, resend: "replayable", apiKey }, options)).data.order;
    },

    async createBroadcast(signedTx, apiKey, options) {
      const path = "/v1/broadcasts";
      const spec = { method: "POST", path, template: path, schema: createBroadcastResponseSchema } as const;
      return (await call({ ...spec, resend: "once", apiKey, body: { signedTx } }, options)).data;
    },

    async getBroadcast(apiKey, broadcastId, options) {
      const template = "/v1/broadcasts/:id";
      const path = checkId(broadcastId, "GET", template);
      const spec = { method: "GET", path, template, schema: getBroadcastResponseSchema } as const;
      return (await call({ ...spec, resend: "replayable", apiKey }, options)).data.broadcast;
    },

    async getPricing(options) {
      const path = "/v1/public/pricing";
      const spec = { method: "GET", path, template: path, schema: pricingSchema } as const;
      return (await call({ ...spec, resend: "replayable" }, options)).data;
    },

    async getSystem(options) {
      const path = "/v1/public/system";
      const spec = { method: "GET", path, template: path, schema: systemSnapshotSchema } as const;
      return (await call({ ...spec, resend: "replayable" }, options)).data;
    },

    close() {
      return transport.close();
    },
  };
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
