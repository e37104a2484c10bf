import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type StubHandler = (req: StubRequest, res: ServerResponse) => void;

export interface StubServer {
  baseUrl: string;
  requests: StubRequest[];
  /** Answers the next requests in order; the last handler keeps answering. */
  respond(...handlers: StubHandler[]): void;
  close(): Promise<void>;
}

/**
 * A tiny loopback HTTP server for answers the simulator never gives on purpose
 * (off-shape bodies, proxies' HTML pages, echoed headers).
 */
export async function startStubServer(): Promise<StubServer> {
  const requests: StubRequest[] = [];
  let handlers: StubHandler[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(entry);
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
      if (!handler) {
        res.writeHead(500).end();
        return;
      }
      handler(entry, res);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    respond(...next) {
      handlers = next;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): StubHandler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): StubHandler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "text/html", ...headers }).end(body);
  };
}
