import { Pool } from "undici";
import type { ZodType } from "zod";
import { CLIENT_ERROR_CODES, ServiceError } from "./errors.js";
import { errorEnvelopeSchema, type ErrorEnvelope } from "./schemas.js";

/**
 * One HTTP attempt against the service: send, read (bounded), parse with a
 * schema, or throw. This is the only place that builds `ServiceError`.
 */

/** Larger answers are not the service talking; refuse to buffer them. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Raw bodies kept on errors are for diagnosis, not archival. */
const MAX_KEPT_BODY_CHARS = 4096;

export interface HttpTransportDeps {
  baseUrl: string;
  userAgent: string;
  /** Upper bound for establishing a TCP connection. */
  connectTimeoutMs: number;
  connections?: number;
}

export interface AttemptSpec<T> {
  method: "GET" | "POST";
  /** Concrete path under the base URL, e.g. `/v1/orders/65f0...`. */
  path: string;
  apiKey?: string | undefined;
  idempotencyKey?: string | undefined;
  /** Serialized JSON body (POST). */
  body?: string | undefined;
  schema: ZodType<T>;
  /** Budget of this attempt, headers and body included. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface AttemptResult<T> {
  status: number;
  data: T;
}

export interface HttpTransport {
  attempt<T>(spec: AttemptSpec<T>): Promise<AttemptResult<T>>;
  close(): Promise<void>;
}

export function createHttpTransport(deps: HttpTransportDeps): HttpTransport {
  const base = new URL(deps.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const pool = new Pool(base.origin, {
    connections: deps.connections ?? 32,
    // Below the common 5 s server idle timeout: a POST /v1/broadcasts written to a
    // socket the server is closing fails with an unknown outcome and cannot be resent.
    keepAliveTimeout: 4_000,
    connect: { timeout: deps.connectTimeoutMs },
  });
  let closing: Promise<void> | undefined;

  async function attempt<T>(spec: AttemptSpec<T>): Promise<AttemptResult<T>> {
    const { method, path, apiKey } = spec;
    const headers: Record<string, string> = { accept: "application/json", "user-agent": deps.userAgent };
    if (apiKey !== undefined) headers["authorization"] = `Bearer ${apiKey}`;
    if (spec.idempotencyKey !== undefined) headers["idempotency-key"] = spec.idempotencyKey;
    if (spec.body !== undefined) headers["content-type"] = "application/json";

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs);
    const onCallerAbort = () => controller.abort();
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });

    try {
      const response = await pool.request({
        method,
        path: basePath + path,
        headers,
        body: spec.body ?? null,
        signal: controller.signal,
        headersTimeout: spec.timeoutMs,
        bodyTimeout: spec.timeoutMs,
      });
      const status = response.statusCode;
      const text = await readBounded(response.body);
      const retryAfterSec = parseRetryAfter(response.headers["retry-after"]);
      const headerRequestId = requestIdHeader(response.headers);
      return interpret(spec, status, text, retryAfterSec, headerRequestId);
    } catch (error) {
      if (ServiceError.isInstance(error)) throw error;
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (timedOut || isTimeoutError(error)) {
        throw new ServiceError({
          code: CLIENT_ERROR_CODES.timeout,
          status: 0,
          detail: `no complete answer within ${spec.timeoutMs} ms`,
          method,
          path,
          cause: error,
        });
      }
      throw new ServiceError({
        code: CLIENT_ERROR_CODES.connection,
        status: 0,
        detail: redact(describeCause(error), apiKey),
        method,
        path,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  return {
    attempt,
    close() {
      closing ??= pool.close();
      return closing;
    },
  };
}

function interpret<T>(
  spec: AttemptSpec<T>,
  status: number,
  text: string,
  retryAfterSec: number | undefined,
  headerRequestId: string | undefined,
): AttemptResult<T> {
  const { method, path, apiKey } = spec;
  const json = parseJson(text);
  if (status >= 200 && status < 300) {
    const parsed = json.ok ? spec.schema.safeParse(json.value) : undefined;
    if (parsed?.success) return { status, data: parsed.data };
    throw new ServiceError({
      code: CLIENT_ERROR_CODES.badResponse,
      status,
      detail: parsed ? `unexpected response shape: ${summarizeIssues(parsed.error.issues)}` : "response is not JSON",
      requestId: headerRequestId,
      method,
      path,
      responseBody: keepBody(text, apiKey),
      cause: parsed?.error,
    });
  }
  const envelope = json.ok ? errorEnvelopeSchema.safeParse(json.value) : undefined;
  if (status >= 400 && envelope?.success) {
    throwEnvelope(status, envelope.data, retryAfterSec, headerRequestId, spec);
  }
  throw new ServiceError({
    code: CLIENT_ERROR_CODES.badErrorBody,
    status,
    detail: status >= 400 ? "error answer without the documented envelope" : `unexpected status ${status}`,
    requestId: headerRequestId,
    retryAfterSec,
    method,
    path,
    responseBody: keepBody(text, apiKey),
  });
}

function throwEnvelope(
  status: number,
  e: ErrorEnvelope,
  retryAfterSec: number | undefined,
  headerRequestId: string | undefined,
  spec: AttemptSpec<unknown>,
): never {
  throw new ServiceError({
    code: e.code,
    status,
    detail: e.detail === undefined ? undefined : redact(e.detail, spec.apiKey),
    requestId: e.requestId ?? headerRequestId,
    method: spec.method,
    path: spec.path,
    requiredSun: e.requiredSun,
    seenIp: e.seenIp,
    // The envelope member is more precise than the whole-second header when both exist.
    retryAfterSec: e.retryAfterSec ?? retryAfterSec,
    level: e.level,
    broadcastId: e.broadcastId,
  });
}

/** A ServiceError for a request refused before anything was sent (bad id, oversized body...). */
export function localError(code: string, detail: string, method: string, path: string): ServiceError {
  return new ServiceError({ code, status: 0, detail, method, path });
}

const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * True when the request provably never reached the service (no connection
 * was made), so even a non-idempotent POST may be sent again.
 */
export function wasNeverSent(error: ServiceError): boolean {
  if (error.code !== CLIENT_ERROR_CODES.connection) return false;
  const codes = causeCodes(error.cause);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

function causeCodes(cause: unknown): string[] {
  if (typeof cause !== "object" || cause === null) return [];
  const c = cause as { code?: unknown; errors?: unknown };
  if (Array.isArray(c.errors) && c.errors.length > 0) return c.errors.flatMap((inner) => causeCodes(inner));
  return typeof c.code === "string" ? [c.code] : [];
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

function describeCause(error: unknown): string {
  const codes = causeCodes(error);
  const message = error instanceof Error ? error.message : String(error);
  return codes.length > 0 ? `${[...new Set(codes)].join(", ")}: ${message}` : message;
}

async function readBounded(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      // Leaving the loop destroys the stream; the socket is not reused.
      chunks.push(Buffer.from("…[truncated]"));
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** `X-Request-Id`, or the service's branded `X-<Brand>-Request-Id`. */
function requestIdHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const name = Object.keys(headers).find((h) => h === "x-request-id" || /^x-[a-z0-9]+-request-id$/.test(h));
  return name === undefined ? undefined : headerValue(headers[name]);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `Retry-After` is delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(raw: string | string[] | undefined, nowMs = Date.now()): number | undefined {
  const value = headerValue(raw)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function summarizeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

function keepBody(text: string, apiKey: string | undefined): string {
  const clean = redact(text, apiKey);
  return clean.length > MAX_KEPT_BODY_CHARS ? `${clean.slice(0, MAX_KEPT_BODY_CHARS)}…[truncated]` : clean;
}

/** A misbehaving server or proxy may echo the Authorization header; it must not reach our logs. */
function redact(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.replaceAll(apiKey, "[redacted]") : text;
}
