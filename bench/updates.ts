/**
 * Telegram updates handled per second: the whole app (createApp over SQLite,
 * the runner polling the fake Bot API) against a bare grammY bot that only
 * replies, run by the same runner with the same settings, in the same run.
 * Each round queues a burst of `/help`, `/prices` and inline queries from
 * many chats and times it until every update has its answer.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "@grammyjs/runner";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { ALLOWED_UPDATES, createApp } from "../src/app.js";
import { parseConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { startSimulator } from "../src/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { printGoal, summarize } from "./rounds.js";

const ANSWERS = new Set(["sendmessage", "answerinlinequery"]);

/** The burst of one round: a third each of /help, /prices and inline queries, round-robin over `chats`. */
function burst(tg: FakeTelegram, size: number, chats: number, firstChat: number): Update[] {
  return Array.from({ length: size }, (_, i) => {
    const chatId = firstChat + (i % chats);
    const languageCode = ["en", "ru", "zh"][i % 3]!;
    if (i % 3 === 2) return tg.inlineQuery(chatId, "", { languageCode });
    return tg.text(chatId, i % 3 === 0 ? "/help" : "/prices", { languageCode });
  });
}

/** Queues the burst and resolves with its updates/s once every update has been answered. */
async function timeBurst(tg: FakeTelegram, updates: Update[], timeoutMs: number): Promise<number> {
  let seen = tg.calls.length;
  let answered = 0;
  const started = performance.now();
  for (const update of updates) tg.enqueue(update);
  while (answered < updates.length) {
    if (performance.now() - started > timeoutMs) throw new Error(`only ${answered} of ${updates.length} updates answered in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (; seen < tg.calls.length; seen += 1) if (ANSWERS.has(tg.calls[seen]!.method.toLowerCase())) answered += 1;
  }
  return (updates.length / (performance.now() - started)) * 1000;
}

export async function benchUpdates(options: { updates: number; chats: number; rounds: number; timeoutMs: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-updates-"));
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const appTg = await startFakeTelegram();
  const bareTg = await startFakeTelegram();
  const logger = createLogger({ level: "info", destination: { write: () => undefined } });
  const app = await createApp({
    config: parseConfig({
      BOT_TOKEN: appTg.token,
      TELEGRAM_API_ROOT: appTg.apiRoot,
      SERVICE_BASE_URL: sim.baseUrl,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
      HTTP_PORT: "0",
      HTTP_HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    }),
    logger,
    overrides: { botInfo: appTg.botInfo },
  });
  const bare = new Bot(bareTg.token, { botInfo: bareTg.botInfo, client: { apiRoot: bareTg.apiRoot } });
  bare.command("help", (ctx) => ctx.reply("help"));
  bare.command("prices", (ctx) => ctx.reply("prices"));
  bare.on("inline_query", (ctx) => ctx.answerInlineQuery([]));
  const bareRunner = run(bare, { runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES] }, silent: true } });
  const botRates: number[] = [];
  const bareRates: number[] = [];
  try {
    await app.start();
    // Warm-up: every chat seen once by both, so the rounds measure warm handling.
    await timeBurst(appTg, burst(appTg, options.chats, options.chats, 10_000), options.timeoutMs);
    await timeBurst(bareTg, burst(bareTg, options.chats, options.chats, 10_000), options.timeoutMs);
    for (let round = 0; round < options.rounds; round += 1) {
      bareRates.push(await timeBurst(bareTg, burst(bareTg, options.updates, options.chats, 10_000), options.timeoutMs));
      botRates.push(await timeBurst(appTg, burst(appTg, options.updates, options.chats, 10_000), options.timeoutMs));
    }
  } finally {
    await bareRunner.stop();
    await app.stop();
    await Promise.all([appTg.close(), bareTg.close(), sim.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  const bot = summarize(botRates);
  const baseline = summarize(bareRates);
  console.log(`\nupdates: ${options.rounds} rounds of ${options.updates} updates (/help, /prices, inline) from ${options.chats} chats, SQLite`);
  console.log(`  bare grammY bot, same runner: ${baseline.text} updates/s`);
  console.log(`  the whole bot:                ${bot.text} updates/s`);
  printGoal("updates/s through the bot ≥ 2,000", bot.median >= 2_000, `median ${Math.round(bot.median).toLocaleString("en")}/s`);
  const ratio = bot.median / baseline.median;
  printGoal("bot ≥ 0.5 of the bare bot", ratio >= 0.5, `median ratio ${ratio.toFixed(2)}`);
}
