/**
 * A redis-server of a test's own, on a free loopback port, without persistence
 * (a restart comes back empty), so a test can kill it and start it again on the
 * same port. Undefined binary: the test skips with the reason.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { waitUntil } from "./wait.js";

/** Why redis-server cannot be used here, or undefined when it can. */
export function redisServerMissing(): string | undefined {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error ? `redis-server is not installed (${probe.error.message})` : undefined;
}

/** A port nothing listens on right now (the OS's choice). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Starts the server (again) on its port and resolves once it answers. */
  start(): Promise<void>;
  /** SIGKILL, as a crash would: nothing is saved. Resolves once the process is gone. */
  kill(): Promise<void>;
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const answers = () => spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.trim() === "PONG";
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
      child = proc;
      exited = new Promise((resolve) => proc.once("exit", () => resolve()));
      await waitUntil(() => answers() || (proc.exitCode !== null && "exited"), { what: `redis-server on port ${port}`, timeoutMs: 15_000, intervalMs: 50 }).then((v) => {
        if (v === "exited") throw new Error(`redis-server on port ${port} exited at start`);
      });
    },
    async kill() {
      if (child && child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
