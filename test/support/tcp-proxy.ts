/**
 * A loopback TCP proxy a test owns in front of a shared server (Postgres): stopping it is an
 * outage of that server for whoever connects through it (connections reset, new ones refused),
 * and nobody else's connections are touched.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  start(): Promise<void>;
  /** Refuses new connections and resets every open one. */
  stop(): Promise<void>;
}

export interface TcpProxyOptions {
  /**
   * The proxy stops by itself (an outage) the first time a client sends these bytes: an outage
   * that hits at a known step of what the client does. Read per chunk; a short string fits in one.
   */
  stopOnceWhenSent?: string;
}

export function tcpProxy(port: number, target: { host: string; port: number }, options: TcpProxyOptions = {}): TcpProxy {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let trigger = options.stopOnceWhenSent === undefined ? undefined : Buffer.from(options.stopOnceWhenSent);
  const proxy: TcpProxy = {
    port,
    async start() {
      const s = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.on("data", (chunk: Buffer) => {
          if (trigger && chunk.includes(trigger)) {
            trigger = undefined;
            void proxy.stop();
            return;
          }
          upstream.write(chunk);
        });
        client.on("end", () => upstream.end());
        upstream.pipe(client);
      });
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(port, "127.0.0.1", () => resolve());
      });
    },
    async stop() {
      const s = server;
      server = undefined;
      for (const socket of sockets) socket.resetAndDestroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  return proxy;
}
