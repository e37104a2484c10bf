import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CLIENT_ERROR_CODES,
  isKnownErrorCode,
  KNOWN_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  ServiceError,
  type ServiceErrorInit,
  type ServiceErrorJSON,
} from "../../../src/platform/service/errors.js";

const FIELDS = [
  "code",
  "status",
  "detail",
  "requestId",
  "method",
  "path",
  "requiredSun",
  "seenIp",
  "retryAfterSec",
  "level",
  "broadcastId",
  "responseBody",
  "message",
  "name",
] as const;
const fieldsOf = (e: ServiceError) => Object.fromEntries(FIELDS.map((f) => [f, e[f]]));

const text = fc.string({ maxLength: 40 });
const code = fc.oneof(fc.constantFrom(...KNOWN_ERROR_CODES), fc.stringMatching(/^[a-z_]{1,12}(\.[a-z_]{1,12})?$/));
const init: fc.Arbitrary<ServiceErrorInit> = fc.record(
  {
    code,
    status: fc.constantFrom(0, 200, 400, 401, 402, 403, 404, 409, 413, 418, 422, 429, 500, 502, 503, 504),
    detail: text,
    requestId: text,
    method: fc.constantFrom("GET", "POST"),
    path: text,
    requiredSun: fc.nat(),
    seenIp: text,
    retryAfterSec: fc.nat({ max: 3600 }),
    level: text,
    broadcastId: fc.stringMatching(/^[0-9a-f]{24}$/),
    responseBody: text,
  },
  { requiredKeys: ["code", "status"] },
);

const err = (code: string, status: number) => new ServiceError({ code, status });

describe("ServiceError as data", () => {
  it("toJSON then from gives back the same error, also through JSON text", () => {
    fc.assert(
      fc.property(init, (i) => {
        const e = new ServiceError({ ...i, cause: new Error("socket") });
        const back = ServiceError.from(e.toJSON());
        expect(fieldsOf(back)).toEqual(fieldsOf(e));
        expect(ServiceError.isInstance(back)).toBe(true);
        const viaText = ServiceError.from(JSON.parse(JSON.stringify(e)) as ServiceErrorJSON);
        expect(fieldsOf(viaText)).toEqual(fieldsOf(e));
        expect(viaText.toJSON()).toEqual(e.toJSON());
        for (const getter of ["isRetryable", "isUnavailable", "isNotFound", "outcomeUnknown", "isKeyRejected"] as const) {
          expect(back[getter]).toBe(e[getter]);
        }
      }),
    );
  });

  it("toJSON leaves out absent fields and the cause", () => {
    const json = new ServiceError({ code: "not_found", status: 404, cause: new Error("x") }).toJSON();
    expect(json).toEqual({ name: "ServiceError", code: "not_found", status: 404 });
  });

  it("from also reads the shape without a name", () => {
    const e = ServiceError.from({ code: "api_keys.ip_not_allowed", status: 403, seenIp: "203.0.113.9", requestId: "req_1" });
    expect(e).toMatchObject({ name: "ServiceError", code: "api_keys.ip_not_allowed", status: 403, seenIp: "203.0.113.9", requestId: "req_1" });
  });

  it("isInstance works on a plain object carrying the marker, and not on look-alikes", () => {
    expect(ServiceError.isInstance(err("not_found", 404))).toBe(true);
    expect(ServiceError.isInstance({ name: "ServiceError", code: "not_found", status: 404 })).toBe(false);
    expect(ServiceError.isInstance(new Error("not_found"))).toBe(false);
  });
});

describe("ServiceError knows its codes", () => {
  it("the known codes are section 7's and the client's, each once", () => {
    expect(KNOWN_ERROR_CODES).toHaveLength(new Set(KNOWN_ERROR_CODES).size);
    expect(KNOWN_ERROR_CODES).toEqual([...Object.keys(SERVICE_ERROR_STATUS), ...Object.values(CLIENT_ERROR_CODES)]);
    expect(isKnownErrorCode("teapot.brewing")).toBe(false);
    expect(isKnownErrorCode("rate_limited")).toBe(true);
  });

  it("isRetryable follows section 7's retry guidance", () => {
    const retryable = KNOWN_ERROR_CODES.filter(
      (c) => err(c, c in SERVICE_ERROR_STATUS ? SERVICE_ERROR_STATUS[c as keyof typeof SERVICE_ERROR_STATUS] : 0).isRetryable,
    );
    expect(retryable.sort()).toEqual(
      [
        "wallet.insufficient_balance",
        "order.receiver_undeliverable",
        "idempotency.in_progress",
        "rate_limited",
        "broadcast.upstream_unavailable",
        CLIENT_ERROR_CODES.timeout,
        CLIENT_ERROR_CODES.connection,
      ].sort(),
    );
    // Unknown codes go by status: 429 and 503 are "retry with backoff".
    expect(err("teapot.later", 429).isRetryable).toBe(true);
    expect(err("teapot.later", 503).isRetryable).toBe(true);
    expect(err("teapot.never", 422).isRetryable).toBe(false);
  });

  it("isUnavailable: no usable answer (unreachable, overloaded, off-shape, any 5xx)", () => {
    const unavailable = KNOWN_ERROR_CODES.filter(
      (c) => err(c, c in SERVICE_ERROR_STATUS ? SERVICE_ERROR_STATUS[c as keyof typeof SERVICE_ERROR_STATUS] : 0).isUnavailable,
    );
    expect(unavailable.sort()).toEqual(
      [
        "rate_limited",
        "broadcast.upstream_unavailable",
        CLIENT_ERROR_CODES.timeout,
        CLIENT_ERROR_CODES.connection,
        CLIENT_ERROR_CODES.badErrorBody,
        CLIENT_ERROR_CODES.badResponse,
      ].sort(),
    );
    expect(err("internal", 500).isUnavailable).toBe(true);
    expect(err("api_key.invalid", 401).isUnavailable).toBe(false);
  });

  it("isNotFound is not_found only", () => {
    expect(KNOWN_ERROR_CODES.filter((c) => err(c, 404).isNotFound)).toEqual(["not_found"]);
  });
});
