import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../testkit/simulator/index.js";
import { waitUntil } from "../support/wait.js";

/** Fast defaults for tests: short lifecycle steps and webhook retries. */
export function startTestSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ orderStepMs: 30, broadcastStepMs: 30, webhookRetryBaseMs: 20, ...options });
}

export interface CallOptions {
  apiKey?: string;
  body?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary response fields
  json: any;
  text: string;
}

export async function call(sim: Simulator, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.apiKey !== undefined) headers["authorization"] = `Bearer ${o.apiKey}`;
  if (o.idempotencyKey !== undefined) headers["idempotency-key"] = o.idempotencyKey;
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await request(`${sim.baseUrl}${path}`, { method: method as "GET", headers, body: body ?? null });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json, text };
}

/** Waits until `fn` returns a value other than undefined/false (a state wait, not a timing assertion). */
export function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5_000): Promise<T> {
  return waitUntil(fn, { timeoutMs, intervalMs: 10 });
}

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Statuses to answer in turn; the last one repeats. Default [200]. */
  respondWith(statuses: number[]): void;
  close(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  let statuses = [200];
  let i = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = statuses[Math.min(i, statuses.length - 1)]!;
      i += 1;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respondWith(s) {
      statuses = s;
      i = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
