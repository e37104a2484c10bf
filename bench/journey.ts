/**
 * User journeys: N chats at once each send `/order <receiver> 100k 1h`, press
 * ✅ Confirm on the quote, and hear that the order is fulfilled (the simulator
 * fulfils it and signs its webhooks to the chat's route). The bot is the app
 * as `npm start` runs it (`node [its flags] dist/main.js`, SQLite, shipped
 * settings) in a process of its own; its Telegram is the project's fake Bot
 * API, with Telegram's limits (30 messages/s, 1/s per chat, 429 with
 * retry_after beyond) enforced and without. Next to it, in the same run, a
 * bare grammY bot process (runner, auto-retry, no store) that answers each
 * step with a fixed text of the same size and makes the same Telegram calls
 * per journey.
 *
 * Per step: p50/p99 from the user's action to the answer (quote: the
 * `/order` to the quote; confirm: the press to the order's card; fulfilled:
 * the card to the first message or edit saying "fulfilled"); CPU per journey
 * (process.cpuUsage of the bot process over the journeys), peak RSS (VmHWM),
 * error answers (the generic error text) and users left unanswered, and, for
 * the app, store reads and writes per journey (its SqliteStore's calls,
 * counted by a preloaded wrapper; a batch is one call).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import { createChatRepository } from "../src/shared/chats/chat-repository.js";
import { openStore } from "../src/platform/store/open-store.js";
import { createVault, parseEncryptionKey } from "../src/shared/vault.js";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram, type RecordedCall } from "../testkit/fake-telegram/fake-telegram.js";
import { startArgs } from "../testkit/start-command.js";
import { TELEGRAM_LIMITS } from "../src/platform/push/types.js";
import { printGoal } from "./rounds.js";
import { STORE_READS, STORE_WRITES } from "./update-probes.js";

const ROOT = join(import.meta.dirname, "..");
const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";
const FIRST_CHAT = 2_000_000;
const ORDER = `/order ${RECEIVER} 100k 1h`;
const CONFIRM = "✅ Confirm";
/** locales/en/errors.ftl error-internal: the answer a user gets instead of the one asked for. */
const ERROR_TEXT = "Something went wrong on my side";
/** Calls that are not a journey's: polling, and start-up's own. */
const NOT_JOURNEY = new Set(["getupdates", "getme", "setmycommands", "deletewebhook", "setwebhook", "getwebhookinfo", "deletemycommands"]);

export interface JourneyOptions {
  sizes: number[];
  /** Which runs: Telegram's limits enforced by the fake Bot API, or none. */
  modes: ("limits" | "unlimited")[];
  /** How long the simulator takes per order step (pending → matching → fulfilled). */
  orderStepMs: number;
  /** A run ends when nothing has moved for this long (users left unanswered then). */
  quietMs: number;
}

/**
 * Preloaded into each bot process (`node --import`): answers "stats" over IPC with its CPU time, peak RSS and,
 * when JOURNEY_STORE_MODULE names the app's compiled sqlite-store.js, the SqliteStore's calls by kind and namespace.
 */
const PRELOAD_SOURCE = `import { readFileSync } from "node:fs";
const READS = ${JSON.stringify(STORE_READS)};
const WRITES = ${JSON.stringify(STORE_WRITES)};
const counts = { reads: {}, writes: {} };
const bump = (kind, ns) => { counts[kind][ns] = (counts[kind][ns] ?? 0) + 1; };
const storeModule = process.env.JOURNEY_STORE_MODULE;
if (storeModule) {
  const { SqliteStore } = await import(storeModule);
  const leasing = new WeakSet();
  for (const [kind, names] of [["reads", READS], ["writes", WRITES]]) {
    for (const name of names) {
      const original = SqliteStore.prototype[name];
      if (typeof original !== "function") continue;
      SqliteStore.prototype[name] = function (...args) {
        const database = this.database;
        if (database && !leasing.has(database)) {
          leasing.add(database);
          for (const lease of ["claimLease", "releaseLease", "claimLeases", "releaseLeases"]) {
            const f = database[lease];
            if (typeof f === "function") database[lease] = (...a) => { bump("writes", "(leases)"); return f.apply(database, a); };
          }
        }
        bump(kind, this.namespace ?? "");
        return original.apply(this, args);
      };
    }
  }
}
const hwmKb = () => Number(/^VmHWM:\\s+(\\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN);
process.on("message", (m) => {
  if (m === "stats") process.send({ cpuUs: process.cpuUsage(), hwmKb: hwmKb(), counts: structuredClone(counts) });
});
process.channel?.unref();`;
const PRELOAD = `data:text/javascript,${encodeURIComponent(PRELOAD_SOURCE)}`;

/**
 * The bare reference: plain grammY, the runner and auto-retry, no store. Its calls per journey are the app's
 * (a quote with a Confirm button; on the press an answer to it, the card, its "fulfilled" edit and the notice),
 * with fixed texts about as long as the app's.
 */
const BARE_JOURNEY_BOT = `import { Bot, InlineKeyboard } from "grammy";
import { run } from "@grammyjs/runner";
import { autoRetry } from "@grammyjs/auto-retry";
const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API_ROOT } });
bot.api.config.use(autoRetry());
const order = "0123456789abcdef01234567";
const card = (status) => "Order " + order + "\\nStatus: " + status + "\\nEnergy: 100,000 for 1 hour\\nReceiver: ${RECEIVER}\\nCost: 10.000000 TRX\\nPlaced: 2026-01-01 12:00 UTC";
const quote = "Your quote (valid for 5 min)\\nEnergy: 100,000 for 1 hour\\nReceiver: ${RECEIVER}\\nPrice: 100 sun per unit\\nCost: 10.000000 TRX\\nBalance after: 990.000000 TRX";
bot.command("order", (ctx) => ctx.reply(quote, { reply_markup: new InlineKeyboard().text("${CONFIRM}", "confirm").text("✖️ Cancel", "cancel") }));
bot.callbackQuery("confirm", async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(card("pending"));
  await ctx.editMessageText(card("fulfilled"));
  await ctx.reply("✅ Order " + order + " is fulfilled: 100,000 energy delegated to ${RECEIVER} for 1 hour.");
});
run(bot, { runner: { silent: true } });
process.once("SIGTERM", () => process.exit(0));`;

interface Stats {
  cpuUs: { user: number; system: number };
  hwmKb: number;
  counts: { reads: Record<string, number>; writes: Record<string, number> };
}

interface RunResult {
  name: string;
  chats: number;
  /** Per step, the latencies (ms) of the users who got that answer. */
  quote: number[];
  confirm: number[];
  fulfilled: number[];
  /** The app's: from the service's `order.fulfilled` webhook (its acknowledgement) to the user's first word of it. */
  hookToNotice?: number[];
  errors: number;
  /** Users whose journey ended in an error answer. */
  errorUsers: number;
  unanswered: { quote: number; confirm: number; fulfilled: number };
  /** What unanswered users saw last at their step instead of its answer (the commonest, with how many). */
  stuckOn: [string, number][];
  cpuMsPerJourney: number;
  peakMb: number;
  callsPerJourney: number;
  /** Successful calls per journey by method. */
  callsByMethod: Record<string, number>;
  refused429: number;
  store?: { reads: Record<string, number>; writes: Record<string, number> };
  /** The service's requests by route (ids replaced by `:id`), the whole run's. */
  service?: Record<string, number>;
  wallS: number;
}

/** "GET /v1/orders/:id": a request's route, its ids left out, so requests count per kind. */
const routeOf = (method: string, path: string): string =>
  `${method} ${path
    .split("?")[0]!
    .replace(/\/[0-9a-f]{24}(?=\/|$)/g, "/:id")
    .replace(/\/T[1-9A-HJ-NP-Za-km-z]{33}(?=\/|$)/g, "/:address")}`;

type Step = "quote" | "confirm" | "fulfilled" | "done" | "error";
interface ChatState {
  step: Step;
  /** When the user's current action was taken. */
  since: number;
  quoteMessageId?: number;
  orderId?: string | undefined;
  /** The last message or edit at the current step that was not the step's answer (a user stuck there saw this). */
  other?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const plain = (html: unknown) => (typeof html === "string" ? html.replace(/<[^>]+>/g, "") : "");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A bot process under measure: spawned, polled until its first getUpdates, asked for its figures over IPC. */
interface BotProcess {
  child: ChildProcess;
  stats(): Promise<Stats>;
  stop(): Promise<void>;
}

async function spawnBot(tg: FakeTelegram, args: string[], env: Record<string, string>): Promise<BotProcess> {
  const polls = tg.callsOf("getUpdates").length;
  // BENCH_JOURNEY_PROFILE=<dir>: the bot (not the bare one) writes its V8 CPU profile there when it stops.
  const profile = process.env["BENCH_JOURNEY_PROFILE"];
  const profiling = profile !== undefined && profile !== "" && !args.includes("-e") ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...profiling, "--import", PRELOAD, ...args], {
    cwd: ROOT,
    env: { PATH: process.env["PATH"] ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started = Date.now();
  while (tg.callsOf("getUpdates").length <= polls) {
    if (child.exitCode !== null) throw new Error(`bot exited before polling: ${stderr}`);
    if (Date.now() - started > 60_000) throw new Error(`bot did not poll in 60 s: ${stderr}`);
    await sleep(10);
  }
  return {
    child,
    stats: () =>
      new Promise<Stats>((resolve, reject) => {
        child.once("message", (m) => resolve(m as Stats));
        if (!child.send("stats")) reject(new Error("the bot process's IPC channel is closed"));
      }),
    async stop() {
      if (child.connected) child.disconnect();
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Seeds `n` linked chats, each with an account of its own whose signed webhooks go to the chat's route on `port`. */
async function seedChats(sim: Simulator, file: string, encryptionKey: string, n: number, port: number): Promise<void> {
  const logger = pino({ level: "silent" });
  const store = await openStore(`sqlite://${file}`, { logger, purgeIntervalMs: 0 });
  try {
    const chats = createChatRepository({ store, vault: createVault({ key: parseEncryptionKey(encryptionKey) }), logger });
    for (let i = 0; i < n; i += 1) {
      const account = sim.createAccount({ balanceSun: 1_000_000_000_000 });
      const record = await chats.link(FIRST_CHAT + i, { apiKey: account.apiKey, webhookSecret: account.webhookSecret, depositAddress: null });
      sim.setCallbackUrl(account.apiKey, `http://127.0.0.1:${port}/hooks/${record.routeId!}`);
    }
  } finally {
    await store.close();
  }
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs the journeys of `n` chats against a started bot and reads its figures. */
/**
 * `holdFulfilment`: the simulator's order lifecycles are held until every chat has its order's card, then let go at
 * once, so all the orders are fulfilled together with no quote or Confirm answer still waiting for Telegram's budget.
 */
async function drive(
  tg: FakeTelegram,
  bot: BotProcess,
  n: number,
  options: JourneyOptions,
  sim?: Simulator,
  holdFulfilment = false,
): Promise<Omit<RunResult, "name" | "chats">> {
  const states = new Map<number, ChatState>();
  /** When each order's `order.fulfilled` webhook was acknowledged by the bot. */
  const fulfilledHookAt = new Map<string, number>();
  const hookToNotice: number[] = [];
  let hooksSeen = sim?.webhookDeliveries.length ?? 0;
  const latencies = { quote: [] as number[], confirm: [] as number[], fulfilled: [] as number[] };
  let errors = 0;
  // Calls before the burst (start-up's getMe, setMyCommands, …) are not the journeys'.
  let seen = tg.calls.length;
  const firstJourneyCall = seen;
  const before = await bot.stats();
  let held = holdFulfilment && sim !== undefined;
  if (held) sim!.control.pauseLifecycles(true);
  const started = performance.now();
  for (let i = 0; i < n; i += 1) {
    const chatId = FIRST_CHAT + i;
    states.set(chatId, { step: "quote", since: Date.now() });
    tg.enqueue(tg.text(chatId, ORDER));
  }
  let lastMove = Date.now();
  let open = n;
  const onCall = (call: RecordedCall): void => {
    if (!call.ok) return;
    const method = call.method.toLowerCase();
    // An error shown as the button's toast instead of a message: counted, though it names no chat.
    if (method === "answercallbackquery" && plain(call.params["text"]).includes(ERROR_TEXT)) errors += 1;
    const chatId = Number(call.params["chat_id"]);
    const state = states.get(chatId);
    if (!state || (method !== "sendmessage" && method !== "editmessagetext")) return;
    const text = plain(call.params["text"]);
    if (text.includes(ERROR_TEXT)) {
      errors += 1;
      if (state.step !== "done" && state.step !== "error") {
        state.step = "error";
        open -= 1;
      }
      return;
    }
    const done = (step: keyof typeof latencies, next: Step): void => {
      latencies[step].push(call.at - state.since);
      state.step = next;
      delete state.other;
      state.since = call.at;
      lastMove = Date.now();
    };
    if (state.step === "quote" && method === "sendmessage" && text.includes("Your quote")) {
      const message = tg.botMessages(chatId).findLast((m) => m.buttons.flat().some((b) => b.text === CONFIRM));
      if (!message) return;
      done("quote", "confirm");
      state.quoteMessageId = message.messageId;
      state.since = Date.now();
      tg.enqueue(tg.press(chatId, CONFIRM, { messageId: message.messageId }));
    } else if (state.step === "confirm" && method === "editmessagetext" && /^Order [0-9a-f]{24}/.test(text)) {
      state.orderId = /^Order ([0-9a-f]{24})/.exec(text)?.[1];
      done("confirm", "fulfilled");
    } else if (state.step === "fulfilled" && /\bfulfilled\b/.test(text)) {
      const hookAt = state.orderId === undefined ? undefined : fulfilledHookAt.get(state.orderId);
      if (hookAt !== undefined) hookToNotice.push(call.at - hookAt);
      done("fulfilled", "done");
      open -= 1;
    } else if (state.step !== "done") {
      state.other = text;
    }
  };
  const readHooks = (): void => {
    for (; sim !== undefined && hooksSeen < sim.webhookDeliveries.length; hooksSeen += 1) {
      const d = sim.webhookDeliveries[hooksSeen]!;
      const orderId = /"orderId":"([0-9a-f]{24})"/.exec(d.body)?.[1];
      if (d.event === "order.fulfilled" && typeof d.status === "number" && d.status < 300 && orderId !== undefined && !fulfilledHookAt.has(orderId))
        fulfilledHookAt.set(orderId, d.answeredAtMs);
    }
  };
  while (open > 0 && Date.now() - lastMove < options.quietMs) {
    await sleep(5);
    readHooks();
    for (; seen < tg.calls.length; seen += 1) onCall(tg.calls[seen]!);
    if (held && [...states.values()].every((st) => st.step !== "quote" && st.step !== "confirm")) {
      held = false;
      sim!.control.pauseLifecycles(false);
      lastMove = Date.now();
    }
  }
  const wallS = (performance.now() - started) / 1000;
  // What a journey still causes after the user heard "fulfilled" (the notice after the card's edit) is its cost too.
  for (let count = -1; count !== tg.calls.length && Date.now() - lastMove < options.quietMs;) {
    count = tg.calls.length;
    await sleep(2_000);
  }
  const after = await bot.stats();
  const journeyCalls = tg.calls.slice(firstJourneyCall).filter((c) => !NOT_JOURNEY.has(c.method.toLowerCase()));
  const unanswered = { quote: 0, confirm: 0, fulfilled: 0 };
  const stuck = new Map<string, number>();
  for (const s of states.values()) {
    if (s.step !== "quote" && s.step !== "confirm" && s.step !== "fulfilled") continue;
    unanswered[s.step] += 1;
    if (s.other !== undefined) {
      const seen = `${s.step}: ${s.other.replace(/\s+/g, " ").slice(0, 90)}`;
      stuck.set(seen, (stuck.get(seen) ?? 0) + 1);
    }
  }
  const diff = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([ns, v]) => [ns, v - (b[ns] ?? 0)] as const)
        .filter(([, v]) => v > 0),
    );
  for (const list of Object.values(latencies)) list.sort((a, b) => a - b);
  return {
    ...latencies,
    errors,
    errorUsers: [...states.values()].filter((st) => st.step === "error").length,
    unanswered,
    stuckOn: [...stuck].sort(([, a], [, b]) => b - a).slice(0, 3),
    cpuMsPerJourney: (after.cpuUs.user + after.cpuUs.system - before.cpuUs.user - before.cpuUs.system) / 1000 / n,
    peakMb: after.hwmKb / 1024,
    callsPerJourney: journeyCalls.filter((c) => c.ok).length / n,
    callsByMethod: journeyCalls.filter((c) => c.ok).reduce<Record<string, number>>((by, c) => ({ ...by, [c.method]: (by[c.method] ?? 0) + 1 / n }), {}),
    refused429: journeyCalls.filter((c) => c.errorCode === 429).length,
    ...(Object.keys(after.counts.reads).length + Object.keys(after.counts.writes).length > 0
      ? { store: { reads: diff(after.counts.reads, before.counts.reads), writes: diff(after.counts.writes, before.counts.writes) } }
      : {}),
    ...(sim === undefined ? {} : { hookToNotice: hookToNotice.sort((a, b) => a - b) }),
    wallS,
  };
}

async function runBare(n: number, limits: boolean, options: JourneyOptions): Promise<RunResult> {
  const tg = await startFakeTelegram({ rateLimits: limits });
  try {
    const bot = await spawnBot(tg, ["--input-type=module", "-e", BARE_JOURNEY_BOT], { BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot });
    try {
      return { name: "bare grammY (runner, auto-retry, no store)", chats: n, ...(await drive(tg, bot, n, options)) };
    } finally {
      await bot.stop();
    }
  } finally {
    await tg.close();
  }
}

async function runApp(n: number, limits: boolean, options: JourneyOptions, holdFulfilment = false): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-journey-"));
  const tg = await startFakeTelegram({ rateLimits: limits });
  const sim = await startSimulator({ orderStepMs: options.orderStepMs });
  try {
    const file = join(dir, "bot.sqlite");
    const encryptionKey = randomBytes(32).toString("base64");
    const port = await freePort();
    await seedChats(sim, file, encryptionKey, n, port);
    const bot = await spawnBot(tg, startArgs(ROOT), {
      BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      SERVICE_BASE_URL: sim.baseUrl,
      ENCRYPTION_KEY: encryptionKey,
      STORAGE_URL: `sqlite://${file}`,
      HTTP_HOST: "127.0.0.1",
      HTTP_PORT: String(port),
      JOURNEY_STORE_MODULE: pathToFileURL(join(ROOT, "dist/platform/store/sqlite-store.js")).href,
    });
    try {
      const requestsBefore = sim.requests.length;
      const result = await drive(tg, bot, n, options, sim, holdFulfilment);
      if (!result.store) throw new Error("the app's store calls were not counted (dist/platform/store/sqlite-store.js not the module it uses?)");
      const service: Record<string, number> = {};
      for (const r of sim.requests.slice(requestsBefore)) service[routeOf(r.method, r.path)] = (service[routeOf(r.method, r.path)] ?? 0) + 1;
      return { name: "the bot (node dist/main.js, SQLite)", chats: n, ...result, service };
    } finally {
      await bot.stop();
    }
  } finally {
    await Promise.all([tg.close(), sim.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (sorted: readonly number[]) => `${Math.round(quantile(sorted, 0.5))}/${Math.round(quantile(sorted, 0.99))}`;
const perJourney = (counts: Record<string, number>, n: number) => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([ns, v]) => `${ns || "(root)"} ${(v / n).toFixed(1)}`);
  return `${(total / n).toFixed(1)} (${parts.join(", ") || "none"})`;
};

function printRun(r: RunResult): void {
  const unanswered = r.unanswered.quote + r.unanswered.confirm + r.unanswered.fulfilled;
  console.log(
    `  ${r.name}: p50/p99 ms quote ${ms(r.quote)}, confirm ${ms(r.confirm)}, fulfilled ${ms(r.fulfilled)}; ` +
      `CPU ${r.cpuMsPerJourney.toFixed(1)} ms/journey, peak RSS ${r.peakMb.toFixed(0)} MB; ` +
      `error answers ${r.errors} (to ${r.errorUsers} users), unanswered ${unanswered} (at quote ${r.unanswered.quote}, confirm ${r.unanswered.confirm}, fulfilled ${r.unanswered.fulfilled}); ` +
      `${r.callsPerJourney.toFixed(1)} Telegram calls/journey (${Object.entries(r.callsByMethod)
        .map(([m, v]) => `${m} ${v.toFixed(1)}`)
        .join(", ")}), ${r.refused429} refused 429; ${r.wallS.toFixed(1)} s`,
  );
  if (r.hookToNotice !== undefined && r.hookToNotice.length > 0)
    console.log(`    order.fulfilled webhook acknowledged → the user's first word of it: p50/p99 ms ${ms(r.hookToNotice)} (${r.hookToNotice.length} orders)`);
  for (const [text, count] of r.stuckOn) console.log(`    ${count} unanswered saw last, at ${text}`);
  if (r.store) console.log(`    store per journey: reads ${perJourney(r.store.reads, r.chats)}; writes ${perJourney(r.store.writes, r.chats)}`);
  if (r.service) console.log(`    service requests per journey: ${perJourney(r.service, r.chats)}`);
}

export async function benchJourney(options: JourneyOptions): Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, stdio: "ignore" });
  for (const n of options.sizes) {
    for (const mode of options.modes) {
      const limits = mode === "limits";
      const bare = await runBare(n, limits, options);
      const app = await runApp(n, limits, options);
      console.log(
        `\njourney, ${n.toLocaleString("en")} chats at once, ${limits ? "Telegram's limits enforced (30/s, 1/s per chat)" : "no Telegram limits (the fake answers every call)"}, service order step ${options.orderStepMs} ms:`,
      );
      printRun(bare);
      printRun(app);
      const cpuRatio = app.cpuMsPerJourney / bare.cpuMsPerJourney;
      console.log(`  CPU per journey ${cpuRatio.toFixed(2)}× the bare bot's`);
      const left = (r: RunResult) => r.unanswered.quote + r.unanswered.confirm + r.unanswered.fulfilled;
      const label = `${n} chats, ${limits ? "limits" : "no limits"}`;
      printGoal(`${label}: 0 error answers`, app.errors === 0, `${app.errors}`, { met: bare.errors === 0, figure: `${bare.errors}` });
      printGoal(`${label}: every user answered`, left(app) === 0, `${left(app)} unanswered`, { met: left(bare) === 0, figure: `${left(bare)} unanswered` });
      const heard = app.hookToNotice ?? [];
      if (n === 1 && heard.length > 0) printGoal(`${label}: the lone order's notice within 0.2 s of its webhook`, heard[0]! <= 200, `${heard[0]} ms`);
      if (n >= 1_000) printGoal(`${label}: CPU per journey ≤ 2× the bare bot's`, cpuRatio <= 2, `${cpuRatio.toFixed(2)}×`);
      // In the journey the notices share Telegram's budget with the Confirm answers still going out, which go first by
      // design; the orders fulfilled together, with nothing else waiting, show what a notice costs on its own.
      if (n > 1 && limits) {
        const together = await runApp(n, true, options, true);
        const slowest = together.hookToNotice?.at(-1);
        console.log(
          `  ${n.toLocaleString("en")} orders fulfilled together (lifecycles held until every card was shown): order.fulfilled webhook → the user's first word of it p50/p99/max ms ` +
            `${ms(together.hookToNotice ?? [])}/${slowest ?? "none"}; ${together.refused429} refused 429`,
        );
        // One call per order: the first within the lone order's 0.2 s, each next one a slot of the budget later. The bot
        // keeps 30 messages per 1.05 s (a 50 ms margin on Telegram's window for the network's jitter, TELEGRAM_LIMITS).
        const slotMs = (1_000 + TELEGRAM_LIMITS.marginMs) / TELEGRAM_LIMITS.globalPerSecond;
        const allowedMs = 200 + (n - 1) * slotMs;
        printGoal(
          `${label}: ${n} orders fulfilled together, each announced within one call's share of Telegram's budget (0.2 s + ${n - 1} × ${slotMs.toFixed(1)} ms = ${(allowedMs / 1000).toFixed(1)} s)`,
          slowest !== undefined && together.hookToNotice!.length === n && slowest <= allowedMs,
          `slowest ${slowest ?? "none"} ms, ${together.hookToNotice?.length ?? 0} of ${n} heard`,
        );
      }
    }
  }
}
