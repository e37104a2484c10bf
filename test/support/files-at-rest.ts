/**
 * What a store left on disk, for tests that look for plaintext in it: every
 * file under a folder (SQLite's main file, -wal and -shm; a Redis server's
 * AOF), and a redis-server of the test's own whose AOF it can read.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { waitUntil } from "./wait.js";

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return filesUnder(path);
    return stat.isFile() ? [path] : [];
  });
}

/** Which of `needles` occur in which of `files` (bytes as UTF-8), as "needle-label in path". */
export function findInFiles(files: readonly string[], needles: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const [label, needle] of needles) if (bytes.includes(Buffer.from(needle, "utf8"))) found.push(`${label} in ${file}`);
  }
  return found;
}

/** Which of `needles` occur in `text`, by label. */
export function findInText(text: string, needles: ReadonlyMap<string, string>): string[] {
  return [...needles].filter(([, needle]) => text.includes(needle)).map(([label]) => label);
}

export interface OwnRedis {
  url: string;
  /** Where the server keeps its files (appendonlydir/). */
  dir: string;
  stop(): Promise<void>;
}

/** Why no redis-server of our own can run here, or undefined when one can. */
export function ownRedisUnavailable(): string | undefined {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error === undefined && probe.status === 0 ? undefined : "the redis-server binary is not installed";
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * A redis-server on a free loopback port with the append-only file on (every
 * write fsynced, nothing compressed, no RDB snapshots), as the shipped
 * docker-compose.yml runs Redis: what it keeps is in `dir`.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), "own-redis-"));
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--rdbcompression", "no", "--daemonize", "no"];
  const child: ChildProcess = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${String(port)}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
      const client = createClient({ url });
      client.on("error", () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      } finally {
        await client.close().catch(() => undefined);
      }
    },
    { what: "our own redis-server to answer", timeoutMs: 15_000, intervalMs: 50 },
  );
  return {
    url,
    dir,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
