/**
 * The built bot (`node dist/main.js`, as `npm start` runs it) as a child
 * process of a test, with its pino lines parsed, its /readyz read, and its
 * exit awaited. The global setup builds dist/ once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { startArgs } from "../../testkit/start-command.js";
import { waitUntil } from "./wait.js";

const ROOT = join(import.meta.dirname, "..", "..");

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface BotProcess {
  readonly child: ChildProcess;
  logs(): LogLine[];
  stderr(): string;
  /** Every line, for a failure's message. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The HTTP port once the server listens. */
  httpPort(): Promise<number>;
  /** /readyz's status code and body. */
  readiness(): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface BotEnv {
  token: string;
  apiRoot: string;
  serviceBaseUrl: string;
  storageUrl: string;
  extra?: Record<string, string>;
}

export function startBotProcess({ token, apiRoot, serviceBaseUrl, storageUrl, extra = {} }: BotEnv): BotProcess {
  const env = {
    PATH: process.env["PATH"] ?? "",
    BOT_TOKEN: token,
    TELEGRAM_API_ROOT: apiRoot,
    SERVICE_BASE_URL: serviceBaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: storageUrl,
    HTTP_HOST: "127.0.0.1",
    HTTP_PORT: "0",
    LOG_LEVEL: "info",
    ...extra,
  };
  // detached: the child leads its own process group, so a test can clean up whatever it started.
  const child = spawn(process.execPath, startArgs(ROOT), { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const logs = (): LogLine[] =>
    stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);
  const httpPort = () =>
    waitUntil(() => logs().find((l) => l.msg === "http server listening")?.["port"] as number | undefined, {
      what: "the bot's HTTP server",
      timeoutMs: 60_000,
      intervalMs: 50,
    });
  return {
    child,
    logs,
    stderr: () => stderr,
    output: () => `${stdout}\n${stderr}`,
    exited,
    httpPort,
    async readiness() {
      // A probe that hangs (a starved process) fails and is asked again, as a load balancer's would be.
      const response = await fetch(`http://127.0.0.1:${await httpPort()}/readyz`, { signal: AbortSignal.timeout(5_000) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Ends a process group the test started, whatever state it is in. */
export function killGroup(bot: BotProcess): void {
  if (bot.child.pid === undefined || bot.child.exitCode !== null || bot.child.signalCode !== null) return;
  try {
    process.kill(-bot.child.pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
