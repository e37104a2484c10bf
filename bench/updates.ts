/**
 * Telegram updates handled per second: the whole app (createApp over SQLite)
 * fed by getUpdates from the fake Bot API (BOT_MODE=polling) and by posts to
 * its /telegram route (BOT_MODE=webhook), against a bare grammY bot that only
 * replies, fed the same two ways (the same runner settings; a node:http
 * webhookCallback server), in the same run. Each round queues a burst of
 * `/help`, `/prices` and inline queries from many chats and times it until
 * every update has its answer. Store calls per update are counted by kind.
 *
 * Each bot, bare or whole, has its Telegram (the fake Bot API, the feeding
 * and the counting of answers) in a worker thread of its own
 * (telegram-side.ts), so the bot's event loop carries only the bot, as it
 * does in production where Telegram is another machine.
 *
 * BENCH_UPDATES_BASELINE=<dir of another source tree> (e.g. main's source in
 * a temp copy, node_modules linked) adds that tree's app to every round, as
 * the before of a change measured back to back with the after.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { run } from "@grammyjs/runner";
import type { UserFromGetMe } from "grammy/types";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type * as AppModule from "../src/app.js";
import { parseConfig } from "../src/config.js";
import type * as SqliteStoreModule from "../src/platform/store/sqlite-store.js";
import { createLogger } from "../src/platform/logger.js";
import { startSimulator } from "../testkit/simulator/index.js";
import { closeWorker, startTsWorker } from "./bench-worker.js";
import { printGoal, summarize } from "./rounds.js";
import { UPDATE_KINDS, type BurstJob, type SideMessage } from "./telegram-side.js";
import { bareBot, countStoreCalls, formatCount, perUpdate, startBareWebhook } from "./update-probes.js";

const WEBHOOK_SECRET = "bench-updates-secret";
/** Requests in flight when posting to a webhook (Telegram's own default max_connections is 40). */
const WEBHOOK_CONCURRENCY = 40;

/** Telegram's side of one bot under measure, in its own thread (bench/telegram-side.ts). */
interface TelegramSide {
  token: string;
  apiRoot: string;
  botInfo: UserFromGetMe;
  /** Feeds a burst and resolves with its updates/s once every update has its answer. */
  burst(job: Omit<BurstJob, "type">): Promise<number>;
  close(): Promise<void>;
}

async function startTelegramSide(): Promise<TelegramSide> {
  const worker = startTsWorker(new URL("./telegram-side.ts", import.meta.url));
  const next = () =>
    new Promise<SideMessage>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      worker.once("error", fail);
      worker.once("message", (m: SideMessage) => {
        worker.off("error", fail);
        resolve(m);
      });
    });
  const ready = await next();
  if (ready.type !== "ready") throw new Error("the Telegram side did not start");
  return {
    token: ready.token,
    apiRoot: ready.apiRoot,
    botInfo: ready.botInfo,
    async burst(job) {
      const answer = next();
      worker.postMessage({ type: "burst", ...job } satisfies BurstJob);
      const m = await answer;
      if (m.type === "done") return m.updatesPerSecond;
      throw new Error(m.type === "failed" ? m.message : "unexpected answer from the Telegram side");
    },
    close: () => closeWorker(worker),
  };
}

/** One bot under measure: its Telegram side and how updates reach it. */
interface Subject {
  name: string;
  side: TelegramSide;
  feed: BurstJob["feed"];
  /** The SQLite file of an app (its store calls are counted). */
  file?: string;
  counter?: ReturnType<typeof countStoreCalls>;
  stop(): Promise<void>;
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
/**
 * The shipped app paces every answer to Telegram's limits (30 messages/s, 1/s per chat), so a burst of 3,000
 * would measure the budget, not the bot; the fake Bot API enforces none, and the bare bots pace nothing. The
 * journey section measures the app with the limits on.
 */
const TELEGRAM_LIMITS_LIFTED = { globalPerSecond: 1_000_000, perChatPerSecond: 1_000_000, perGroupPerMinute: 1_000_000, marginMs: 0 };

async function loadBuilt(root: string, label: string): Promise<Source> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: root, stdio: "ignore" });
  const url = (path: string) => pathToFileURL(join(resolve(root), path)).href;
  const app = (await import(url("dist/app.js"))) as typeof AppModule;
  // Where the store's module is in that tree: it moved to the platform floor, and the tree compared may be older.
  const storePath = ["dist/platform/store/sqlite-store.js", "dist/core/store/sqlite-store.js"].find((p) => existsSync(join(resolve(root), p)));
  const store = (await import(url(storePath ?? "dist/platform/store/sqlite-store.js"))) as typeof SqliteStoreModule;
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
    const side = await startTelegramSide();
    const file = join(dir, `bot-${index}.sqlite`);
    const app = await source.createApp({
      config: parseConfig({
        BOT_TOKEN: side.token,
        TELEGRAM_API_ROOT: side.apiRoot,
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
      overrides: { botInfo: side.botInfo, pushLimits: TELEGRAM_LIMITS_LIFTED },
    });
    await app.start();
    const webhook = `http://127.0.0.1:${app.httpPort}/telegram`;
    return {
      name: `${source.label}, ${mode}`,
      side,
      file,
      counter: source.counter,
      feed: mode === "polling" ? { mode: "queue" } : { mode: "post", url: webhook, secret: WEBHOOK_SECRET, concurrency: WEBHOOK_CONCURRENCY },
      async stop() {
        await app.stop();
        await side.close();
      },
    };
  }

  const rates = new Map<string, number[]>();
  const counts: string[] = [];
  try {
    const bareSide = await startTelegramSide();
    const bare = bareBot(bareSide.token, bareSide.apiRoot, bareSide.botInfo);
    const bareRunner = run(bare, { runner: { fetch: { allowed_updates: [...sources[0]!.allowedUpdates] }, silent: true } });
    subjects.push({ name: "bare grammY, polling", side: bareSide, feed: { mode: "queue" }, stop: () => bareRunner.stop().then(() => bareSide.close()) });
    const hookSide = await startTelegramSide();
    const hook = await startBareWebhook(bareBot(hookSide.token, hookSide.apiRoot, hookSide.botInfo));
    subjects.push({
      name: "bare grammY, webhook",
      side: hookSide,
      feed: { mode: "post", url: hook.url, concurrency: WEBHOOK_CONCURRENCY },
      stop: () => hook.close().then(() => hookSide.close()),
    });
    for (const mode of ["polling", "webhook"] as const) for (const source of sources) subjects.push(await appSubject(source, mode, subjects.length));

    // Warm-up: every chat seen once by each, so the rounds measure warm handling.
    for (const s of subjects) await s.side.burst({ size: options.chats, chats: options.chats, feed: s.feed, timeoutMs: options.timeoutMs });
    // Store calls per update, one kind at a time (after the warm-up: the chats are known).
    const perKind = Math.min(150, options.chats);
    for (const s of subjects) {
      if (!s.counter || !s.file) continue;
      for (const kind of UPDATE_KINDS) {
        s.counter.reset(s.file);
        await s.side.burst({ size: perKind, chats: options.chats, kind, feed: s.feed, timeoutMs: options.timeoutMs });
        // The inbox forgets an update just after its answer; let the last ones finish.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { reads, writes } = s.counter.of(s.file);
        const r = perUpdate(reads, perKind);
        const w = perUpdate(writes, perKind);
        counts.push(
          `  ${s.name}, ${kind === "inline" ? "inline query" : `/${kind}`}: ${formatCount(r.total)} reads (${r.text}); ${formatCount(w.total)} writes (${w.text})`,
        );
      }
    }
    // BENCH_UPDATES_PROFILE=<dir>: a V8 CPU profile of this thread during the rounds of this source's bot, one per mode.
    const profileDir = process.env["BENCH_UPDATES_PROFILE"];
    const profiler = profileDir ? await startProfiler() : undefined;
    for (let round = 0; round < options.rounds; round += 1) {
      for (const s of subjects) {
        const list = rates.get(s.name) ?? [];
        const profiled = profiler !== undefined && s.name.startsWith("this source");
        if (profiled) await profiler.resume();
        list.push(await s.side.burst({ size: options.updates, chats: options.chats, feed: s.feed, timeoutMs: options.timeoutMs }));
        if (profiled) await profiler.pause();
        rates.set(s.name, list);
      }
    }
    if (profiler && profileDir) console.log(`updates: CPU profile of this source's bot: ${profiler.save(profileDir)}`);
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
      console.log(`  ${mode}: the whole bot, ${source.label}, Telegram's limits lifted: ${bot.text} updates/s (${ratio.toFixed(2)} of bare)`);
    }
    const bot = summarize(rates.get(`this source, ${mode}`)!);
    const perSecond = (v: number) => `median ${Math.round(v).toLocaleString("en")}/s`;
    printGoal(`${mode}: updates/s through the bot ≥ 2,000`, bot.median >= 2_000, perSecond(bot.median), {
      met: baseline.median >= 2_000,
      figure: perSecond(baseline.median),
    });
    const ratio = bot.median / baseline.median;
    printGoal(`${mode}: bot ≥ 0.5 of the bare bot`, ratio >= 0.5, `median ratio ${ratio.toFixed(2)}`);
  }
  console.log(`  store calls per update (SQLite store methods; after a warm-up, so every chat is known):`);
  for (const line of counts) console.log(line);
}

/** One V8 CPU profile over the intervals between `resume` and `pause` (its samples while paused are dropped). */
async function startProfiler(): Promise<{ resume(): Promise<void>; pause(): Promise<void>; save(dir: string): string }> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  const profiles: unknown[] = [];
  return {
    async resume() {
      await session.post("Profiler.start");
    },
    async pause() {
      profiles.push((await session.post("Profiler.stop")).profile);
    },
    save(dir) {
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const files = profiles.map((profile, i) => {
        const file = join(dir, `updates-${i}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        return file;
      });
      return files.join(", ");
    },
  };
}
