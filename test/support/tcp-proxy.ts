/**
 * A loopback TCP proxy a test owns in front of a shared server (Postgres): stopping it is an
 * outage of that server for whoever connects through it (open connections and new ones reset),
 * and nobody else's connections are touched.
 */
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  start(): Promise<void>;
  /** Resets every open connection and each new one until `start`. */
  stop(): Promise<void>;
  /** Gives the port up. */
  close(): Promise<void>;
}

export interface TcpProxyOptions {
  /**
   * The proxy stops by itself (an outage) the first time a client sends these bytes: an outage
   * that hits at a known step of what the client does. Read per chunk; a short string fits in one.
   */
  stopOnceWhenSent?: string;
}

/**
 * Listens on a port of its own at once (port 0) and keeps it until `close`: "stopped" resets each connection as it
 * comes instead of giving the port up, so nothing else on the machine can take the port during an outage. It starts
 * stopped.
 */
export async function tcpProxy(target: { host: string; port: number }, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let up = false;
  let trigger = options.stopOnceWhenSent === undefined ? undefined : Buffer.from(options.stopOnceWhenSent);
  const server = createServer((client) => {
    if (!up) {
      client.resetAndDestroy();
      return;
    }
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const proxy: TcpProxy = {
    port: (server.address() as AddressInfo).port,
    start() {
      up = true;
      return Promise.resolve();
    },
    stop() {
      up = false;
      for (const socket of sockets) socket.resetAndDestroy();
      return Promise.resolve();
    },
    async close() {
      await proxy.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
