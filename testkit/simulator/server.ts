import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticate, bearerToken, normalizeIp } from "./auth.js";
import type { BroadcastDesk } from "./broadcasts.js";
import type { SimContext, SimResponse } from "./context.js";
import { errorEnvelope, fail, SimError } from "./errors.js";
import type { FaultTable } from "./faults.js";
import { readBody, sendJson, sendText } from "./http-io.js";
import type { OrderBook } from "./orders.js";
import { systemSnapshot } from "./pricing.js";
import type { RateLimiter } from "./rate-limit.js";
import { hexId } from "./state/accounts.js";
import type { Fault, RequestLogEntry } from "./types.js";

export interface RouterDeps {
  ctx: SimContext;
  orders: OrderBook;
  broadcasts: BroadcastDesk;
  faults: FaultTable;
  rateLimiter: RateLimiter;
  requests: RequestLogEntry[];
  headerPrefix: string;
  errorsUrl: () => string;
}

interface Incoming {
  method: string;
  path: string;
  ip: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: unknown;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The endpoints of section 4. Unknown paths and methods answer 404 not_found. */
async function route(deps: RouterDeps, r: Incoming): Promise<SimResponse> {
  const { ctx } = deps;
  const auth = (optional = false) => authenticate(ctx.accounts, r.authorization, r.ip, optional);
  const idMatch = /^\/v1\/(orders|broadcasts)\/([^/]+)$/.exec(r.path);

  if (r.method === "GET" && r.path === "/v1/public/pricing") return { status: 200, body: ctx.pricing.record() };
  if (r.method === "GET" && r.path === "/v1/public/system") {
    return { status: 200, body: systemSnapshot(ctx.now(), deps.orders.reservedUnits()) };
  }
  if (r.method === "GET" && r.path === "/v1/balance") {
    const account = ctx.accounts.account(auth()!.accountId);
    if (!account.hasWallet) throw fail.notFound("This account has no wallet yet");
    return { status: 200, body: { availableSun: account.balanceSun, depositAddress: account.depositAddress } };
  }
  if (r.method === "POST" && r.path === "/v1/orders") return deps.orders.create(auth()!, r.idempotencyKey, r.body);
  if (r.method === "POST" && r.path === "/v1/broadcasts") return deps.broadcasts.submit(auth(true), r.body);
  if (r.method === "GET" && idMatch) {
    const key = auth()!;
    const id = decodeURIComponent(idMatch[2]!);
    if (idMatch[1] === "orders") return deps.orders.get(key, id);
    return deps.broadcasts.get(key, id);
  }
  throw fail.notFound(`No route for ${r.method} ${r.path}`);
}

function faultResponse(deps: RouterDeps, f: Extract<Fault, { kind: "status" }>, path: string, requestId: string): SimResponse {
  const extras = f.status === 429 ? { level: "api_key", retryAfterSec: f.retryAfterSec ?? 1 } : {};
  const retryAfter = f.retryAfterSec ?? (f.status === 429 ? 1 : undefined);
  return {
    status: f.status,
    body: errorEnvelope(deps.errorsUrl(), { status: f.status, code: f.code, detail: f.detail ?? `Injected ${f.code}`, extras }, path, requestId),
    headers: retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) },
  };
}

/** One request through faults → rate limit → body (413) → JSON → route → envelope. */
export function createRequestHandler(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((e: unknown) => {
      // A simulator bug must still answer with the envelope, never crash the process.
      const detail = e instanceof Error ? e.message : String(e);
      const body = errorEnvelope(deps.errorsUrl(), { status: 500, code: "internal_error", detail }, req.url ?? "/", "req_internal");
      sendJson(res, 500, body);
    });
  };
}

async function handle(deps: RouterDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const path = new URL(req.url ?? "/", "http://simulator.invalid").pathname;
  const requestId = `req_${hexId(8)}`;
  const authorization = header(req, "authorization");
  const idempotencyKey = header(req, "idempotency-key");
  let logged = false;
  const log = (status: number) => {
    if (logged) return;
    logged = true;
    deps.requests.push({
      method,
      path,
      status,
      hasAuth: authorization !== undefined,
      ...(authorization === undefined ? {} : { authorization }),
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      at: deps.ctx.now(),
    });
  };
  res.on("close", () => log(res.headersSent ? res.statusCode : 0));
  const send = (r: SimResponse) => {
    log(r.status);
    sendJson(res, r.status, r.body, { [`${deps.headerPrefix}-Request-Id`]: requestId, ...r.headers });
  };
  const sendError = (e: SimError) => send({ status: e.status, body: errorEnvelope(deps.errorsUrl(), e, path, requestId), headers: e.headers });

  const fault = deps.faults.take(method, path);
  if (fault?.kind === "reset" && !fault.afterProcessing) return void req.socket.destroy();
  if (fault?.kind === "hang" && !fault.afterProcessing) {
    log(0);
    return;
  }
  if (fault?.kind === "non_json") {
    log(fault.status);
    const text = fault.body ?? `<html><body><h1>${fault.status} Bad Gateway</h1></body></html>`;
    sendText(res, fault.status, text, fault.contentType);
    return;
  }
  if (fault?.kind === "status") {
    send(faultResponse(deps, fault, path, requestId));
    return;
  }
  if (fault?.kind === "delay" && !fault.afterProcessing) await deps.ctx.scheduler.sleep(fault.ms);

  const token = bearerToken(authorization);
  const ip = normalizeIp(req.socket.remoteAddress);
  const wait = deps.rateLimiter.take(token ?? `ip:${ip}`);
  if (wait > 0) {
    const level = token === undefined ? "ip" : "api_key";
    sendError(new SimError(429, "rate_limited", `Too many requests; retry after ${wait} s`, { level, retryAfterSec: wait }, { "Retry-After": String(wait) }));
    return;
  }

  const body = await readBody(req);
  if (!body.ok) {
    if (body.reason === "too_large") sendError(fail.bodyTooLarge());
    else req.socket.destroy();
    return;
  }
  let parsed: unknown;
  try {
    parsed = body.text.trim() === "" ? undefined : JSON.parse(body.text);
  } catch {
    sendError(fail.invalidField("Request body must be valid JSON"));
    return;
  }

  let result: SimResponse;
  try {
    result = await route(deps, { method, path, ip, authorization, idempotencyKey, body: parsed });
  } catch (e) {
    if (!(e instanceof SimError)) throw e;
    result = { status: e.status, body: errorEnvelope(deps.errorsUrl(), e, path, requestId), headers: e.headers };
  }
  if (fault?.kind === "reset") return void req.socket.destroy();
  if (fault?.kind === "delay" && fault.afterProcessing === true) await deps.ctx.scheduler.sleep(fault.ms);
  if (fault?.kind === "hang") {
    log(0);
    return;
  }
  send(result);
}
