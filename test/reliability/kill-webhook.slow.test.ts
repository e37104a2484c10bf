/**
 * kill -9 in BOT_MODE=webhook: the bot (`node dist/main.js`, built by the
 * global setup) dies while it handles an update Telegram was already told
 * it received. The next start handles that update, once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../../testkit/fake-telegram/fake-telegram.js";
import { waitFor } from "../app-harness.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SECRET = randomBytes(24).toString("hex");
const CHAT = 8801;

let tg: FakeTelegram;
let sim: Simulator;
let dir: string;
let env: Record<string, string>;
let botPort = 0;
const live = new Set<ChildProcess>();

beforeAll(async () => {
  tg = await startFakeTelegram();
  sim = await startSimulator();
  dir = mkdtempSync(join(tmpdir(), "kill-webhook-"));
  env = {
    PATH: process.env["PATH"] ?? "",
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
    HTTP_HOST: "127.0.0.1",
    // Each process takes a port of its own, read from its log: a fixed port, free before the kill,
    // may be another test's by the restart.
    HTTP_PORT: "0",
    PUBLIC_URL: "https://bot.example.test",
    BOT_MODE: "webhook",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    // A dead process's updates move after this: short, so the test need not wait the default 30 s.
    WEBHOOK_UPDATE_LEASE_MS: "1000",
    LOG_LEVEL: "info",
  };
});

afterAll(async () => {
  for (const child of [...live]) await kill(child);
  await tg?.close();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts the bot and resolves once it has registered its webhook. */
async function startBot(): Promise<ChildProcess> {
  const registered = tg.callsOf("setWebhook").length;
  const child = spawn(process.execPath, ["dist/main.js"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
  live.add(child);
  child.once("exit", () => live.delete(child));
  const started = await waitFor(
    () => (tg.callsOf("setWebhook").length > registered && listeningPort(out) !== undefined) || (child.exitCode !== null && `exited:\n${out}`),
    "the bot to set its webhook",
    30_000,
  );
  if (typeof started === "string") throw new Error(started);
  botPort = listeningPort(out)!;
  return child;
}

function listeningPort(log: string): number | undefined {
  for (const line of log.split("\n")) {
    if (!line.includes('"http server listening"')) continue;
    return (JSON.parse(line) as { port: number }).port;
  }
  return undefined;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
}

async function post(update: object): Promise<{ status: number; result: unknown }> {
  const res = await request(`http://127.0.0.1:${botPort}/telegram`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
    body: JSON.stringify(update),
  });
  return { status: res.statusCode, result: ((await res.body.json()) as { result?: unknown }).result };
}

const systemReads = () => sim.requests.filter((r) => r.method === "GET" && r.path === "/v1/public/system");

describe("kill -9 in webhook mode", () => {
  it("handles an update the dead process had acknowledged but not finished, once, after the restart", async () => {
    const first = await startBot();
    tg.addChat(CHAT);
    // The service never answers the first call: the process is mid-update when it dies.
    sim.faults.inject({ method: "GET", path: "/v1/public/system", kind: "hang", times: 1 });
    const update = tg.text(CHAT, "/system");
    expect(await post(update)).toEqual({ status: 200, result: "accepted" });
    await waitFor(() => systemReads().length === 1, "the bot to be in the middle of the update");
    await kill(first);
    expect(tg.botMessages(CHAT)).toEqual([]);

    const replied = tg.waitForBotMessage(CHAT, 40_000, (m) => m.text.startsWith("Service status"));
    await startBot();
    // Telegram had its 200, so it never sends the update again: a redelivery now would be a duplicate anyway.
    expect(await post(update)).toEqual({ status: 200, result: "duplicate" });
    const reply = await replied;
    expect(reply.text).toContain("Energy pools");
    expect(systemReads()).toHaveLength(2);
    expect(tg.botMessages(CHAT)).toHaveLength(1);
  }, 90_000);
});
