/**
 * A thin HTTP front for the fake Bot API (testkit/fake-telegram/fake-telegram.ts), on a
 * fixed or free loopback port. Everything is passed through unchanged except
 * `getUpdates`, which the front answers itself by short-polling the fake, so
 * that it knows which update ids were handed out: callers can wait for "the
 * bot has fetched my update" before waiting for its answer. Like Telegram
 * (and the fake itself), the newest long poll wins: a new getUpdates ends the
 * previous one with 409 and is served, and a poll whose client went away
 * stops waiting.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Update } from "grammy/types";
import type { FakeTelegram } from "./fake-telegram/fake-telegram.js";

export interface TelegramFront {
  /** `http://127.0.0.1:<port>`: use it as TELEGRAM_API_ROOT. */
  readonly apiRoot: string;
  readonly port: number;
  /** Queues an update for getUpdates and wakes the poller. */
  enqueue(update: Update): void;
  /** Resolves once getUpdates has handed out `updateId`; false after the deadline. */
  waitDelivered(updateId: number, timeoutMs: number): Promise<boolean>;
  /** Highest update id handed out so far (0 = none). */
  delivered(): number;
  close(): Promise<void>;
}

export interface TelegramFrontOptions {
  port?: number;
  /** Short-poll interval against the fake while a long poll waits (ms). */
  pollIntervalMs?: number;
}

interface Poll {
  res: ServerResponse;
  done: boolean;
  wake: () => void;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

function paramsOf(url: URL, type: string | undefined, body: Buffer): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
  if (body.length === 0) return params;
  if ((type ?? "").startsWith("application/json")) return { ...params, ...(JSON.parse(body.toString("utf8")) as Record<string, unknown>) };
  return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString("utf8"))) };
}

const intOf = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && v !== "" ? Number(v) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
};

export async function startTelegramFront(tg: FakeTelegram, options: TelegramFrontOptions = {}): Promise<TelegramFront> {
  const upstream = new URL(tg.apiRoot);
  const pollIntervalMs = options.pollIntervalMs ?? 50;
  let current: Poll | undefined;
  let deliveredMax = 0;
  const deliveryWaiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  function reply(res: ServerResponse, status: number, body: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function fetchUpstream(token: string, params: Record<string, unknown>): Promise<{ status: number; body: { ok: boolean; result?: Update[] } }> {
    const r = await fetch(`${tg.apiRoot}/bot${token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    return { status: r.status, body: (await r.json()) as { ok: boolean; result?: Update[] } };
  }

  async function getUpdates(token: string, params: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (current && !current.done) {
      current.done = true;
      reply(current.res, 409, {
        ok: false,
        error_code: 409,
        description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      });
      current.wake();
    }
    let wake = (): void => {};
    const poll: Poll = { res, done: false, wake: () => wake() };
    current = poll;
    res.on("close", () => {
      poll.done = true;
      poll.wake();
    });
    const timeoutSec = Math.min(intOf(params["timeout"]) ?? 0, 50);
    const deadline = Date.now() + timeoutSec * 1000;
    const shortParams: Record<string, unknown> = { ...params, timeout: 0 };
    for (;;) {
      const r = await fetchUpstream(token, shortParams);
      if (poll.done) return;
      const updates = r.body.result ?? [];
      if (!r.body.ok || updates.length > 0 || Date.now() >= deadline) {
        poll.done = true;
        if (current === poll) current = undefined;
        for (const u of updates) deliveredMax = Math.max(deliveredMax, u.update_id);
        for (const w of [...deliveryWaiters]) w();
        reply(res, r.status, r.body);
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (poll.done) return;
    }
  }

  function pass(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const up = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    // An answer lost upstream (the fake dropped the connection after applying the call) is lost here too.
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    up.end(body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        const body = await readBody(req);
        const m = /^\/bot([^/]+)\/getUpdates$/i.exec(url.pathname);
        if (m && m[1] === tg.token) {
          await getUpdates(m[1], paramsOf(url, req.headers["content-type"], body), res);
          return;
        }
        pass(req, res, body);
      } catch (error) {
        reply(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${(error as Error).message}` });
      }
    })();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    port,
    enqueue(update) {
      tg.enqueue(update);
      current?.wake();
    },
    delivered: () => deliveredMax,
    waitDelivered(updateId, timeoutMs) {
      if (deliveredMax >= updateId) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const check = (): void => {
          if (deliveredMax < updateId) return;
          finish(true);
        };
        const finish = (value: boolean): void => {
          clearTimeout(timer);
          deliveryWaiters.delete(check);
          resolve(value);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        deliveryWaiters.add(check);
      });
    },
    async close() {
      if (current && !current.done) {
        current.done = true;
        current.wake();
      }
      for (const w of [...deliveryWaiters]) w();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
