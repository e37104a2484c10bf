/**
 * Telegram updates handled per second: the whole app (createApp over SQLite)
 * fed by getUpdates from the fake Bot API (BOT_MODE=polling) and by posts to
 * its /telegram route (BOT_MODE=webhook), against a bare grammY bot that only
 * replies, fed the same two ways (the same runner settings; a node:http
 * webhookCallback server), in the same run. Each round queues a burst of
 * `/help`, `/prices` and inline queries from many chats and times it until
 * every update has its answer. Store calls per update are counted by kind.
 *
 * BENCH_UPDATES_BASELINE=<dir of another source tree> (e.g. main's source in
 * a temp copy, node_modules linked) adds that tree's app to every round, as
 * the before of a change measured back to back with the after.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { run } from "@grammyjs/runner";
import type { Update } from "grammy/types";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type * as AppModule from "../src/app.js";
import { parseConfig } from "../src/config.js";
import type * as SqliteStoreModule from "../src/core/store/sqlite-store.js";
import { createLogger } from "../src/logger.js";
import { startSimulator } from "../src/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { printGoal, summarize } from "./rounds.js";
import { bareBot, countStoreCalls, formatCount, perUpdate, postUpdates, startBareWebhook } from "./update-probes.js";

const ANSWERS = new Set(["sendmessage", "answerinlinequery"]);
const WEBHOOK_SECRET = "bench-updates-secret";
/** Requests in flight when posting to a webhook (Telegram's own default max_connections is 40). */
const WEBHOOK_CONCURRENCY = 40;
const FIRST_CHAT = 10_000;

type Kind = "help" | "prices" | "inline";
const KINDS: readonly Kind[] = ["help", "prices", "inline"];

function update(tg: FakeTelegram, kind: Kind, chatId: number, languageCode: string): Update {
  if (kind === "inline") return tg.inlineQuery(chatId, "", { languageCode });
  return tg.text(chatId, `/${kind}`, { languageCode });
}

/** The burst of one round: a third each of /help, /prices and inline queries (or only `kind`), round-robin over `chats`. */
function burst(tg: FakeTelegram, size: number, chats: number, kind?: Kind): Update[] {
  return Array.from({ length: size }, (_, i) => update(tg, kind ?? KINDS[i % 3]!, FIRST_CHAT + (i % chats), ["en", "ru", "zh"][i % 3]!));
}

/** Polling: the updates wait on the fake Bot API for getUpdates. */
function enqueueAll(tg: FakeTelegram, updates: readonly Update[]): Promise<void> {
  for (const u of updates) tg.enqueue(u);
  return Promise.resolve();
}

/** One bot under measure: where its answers land and how updates reach it. */
interface Subject {
  name: string;
  tg: FakeTelegram;
  feed(updates: Update[]): Promise<void>;
  /** The SQLite file of an app (its store calls are counted). */
  file?: string;
  counter?: ReturnType<typeof countStoreCalls>;
  stop(): Promise<void>;
}

/** Feeds the burst and resolves with its updates/s once every update has been answered. */
async function timeBurst(subject: Subject, updates: Update[], timeoutMs: number): Promise<number> {
  const { tg } = subject;
  let seen = tg.calls.length;
  let answered = 0;
  const started = performance.now();
  const fed = subject.feed(updates);
  let feedError: Error | undefined;
  fed.catch((error: unknown) => {
    feedError = error instanceof Error ? error : new Error(String(error));
  });
  while (answered < updates.length) {
    if (feedError) throw feedError;
    if (performance.now() - started > timeoutMs) throw new Error(`${subject.name}: only ${answered} of ${updates.length} updates answered in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (; seen < tg.calls.length; seen += 1) if (ANSWERS.has(tg.calls[seen]!.method.toLowerCase())) answered += 1;
  }
  await fed;
  return (updates.length / (performance.now() - started)) * 1000;
}

interface Source {
  label: string;
  createApp: typeof AppModule.createApp;
  allowedUpdates: typeof AppModule.ALLOWED_UPDATES;
  counter: ReturnType<typeof countStoreCalls>;
}

/**
 * A source tree's app as production runs it: compiled by its own `npm run build` into dist/ (tsx's transform of src/ names
 * every function it creates at run time, a cost the compiled code does not have and the bare bot, from node_modules, never pays).
 */
async function loadBuilt(root: string, label: string): Promise<Source> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: root, stdio: "ignore" });
  const url = (path: string) => pathToFileURL(join(resolve(root), path)).href;
  const app = (await import(url("dist/app.js"))) as typeof AppModule;
  const store = (await import(url("dist/core/store/sqlite-store.js"))) as typeof SqliteStoreModule;
  return { label, createApp: app.createApp, allowedUpdates: app.ALLOWED_UPDATES, counter: countStoreCalls(store.SqliteStore) };
}

export async function benchUpdates(options: { updates: number; chats: number; rounds: number; timeoutMs: number }): Promise<void> {
  const sources: Source[] = [await loadBuilt(fileURLToPath(new URL("..", import.meta.url)), "this source")];
  const baselineRoot = process.env["BENCH_UPDATES_BASELINE"];
  if (baselineRoot) sources.unshift(await loadBuilt(baselineRoot, `baseline (${baselineRoot})`));
  const dir = mkdtempSync(join(tmpdir(), "bench-updates-"));
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const logger = createLogger({ level: "info", destination: { write: () => undefined } });
  const subjects: Subject[] = [];

  async function appSubject(source: Source, mode: "polling" | "webhook", index: number): Promise<Subject> {
    const tg = await startFakeTelegram();
    const file = join(dir, `bot-${index}.sqlite`);
    const app = await source.createApp({
      config: parseConfig({
        BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        SERVICE_BASE_URL: sim.baseUrl,
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        STORAGE_URL: `sqlite://${file}`,
        HTTP_PORT: "0",
        HTTP_HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        BOT_MODE: mode,
        ...(mode === "webhook" ? { PUBLIC_URL: "https://bot.example", TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET } : {}),
      }),
      logger,
      overrides: { botInfo: tg.botInfo },
    });
    await app.start();
    const webhook = `http://127.0.0.1:${app.httpPort}/telegram`;
    return {
      name: `${source.label}, ${mode}`,
      tg,
      file,
      counter: source.counter,
      feed: mode === "polling" ? (updates) => enqueueAll(tg, updates) : (updates) => postUpdates(webhook, updates, { secret: WEBHOOK_SECRET, concurrency: WEBHOOK_CONCURRENCY }),
      async stop() {
        await app.stop();
        await tg.close();
      },
    };
  }

  const rates = new Map<string, number[]>();
  const counts: string[] = [];
  try {
    const bareTg = await startFakeTelegram();
    const bare = bareBot(bareTg.token, bareTg.apiRoot, bareTg.botInfo);
    const bareRunner = run(bare, { runner: { fetch: { allowed_updates: [...sources[0]!.allowedUpdates] }, silent: true } });
    subjects.push({ name: "bare grammY, polling", tg: bareTg, feed: (u) => enqueueAll(bareTg, u), stop: () => bareRunner.stop().then(() => bareTg.close()) });
    const hookTg = await startFakeTelegram();
    const hookBot = bareBot(hookTg.token, hookTg.apiRoot, hookTg.botInfo);
    const hook = await startBareWebhook(hookBot);
    subjects.push({ name: "bare grammY, webhook", tg: hookTg, feed: (u) => postUpdates(hook.url, u, { concurrency: WEBHOOK_CONCURRENCY }), stop: () => hook.close().then(() => hookTg.close()) });
    for (const mode of ["polling", "webhook"] as const) for (const source of sources) subjects.push(await appSubject(source, mode, subjects.length));

    // Warm-up: every chat seen once by each, so the rounds measure warm handling.
    for (const s of subjects) await timeBurst(s, burst(s.tg, options.chats, options.chats), options.timeoutMs);
    // Store calls per update, one kind at a time (after the warm-up: the chats are known).
    const perKind = Math.min(150, options.chats);
    for (const s of subjects) {
      if (!s.counter || !s.file) continue;
      for (const kind of KINDS) {
        s.counter.reset(s.file);
        await timeBurst(s, burst(s.tg, perKind, options.chats, kind), options.timeoutMs);
        // The inbox forgets an update just after its answer; let the last ones finish.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { reads, writes } = s.counter.of(s.file);
        const r = perUpdate(reads, perKind);
        const w = perUpdate(writes, perKind);
        counts.push(`  ${s.name}, ${kind === "inline" ? "inline query" : `/${kind}`}: ${formatCount(r.total)} reads (${r.text}); ${formatCount(w.total)} writes (${w.text})`);
      }
    }
    for (let round = 0; round < options.rounds; round += 1) {
      for (const s of subjects) {
        const list = rates.get(s.name) ?? [];
        list.push(await timeBurst(s, burst(s.tg, options.updates, options.chats), options.timeoutMs));
        rates.set(s.name, list);
      }
    }
  } finally {
    for (const s of subjects) await s.stop().catch((err: unknown) => console.error(`${s.name}: stop failed`, err));
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nupdates: ${options.rounds} rounds of ${options.updates} updates (/help, /prices, inline) from ${options.chats} chats, SQLite`);
  for (const mode of ["polling", "webhook"] as const) {
    const baseline = summarize(rates.get(`bare grammY, ${mode}`)!);
    console.log(`  ${mode}: bare grammY bot${mode === "polling" ? ", same runner" : ", node:http webhookCallback"}: ${baseline.text} updates/s`);
    for (const source of sources) {
      const bot = summarize(rates.get(`${source.label}, ${mode}`)!);
      const ratio = bot.median / baseline.median;
      console.log(`  ${mode}: the whole bot, ${source.label}: ${bot.text} updates/s (${ratio.toFixed(2)} of bare)`);
    }
    const bot = summarize(rates.get(`this source, ${mode}`)!);
    printGoal(`${mode}: updates/s through the bot ≥ 2,000`, bot.median >= 2_000, `median ${Math.round(bot.median).toLocaleString("en")}/s`);
    const ratio = bot.median / baseline.median;
    printGoal(`${mode}: bot ≥ 0.5 of the bare bot`, ratio >= 0.5, `median ratio ${ratio.toFixed(2)}`);
  }
  console.log(`  store calls per update (SQLite store methods; after a warm-up, so every chat is known):`);
  for (const line of counts) console.log(line);
}
