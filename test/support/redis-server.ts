/**
 * A redis-server of a test's own, on a free loopback port, so a test can kill
 * it, start it again on the same port, or read the files it wrote. Without
 * `appendOnly` it keeps nothing (a restart comes back empty); with it, every
 * write goes to the append-only file in `dir` (fsynced, uncompressed, no RDB
 * snapshots), as the shipped docker-compose.yml runs Redis. A missing binary:
 * the test skips with the reason.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitUntil } from "./wait.js";

/** Why redis-server cannot be used here, or undefined when it can. */
export function redisServerMissing(): string | undefined {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  if (probe.error) return `redis-server is not installed (${probe.error.message})`;
  return probe.status === 0 ? undefined : `redis-server --version exited with ${String(probe.status)}`;
}

/**
 * A port nothing listens on right now, below the range the OS hands out for `listen(0)` and outgoing connections:
 * a server a test stops and starts again on it (its own redis-server) cannot find it taken by another test's
 * listener or by a connection's local port in between.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  const high = Math.min(ephemeralLow ?? 32_768, 32_768);
  const low = 20_000;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + randomInt(high - low);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (!bound) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Where the server keeps its files (appendonlydir/ with `appendOnly`). */
  readonly dir: string;
  /** Starts the server (again) on its port and resolves once it answers. */
  start(): Promise<void>;
  /** SIGKILL, as a crash would. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as an operator would, then removes `dir`. */
  stop(): Promise<void>;
}

export async function ownRedis(options: { appendOnly?: boolean } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "own-redis-"));
  const persistence = options.appendOnly ? ["--appendonly", "yes", "--appendfsync", "always", "--rdbcompression", "no"] : ["--appendonly", "no"];
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...persistence];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const answers = () => spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.trim() === "PONG";
  async function end(signal: NodeJS.Signals): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    async start() {
      const proc = spawn("redis-server", args, { stdio: "ignore" });
      child = proc;
      exited = new Promise((resolve) => proc.once("exit", () => resolve()));
      const started = await waitUntil(() => answers() || (proc.exitCode !== null && "exited"), {
        what: `redis-server on port ${port}`,
        timeoutMs: 15_000,
        intervalMs: 50,
      });
      if (started === "exited") throw new Error(`redis-server on port ${port} exited at start`);
    },
    kill: () => end("SIGKILL"),
    async stop() {
      await end("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
