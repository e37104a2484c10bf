/**
 * The real entry as a user runs it: `npm start` with environment variables
 * only, against the service simulator and the fake Bot API on loopback.
 * The global setup builds once (`npm run build`); the runs then use
 * `npm start --ignore-scripts` so the prestart build is not repeated for
 * every spawn (npm still runs the `start` script itself). Where npm itself is
 * not what a test is about, it starts what `npm start` runs, `node dist/main.js`,
 * directly. The tests are independent processes and run concurrently.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { startArgs } from "../testkit/start-command.js";
import { waitUntil } from "./support/wait.js";

const ROOT = join(import.meta.dirname, "..");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

let tg: FakeTelegram;
let sim: Simulator;
let dir: string;
const spawned: ChildProcess[] = [];

/** Only what a user's shell would pass; nothing of the test runner's environment. */
function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "TMPDIR", "npm_config_cache"];
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
}

let stores = 0;

/** A store of its own per run: the tests run concurrently. */
function botEnv(): Record<string, string> {
  stores += 1;
  return {
    ...baseEnv(),
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, `bot-${stores}.sqlite`)}`,
    HTTP_HOST: "127.0.0.1",
    HTTP_PORT: "0",
  };
}

interface Run {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function npmStart(env: Record<string, string>, extra: string[] = [], withPrestart = false): Run {
  return launch(NPM, ["start", ...(withPrestart ? [] : ["--ignore-scripts"]), ...extra], env);
}

/** What the `start` script runs (`exec node [flags] dist/main.js`), without npm around it. */
function nodeMain(env: Record<string, string>): Run {
  return launch(process.execPath, startArgs(ROOT), env);
}

function launch(command: string, args: string[], env: Record<string, string>): Run {
  // detached: the child leads its own process group, so the test can see (and clean up) everything it started.
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  spawned.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  // "close", not "exit": the exit can be reported before the last of its output was read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Live pids of a process group (ps lists zombies too; those are not running). */
function groupPids(pgid: number): number[] {
  let out: string;
  try {
    out = execFileSync("ps", ["-o", "pid=,stat=", "-g", String(pgid)], { encoding: "utf8" });
  } catch {
    return []; // ps exits 1 when nothing matches
  }
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && stat && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  tg = await startFakeTelegram();
  sim = await startSimulator();
  dir = mkdtempSync(join(tmpdir(), "main-process-"));
});

afterAll(async () => {
  for (const c of spawned) {
    if (c.pid !== undefined && groupPids(c.pid).length > 0) {
      try {
        process.kill(-c.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
  await tg?.close();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent("npm start (the built entry, environment variables only)", () => {
  it("answers /start, and SIGTERM to npm ends every process it started within 10 s", async () => {
    const run = npmStart(botEnv());
    const pgid = run.child.pid!;
    // Wait for polling: the bot deletes any webhook right before its first getUpdates.
    await waitUntil(() => tg.callsOf("getUpdates").length > 0, { what: "the bot's first getUpdates", timeoutMs: 30_000, intervalMs: 50 }).catch(
      (error: unknown) => {
        throw new Error(`the bot never polled:\n${run.output().stderr}\n${run.output().stdout}`, { cause: error });
      },
    );
    const reply = tg.waitForBotMessage(5001, 15_000);
    tg.enqueue(tg.text(5001, "/start"));
    expect((await reply).text).toContain("User5001");

    const pids = groupPids(pgid);
    expect(pids.length).toBeGreaterThanOrEqual(2); // npm and node (and possibly sh between them)
    const signalledAt = Date.now();
    process.kill(pgid, "SIGTERM"); // npm only, as a process manager would
    const exit = await Promise.race([run.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
    expect(exit, "npm did not exit within 10 s of SIGTERM").not.toBe("timeout");
    await waitUntil(() => !pids.some(alive), { timeoutMs: Math.max(0, signalledAt + 10_000 - Date.now()), intervalMs: 50 }).catch(() => undefined);
    expect(pids.filter(alive), "processes still running 10 s after SIGTERM").toEqual([]);
    expect(groupPids(pgid)).toEqual([]);
    expect(run.output().stdout).toMatch(/"msg":"stopped"/);
    expect(run.output().stdout).not.toMatch(/"level":50|"level":60/);
  }, 60_000);

  const cases: { name: string; env: (e: Record<string, string>) => Record<string, string>; variable: string; secret?: string }[] = [
    { name: "BOT_TOKEN is missing", env: ({ BOT_TOKEN: _, ...e }) => e, variable: "BOT_TOKEN" },
    { name: "BOT_TOKEN is malformed", env: (e) => ({ ...e, BOT_TOKEN: "secret-token-value-XYZZY" }), variable: "BOT_TOKEN", secret: "XYZZY" },
    {
      name: "ENCRYPTION_KEY is not 32 bytes",
      env: (e) => ({ ...e, ENCRYPTION_KEY: "c2hvcnQtc2VjcmV0LVBMVUdI" }),
      variable: "ENCRYPTION_KEY",
      secret: "c2hvcnQtc2VjcmV0LVBMVUdI",
    },
    {
      name: "ENCRYPTION_KEY_PREVIOUS is bad",
      env: (e) => ({ ...e, ENCRYPTION_KEY_PREVIOUS: "old-secret-QUUX" }),
      variable: "ENCRYPTION_KEY_PREVIOUS",
      secret: "QUUX",
    },
    { name: "SERVICE_BASE_URL is missing", env: ({ SERVICE_BASE_URL: _, ...e }) => e, variable: "SERVICE_BASE_URL" },
    {
      name: "STORAGE_URL has an unknown scheme",
      env: (e) => ({ ...e, STORAGE_URL: "mysql://user:pw-SECRET42@db/bot" }),
      variable: "STORAGE_URL",
      secret: "SECRET42",
    },
    { name: "HTTP_PORT is not a port", env: (e) => ({ ...e, HTTP_PORT: "99999" }), variable: "HTTP_PORT" },
    {
      name: "BOT_MODE=webhook has no TELEGRAM_WEBHOOK_SECRET (it would run open)",
      env: (e) => ({ ...e, BOT_MODE: "webhook", PUBLIC_URL: "https://bot.example.test" }),
      variable: "TELEGRAM_WEBHOOK_SECRET",
    },
    { name: "METRICS_TOKEN is too short", env: (e) => ({ ...e, METRICS_TOKEN: "short-PLUGH" }), variable: "METRICS_TOKEN", secret: "PLUGH" },
  ];

  // loadConfig also reads ./.env: a developer's file would fill in the "missing" variables.
  const hasDotEnv = existsSync(join(ROOT, ".env"));
  if (hasDotEnv) console.warn("main-process.slow.test: ./.env exists, so the missing-variable cases are skipped");
  for (const c of cases) {
    it.skipIf(hasDotEnv && c.name.endsWith("missing"))(
      `exits non-zero with one line naming the variable when ${c.name}`,
      async () => {
        const run = nodeMain(c.env(botEnv()));
        const exit = await run.exited;
        const { stdout, stderr } = run.output();
        expect(exit.code).not.toBe(0);
        expect(exit.code).not.toBeNull();
        const lines = stderr.split("\n").filter((l) => l.trim() !== "");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(c.variable);
        expect(stdout.trim()).toBe("");
        if (c.secret) expect(stderr + stdout).not.toContain(c.secret);
      },
      30_000,
    );
  }

  it.skipIf(hasDotEnv)(
    "without --silent, npm's own lines aside, the error is still one line",
    async () => {
      const { BOT_TOKEN: _, ...env } = botEnv();
      const run = npmStart(env);
      const exit = await run.exited;
      expect(exit.code).not.toBe(0);
      const own = run
        .output()
        .stderr.split("\n")
        .filter((l) => l.trim() !== "" && !l.startsWith("npm "));
      expect(own).toHaveLength(1);
      expect(own[0]).toMatch(/^Configuration error: BOT_TOKEN is required\. Copy \.env\.example to \.env/);
    },
    30_000,
  );

  it.skipIf(hasDotEnv)(
    "lists every missing and invalid variable in one line, pointing to .env.example and npm run sandbox",
    async () => {
      const { BOT_TOKEN: _t, SERVICE_BASE_URL: _s, ENCRYPTION_KEY: _k, ...env } = botEnv();
      const run = npmStart({ ...env, HTTP_PORT: "99999", METRICS_TOKEN: "short-PLUGH" }, ["--silent"]);
      const exit = await run.exited;
      expect(exit.code).toBe(1);
      const lines = run
        .output()
        .stderr.split("\n")
        .filter((l) => l.trim() !== "");
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      for (const variable of ["BOT_TOKEN is required", "SERVICE_BASE_URL is required", "ENCRYPTION_KEY is required", "HTTP_PORT", "METRICS_TOKEN"]) {
        expect(line).toContain(variable);
      }
      expect(line).toContain(".env.example");
      expect(line).toContain("npm run sandbox");
      expect(line).not.toContain("PLUGH");
      expect(line).not.toContain("99999");
    },
    30_000,
  );

  it('a token Telegram refuses (401 to getMe) ends with one line "Telegram refused BOT_TOKEN" and exit code 5', async () => {
    const wrongToken = `${tg.botInfo.id}:${randomBytes(18).toString("base64url")}-WRONG`;
    const run = nodeMain({ ...botEnv(), BOT_TOKEN: wrongToken });
    const exit = await run.exited;
    const { stdout, stderr } = run.output();
    expect(exit.code).toBe(5);
    const lines = stderr.split("\n").filter((l) => l.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Telegram refused BOT_TOKEN: getMe at http:\/\/127\.0\.0\.1:\d+ answered 401 Unauthorized/);
    expect(stdout + stderr).not.toContain(wrongToken.split(":")[1]);
    expect(stdout).toMatch(/"msg":"stopped"/);
  }, 30_000);

  it("an unreachable Telegram is logged with the API root tried (never the token) and retried; /healthz stays 200, /readyz 503", async () => {
    // A port below the ephemeral range: no other test's listen(0) can take it between two attempts.
    const apiRoot = "http://127.0.0.1:1";
    const env: Record<string, string> = { ...botEnv(), TELEGRAM_API_ROOT: apiRoot };
    const tokenSecret = (env["BOT_TOKEN"] ?? "").split(":")[1]!;
    const run = nodeMain(env);
    const logs = () =>
      run
        .output()
        .stdout.split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const unreachable = () => logs().filter((l) => typeof l["msg"] === "string" && l["msg"].startsWith(`Telegram unreachable at ${apiRoot} (getMe: `));
    // The process's start comes first: the same safety net as the first getUpdates above.
    await vi.waitFor(() => expect(unreachable().length).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 50 });
    expect(unreachable()[0]).toMatchObject({ level: 40, apiRoot, method: "getMe", attempt: 1, retryInMs: 1000 });
    expect(String(unreachable()[0]!["reason"])).toContain("ECONNREFUSED");
    // The retry, after the backoff.
    await vi.waitFor(() => expect(unreachable().map((l) => l["attempt"])).toContain(2), { timeout: 15_000, interval: 50 });
    expect(unreachable().find((l) => l["attempt"] === 2)).toMatchObject({ retryInMs: 2000 });

    const httpPort = logs().find((l) => l["msg"] === "http server listening")?.["port"] as number;
    expect((await fetch(`http://127.0.0.1:${httpPort}/healthz`)).status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not_ready", telegram: "down" });

    process.kill(run.child.pid!, "SIGTERM");
    const exit = await run.exited;
    expect(exit.code).toBe(0);
    expect(run.output().stdout).toMatch(/"msg":"stopped"/);
    expect(run.output().stdout + run.output().stderr).not.toContain(tokenSecret);
  }, 60_000);

  it.skipIf(hasDotEnv)(
    "npm start does not compile again when dist/ matches the sources (the prestart runs no tsc)",
    async () => {
      const mainJs = join(ROOT, "dist", "main.js");
      const before = statSync(mainJs, { bigint: true }).mtimeNs;
      const { BOT_TOKEN: _, ...env } = botEnv();
      const run = npmStart(env, ["--silent"], true); // the prestart runs
      const exit = await run.exited;
      expect(exit.code).toBe(1);
      expect(run.output().stderr).not.toContain("build: compiling");
      expect(run.output().stderr).toMatch(/^Configuration error: BOT_TOKEN is required/);
      expect(statSync(mainJs, { bigint: true }).mtimeNs).toBe(before);
    },
    30_000,
  );
});
