/**
 * Start: from spawning the app as `npm start` runs it (`node [its flags]
 * dist/main.js`, start-command.ts; SQLite, the simulator and the
 * fake Bot API on loopback) to its first getUpdates, against a bare grammY
 * bot process started the same way and run by the same runner, over rounds.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { printGoal, summarize } from "./rounds.js";
import { startArgs } from "../testkit/start-command.js";

const ROOT = join(import.meta.dirname, "..");

export const BARE_BOT = `import { Bot } from "grammy";
import { run } from "@grammyjs/runner";
const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API_ROOT } });
bot.on("message", (ctx) => ctx.reply("hi"));
run(bot, { runner: { silent: true } });
process.once("SIGTERM", () => process.exit(0));`;

/** Seconds from spawn to the process's first getUpdates; the process is stopped afterwards. */
async function timeToFirstPoll(tg: FakeTelegram, args: string[], env: Record<string, string>, timeoutMs: number): Promise<number> {
  const polls = tg.callsOf("getUpdates").length;
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env["PATH"] ?? "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    for (;;) {
      const first = tg.callsOf("getUpdates")[polls];
      if (first) return (first.at - started) / 1000;
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited before polling: ${stderr}`);
      if (Date.now() - started > timeoutMs) throw new Error(`${args.join(" ")} did not poll in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

export async function benchStart(options: { rounds: number; timeoutMs: number }): Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, stdio: "ignore" });
  const dir = mkdtempSync(join(tmpdir(), "bench-start-"));
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const tg = await startFakeTelegram();
  const env = { BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot };
  const app: number[] = [];
  const bare: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      bare.push(await timeToFirstPoll(tg, ["--input-type=module", "-e", BARE_BOT], env, options.timeoutMs));
      app.push(
        await timeToFirstPoll(
          tg,
          startArgs(ROOT),
          {
            ...env,
            SERVICE_BASE_URL: sim.baseUrl,
            ENCRYPTION_KEY: randomBytes(32).toString("base64"),
            STORAGE_URL: `sqlite://${join(dir, `bot-${round}.sqlite`)}`,
            HTTP_HOST: "127.0.0.1",
            HTTP_PORT: "0",
            LOG_LEVEL: "warn",
          },
          options.timeoutMs,
        ),
      );
    }
  } finally {
    await Promise.all([tg.close(), sim.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  const bot = summarize(app);
  console.log(`\nstart: spawn to first getUpdates, ${options.rounds} rounds, SQLite`);
  console.log(`  bare grammY bot process, same runner: ${summarize(bare).text} s`);
  console.log(`  node ${startArgs(ROOT).join(" ")}: ${bot.text} s`);
  const bareStart = summarize(bare).median;
  printGoal("start to first getUpdates ≤ 1.5 s", bot.median <= 1.5, `median ${bot.median.toFixed(2)} s`, {
    met: bareStart <= 1.5,
    figure: `median ${bareStart.toFixed(2)} s`,
  });
}
