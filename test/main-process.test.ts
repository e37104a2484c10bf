/**
 * The real entry as a user runs it: `npm start` with environment variables
 * only, against the service simulator and the fake Bot API on loopback.
 * The global setup builds once (`npm run build`); the runs then use
 * `npm start --ignore-scripts` so the prestart build is not repeated for
 * every spawn (npm still runs the `start` script itself).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../src/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "./support/fake-telegram.js";

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

function botEnv(): Record<string, string> {
  return {
    ...baseEnv(),
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
    HTTP_HOST: "127.0.0.1",
    HTTP_PORT: "0",
  };
}

function npmStart(env: Record<string, string>, extra: string[] = []): { child: ChildProcess; output: () => { stdout: string; stderr: string }; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  // detached: npm leads its own process group, so the test can see (and clean up) everything it started.
  const child = spawn(NPM, ["start", "--ignore-scripts", ...extra], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  spawned.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
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

describe("npm start (the built entry, environment variables only)", () => {
  it("answers /start, and SIGTERM to npm ends every process it started within 10 s", async () => {
    const run = npmStart(botEnv());
    const pgid = run.child.pid!;
    // Wait for polling: the bot deletes any webhook right before its first getUpdates.
    const deadline = Date.now() + 30_000;
    while (tg.callsOf("getUpdates").length === 0) {
      if (Date.now() > deadline) throw new Error(`the bot never polled:\n${run.output().stderr}\n${run.output().stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const reply = tg.waitForBotMessage(5001, 15_000);
    tg.enqueue(tg.text(5001, "/start"));
    expect((await reply).text).toContain("User5001");

    const pids = groupPids(pgid);
    expect(pids.length).toBeGreaterThanOrEqual(2); // npm and node (and possibly sh between them)
    const signalledAt = Date.now();
    process.kill(pgid, "SIGTERM"); // npm only, as a process manager would
    const exit = await Promise.race([run.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
    expect(exit, "npm did not exit within 10 s of SIGTERM").not.toBe("timeout");
    while (pids.some(alive) && Date.now() - signalledAt < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(alive), "processes still running 10 s after SIGTERM").toEqual([]);
    expect(groupPids(pgid)).toEqual([]);
    expect(run.output().stdout).toMatch(/"msg":"stopped"/);
    expect(run.output().stdout).not.toMatch(/"level":50|"level":60/);
  }, 60_000);

  const cases: { name: string; env: (e: Record<string, string>) => Record<string, string>; variable: string; secret?: string }[] = [
    { name: "BOT_TOKEN is missing", env: ({ BOT_TOKEN: _, ...e }) => e, variable: "BOT_TOKEN" },
    { name: "BOT_TOKEN is malformed", env: (e) => ({ ...e, BOT_TOKEN: "secret-token-value-XYZZY" }), variable: "BOT_TOKEN", secret: "XYZZY" },
    { name: "ENCRYPTION_KEY is not 32 bytes", env: (e) => ({ ...e, ENCRYPTION_KEY: "c2hvcnQtc2VjcmV0LVBMVUdI" }), variable: "ENCRYPTION_KEY", secret: "c2hvcnQtc2VjcmV0LVBMVUdI" },
    { name: "ENCRYPTION_KEY_PREVIOUS is bad", env: (e) => ({ ...e, ENCRYPTION_KEY_PREVIOUS: "old-secret-QUUX" }), variable: "ENCRYPTION_KEY_PREVIOUS", secret: "QUUX" },
    { name: "SERVICE_BASE_URL is missing", env: ({ SERVICE_BASE_URL: _, ...e }) => e, variable: "SERVICE_BASE_URL" },
    { name: "STORAGE_URL has an unknown scheme", env: (e) => ({ ...e, STORAGE_URL: "mysql://user:pw-SECRET42@db/bot" }), variable: "STORAGE_URL", secret: "SECRET42" },
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
  if (hasDotEnv) console.warn("main-process.test: ./.env exists, so the missing-variable cases are skipped");
  for (const c of cases) {
    it.skipIf(hasDotEnv && c.name.endsWith("missing"))(`exits non-zero with one line naming the variable when ${c.name}`, async () => {
      const run = npmStart(c.env(botEnv()), ["--silent"]);
      const exit = await run.exited;
      const { stdout, stderr } = run.output();
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      const lines = stderr.split("\n").filter((l) => l.trim() !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(c.variable);
      expect(stdout.trim()).toBe("");
      if (c.secret) expect(stderr + stdout).not.toContain(c.secret);
    }, 30_000);
  }

  it.skipIf(hasDotEnv)("without --silent, npm's own lines aside, the error is still one line", async () => {
    const { BOT_TOKEN: _, ...env } = botEnv();
    const run = npmStart(env);
    const exit = await run.exited;
    expect(exit.code).not.toBe(0);
    const own = run
      .output()
      .stderr.split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("npm "));
    expect(own).toEqual(["Configuration error: BOT_TOKEN is required"]);
  }, 30_000);
});
