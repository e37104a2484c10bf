import { startSimulator, type RequestLogEntry, type Simulator, type SimulatorOptions } from "../../../testkit/simulator/index.js";
import type { ServiceClient } from "../../../src/platform/service/client.js";
import { createServiceClient, type ServiceCallEvent, type ServiceClientDeps } from "../../../src/platform/service/create-service-client.js";
import { ServiceError } from "../../../src/platform/service/errors.js";
import { captureLogger, type CapturedLogger } from "./capture-logger.js";

export interface Harness {
  sim: Simulator;
  log: CapturedLogger;
  events: ServiceCallEvent[];
  /** Every API key handed out, so a test can assert none of them leaked. */
  keys: string[];
  /** A client with test-sized timeouts and pinned jitter; closed by `stop()`. */
  client(overrides?: Partial<ServiceClientDeps>): ServiceClient;
  /** A funded account with a key; the key is tracked for leak checks. */
  account(options?: Parameters<Simulator["createAccount"]>[0]): { apiKey: string; accountId: string };
  /** Requests the simulator saw from now on, optionally for one method + path. */
  mark(): (method?: string, path?: string | RegExp) => RequestLogEntry[];
  stop(): Promise<void>;
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const sim = await startSimulator(options);
  const log = captureLogger("debug");
  const events: ServiceCallEvent[] = [];
  const keys: string[] = [];
  const clients: ServiceClient[] = [];
  return {
    sim,
    log,
    events,
    keys,
    client(overrides = {}) {
      const c = createServiceClient({
        baseUrl: sim.baseUrl,
        logger: log.logger,
        // Bounds for a loaded machine, where the simulator's first signature check can take seconds; the timeout tests set their own.
        attemptTimeoutMs: 15_000,
        totalTimeoutMs: 30_000,
        backoffBaseMs: 5,
        backoffMaxMs: 20,
        random: () => 0.5,
        onCall: (e) => events.push(e),
        ...overrides,
      });
      clients.push(c);
      return c;
    },
    account(o = {}) {
      const created = sim.createAccount({ balanceSun: 1_000_000_000_000, ...o });
      keys.push(created.apiKey);
      return { apiKey: created.apiKey, accountId: created.accountId };
    },
    mark() {
      const from = sim.requests.length;
      return (method, path) =>
        sim.requests
          .slice(from)
          .filter(
            (r) => (method === undefined || r.method === method) && (path === undefined || (typeof path === "string" ? r.path === path : path.test(r.path))),
          );
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close()));
      await sim.stop();
    },
  };
}

/** Awaits a promise expected to fail with a ServiceError and returns the error. */
export async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (ServiceError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ServiceError, the call succeeded");
}

/** Asserts no key of the harness appears in any log line. */
export function leakedKeys(h: Harness): string[] {
  const all = h.log.lines.join("\n");
  return h.keys.filter((k) => all.includes(k));
}
