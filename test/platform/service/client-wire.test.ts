import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, type ServiceCallEvent, type ServiceClientDeps } from "../../../src/platform/service/create-service-client.js";
import type { ServiceClient } from "../../../src/platform/service/client.js";
import { ServiceError } from "../../../src/platform/service/errors.js";
import { captureLogger } from "./capture-logger.js";
import { json, startStubServer, text, type StubServer } from "./stub-server.js";

/**
 * Wire-level behaviour against a tiny loopback server that can say things the
 * simulator never says on purpose: off-shape bodies, HTML error pages, echoed
 * secrets, gateway errors.
 */

const KEY = "sk_live_wire_test_0123456789abcdef";
const ORDER_ID = "65f0a1b2c3d4e5f6a7b8c9d0";

const pricing = {
  resource: "ENERGY",
  baseUnitPriceSun: 90,
  amountMin: 50_000,
  amountMax: 200_000,
  tiers: [{ durationSec: 60, label: "1m", unitPriceSun: 90 }],
};

const order = {
  orderId: ORDER_ID,
  status: "pending",
  receiver: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu",
  resource: "ENERGY",
  resourceAmount: 65_000,
  remainAmount: 65_000,
  isMatching: true,
  durationSec: 300,
  totalCostSun: 5_850_000,
  createdAt: "2026-11-23T00:00:00.000Z",
};

async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (ServiceError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ServiceError");
}

let stub: StubServer;
const clients: ServiceClient[] = [];
const events: ServiceCallEvent[] = [];
const log = captureLogger();

function client(overrides: Partial<ServiceClientDeps> = {}): ServiceClient {
  const c = createServiceClient({
    baseUrl: stub.baseUrl,
    logger: log.logger,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    attemptTimeoutMs: 2000,
    totalTimeoutMs: 5000,
    onCall: (e) => events.push(e),
    ...overrides,
  });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  stub = await startStubServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  stub.requests.length = 0;
  events.length = 0;
});
afterAll(async () => {
  await stub.close();
  expect(log.lines.join("\n")).not.toContain(KEY);
});

describe("service client on the wire", () => {
  it("sends the documented headers and no Authorization on public endpoints", async () => {
    stub.respond(json(200, pricing));
    await client({ userAgent: "wire-test/1" }).getPricing();
    const req = stub.requests[0]!;
    expect(req.headers["user-agent"]).toBe("wire-test/1");
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers.authorization).toBeUndefined();
  });

  it("sends Bearer, Idempotency-Key and a JSON body on POST /v1/orders", async () => {
    stub.respond(json(201, { orders: [order] }));
    const items = [{ toAddress: order.receiver, amount: 65_000, resource: "ENERGY" as const, durationSec: 300 }];
    const result = await client().createOrders(KEY, items, "quote-1");
    expect(result.replayed).toBe(false);
    const req = stub.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["idempotency-key"]).toBe("quote-1");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ items });
  });

  it("keeps a path prefix of the base URL", async () => {
    stub.respond(json(200, pricing));
    await client({ baseUrl: `${stub.baseUrl}/api/` }).getPricing();
    expect(stub.requests[0]!.url).toBe("/api/v1/public/pricing");
  });

  it("ignores unknown fields and keeps unknown status strings", async () => {
    stub.respond(json(200, { order: { ...order, status: "archived", shinyNewField: { a: 1 } } }));
    const got = await client().getOrder(KEY, ORDER_ID);
    expect(got.status).toBe("archived");
    expect(got.orderId).toBe(ORDER_ID);
  });

  it("turns an off-shape success body into client.bad_response carrying the raw body", async () => {
    const body = JSON.stringify({ ...pricing, tiers: "soon" });
    stub.respond(json(200, body));
    const e = await caught(client().getPricing());
    expect(e.code).toBe("client.bad_response");
    expect(e.status).toBe(200);
    expect(e.responseBody).toBe(body);
    expect(e.detail).toMatch(/tiers/);
    expect(stub.requests).toHaveLength(1);
  });

  it("turns a non-JSON success body into client.bad_response", async () => {
    stub.respond(text(200, "<html>maintenance</html>"));
    const e = await caught(client().getSystem());
    expect(e).toMatchObject({ code: "client.bad_response", status: 200, responseBody: "<html>maintenance</html>" });
  });

  it("turns an HTML error page into client.bad_error_body with its status and body", async () => {
    stub.respond(text(500, "<h1>Internal Server Error</h1>", { "x-request-id": "req-html-1" }));
    const e = await caught(client().getBalance(KEY));
    expect(e).toMatchObject({ code: "client.bad_error_body", status: 500, requestId: "req-html-1" });
    expect(e.responseBody).toContain("Internal Server Error");
    expect(stub.requests).toHaveLength(1);
  });

  it("turns a JSON error without a code into client.bad_error_body", async () => {
    stub.respond(json(400, { error: "bad" }));
    const e = await caught(client().getBalance(KEY));
    expect(e).toMatchObject({ code: "client.bad_error_body", status: 400, responseBody: '{"error":"bad"}' });
  });

  it("redacts an API key that a server echoes into its body or detail", async () => {
    stub.respond((req, res) => {
      res.writeHead(502, { "content-type": "text/plain" }).end(`upstream rejected ${req.headers.authorization}`);
    });
    const e1 = await caught(client({ maxAttempts: 1 }).getBalance(KEY));
    expect(e1.responseBody).toBe("upstream rejected Bearer [redacted]");

    stub.respond((req, res) => {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ code: "api_key.invalid", status: 401, detail: `unknown key ${String(req.headers.authorization)}` }));
    });
    const e2 = await caught(client().getBalance(KEY));
    expect(e2.code).toBe("api_key.invalid");
    for (const e of [e1, e2]) {
      expect(e.message).not.toContain(KEY);
      expect(e.detail ?? "").not.toContain(KEY);
      expect(e.responseBody ?? "").not.toContain(KEY);
      expect(JSON.stringify(e)).not.toContain(KEY);
    }
  });

  it("retries a gateway 502 on a GET but not on POST /v1/broadcasts, whose outcome is then unknown", async () => {
    stub.respond(text(502, "bad gateway"), json(200, pricing));
    await client().getPricing();
    expect(stub.requests).toHaveLength(2);

    stub.requests.length = 0;
    stub.respond(text(502, "bad gateway"));
    const e = await caught(client().createBroadcast({ txID: "ab" }, KEY));
    expect(e).toMatchObject({ code: "client.bad_error_body", status: 502 });
    expect(stub.requests).toHaveLength(1);
  });

  it("reads Retry-After given as an HTTP date", async () => {
    const date = new Date(Date.now() + 1500).toUTCString();
    stub.respond(json(429, { code: "rate_limited", status: 429, detail: "slow down" }, { "retry-after": date }));
    const e = await caught(client({ maxAttempts: 1 }).getPricing());
    expect(e.code).toBe("rate_limited");
    expect(e.retryAfterSec).toBeGreaterThanOrEqual(0);
    expect(e.retryAfterSec).toBeLessThanOrEqual(2);
  });

  it("refuses to buffer an answer over 4 MiB", async () => {
    stub.respond(text(200, "x".repeat(5 * 1024 * 1024)));
    const e = await caught(client().getPricing());
    expect(e.code).toBe("client.bad_response");
    expect(e.responseBody!.length).toBeLessThan(5000);
    expect(e.responseBody).toMatch(/truncated\]$/);
  });

  it("re-sends a broadcast whose connection was refused (it never left), up to maxAttempts", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const e = await caught(client({ baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 3 }).createBroadcast({ txID: "ab" }, KEY));
    expect(e).toMatchObject({ code: "client.connection_failed", status: 0 });
    expect(e.detail).toMatch(/ECONNREFUSED/);
    expect(events.at(-1)).toMatchObject({ endpoint: "POST /v1/broadcasts", outcome: "client.connection_failed", attempts: 3 });
  });

  it("does not re-send a broadcast whose connection dropped after it was sent", async () => {
    stub.respond((_req, res) => res.socket?.destroy());
    const e = await caught(client().createBroadcast({ txID: "ab" }, KEY));
    expect(e).toMatchObject({ code: "client.connection_failed", status: 0 });
    expect(e.outcomeUnknown).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });

  it("refuses a malformed API key locally as api_key.invalid, without echoing it", async () => {
    stub.respond(json(200, { availableSun: 1, depositAddress: null }));
    const bad = `${KEY}\r\nX-Evil: 1`;
    const e = await caught(client().getBalance(bad));
    expect(e).toMatchObject({ code: "api_key.invalid", status: 0 });
    expect(e.isKeyRejected).toBe(true);
    expect(e.message).not.toContain(KEY);
    const e2 = await caught(client().createBroadcast({}, ""));
    expect(e2.code).toBe("api_key.invalid");
    expect(stub.requests).toHaveLength(0);
  });

  it("survives an onCall hook that throws", async () => {
    stub.respond(json(200, pricing));
    const c = client({
      onCall: () => {
        throw new Error("metrics broke");
      },
    });
    await expect(c.getPricing()).resolves.toMatchObject({ baseUnitPriceSun: 90 });
  });

  it("reports each call to onCall with its endpoint template and outcome", async () => {
    stub.respond(json(200, { order }), json(404, { code: "not_found", status: 404, detail: "no such order" }));
    const c = client();
    await c.getOrder(KEY, ORDER_ID);
    await caught(c.getOrder(KEY, ORDER_ID.replace("6", "7")));
    expect(events.map(({ endpoint, outcome, attempts }) => ({ endpoint, outcome, attempts }))).toEqual([
      { endpoint: "GET /v1/orders/:id", outcome: "ok", attempts: 1 },
      { endpoint: "GET /v1/orders/:id", outcome: "not_found", attempts: 1 },
    ]);
    expect(events.every((e) => Number.isInteger(e.ms) && e.ms >= 0)).toBe(true);
  });

  it("rethrows the caller's abort reason", async () => {
    stub.respond(() => undefined); // never answers
    const controller = new AbortController();
    const reason = new Error("user left");
    const pending = client().getPricing({ signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    expect(events.at(-1)?.outcome).toBe("aborted");
  });
});
