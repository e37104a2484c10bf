/**
 * The bot as a real process (`node dist/main.js`, built by the global setup)
 * against the service simulator and the fake Bot API in the test process, so
 * a test can kill -9 it at any point and start it again over the same store.
 * The store is read from the test side too (pending confirmations, quotes,
 * drafts): the ground truth of what the bot had recorded when it died.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { pino } from "pino";
import { draftData } from "../../src/bot/callback-data/broadcast.js";
import { quoteData } from "../../src/bot/callback-data/order.js";
import { createKeepStore } from "../../src/features/keep/keep-store.js";
import type { KeepPlan } from "../../src/features/keep/keep-plan.js";
import { createDraftStore, type BroadcastDraft } from "../../src/shared/broadcasts/draft.js";
import { createQuoteStore } from "../../src/shared/orders/quote-store.js";
import type { Quote } from "../../src/shared/orders/quote.js";
import { createBullmqConnection } from "../../src/platform/queue/bullmq-connection.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import { startSimulator, type Simulator } from "../../testkit/simulator/index.js";
import { startTelegramFront, type TelegramFront } from "../../testkit/telegram-front.js";
import { afterAll, beforeAll } from "vitest";
import { redisTarget, waitFor, type StoreTarget } from "../app-harness.js";
import { startFakeTelegram, type FakeTelegram, type StoredMessage } from "../../testkit/fake-telegram/fake-telegram.js";

const ROOT = join(import.meta.dirname, "..", "..");

export interface BotProcess {
  readonly pid: number;
  /** Whatever the process wrote (pino JSON lines), for a failure's message. */
  output(): string;
  exited: Promise<void>;
}

export type KillWorld = Awaited<ReturnType<typeof startKillWorld>>;

/** `target`: a store URL, or a StoreTarget (a Redis run's STORAGE_PREFIX comes with it); `env`: more variables for every bot (faster leases, say). */
export async function startKillWorld(target: string | StoreTarget, extraEnv: Record<string, string> = {}) {
  const storageUrl = typeof target === "string" ? target : target.url;
  const prefix = typeof target === "string" ? undefined : target.prefix;
  const tg: FakeTelegram = await startFakeTelegram();
  const front: TelegramFront = await startTelegramFront(tg);
  const sim: Simulator = await startSimulator({ orderStepMs: 40, broadcastStepMs: 40 });
  const account = sim.createAccount({ balanceSun: 1_000_000_000_000 });
  const logger = pino({ level: "silent" });
  const store: StoreBackend = await openStore(storageUrl, { logger, purgeIntervalMs: 0, ...(prefix === undefined ? {} : { prefix }) });
  const quotes = createQuoteStore({ store, logger });
  const drafts = createDraftStore({ store, logger });
  const keep = createKeepStore({ store, logger });
  // The bots' push queue as they see it: BullMQ on Redis (its prefix as the app derives it from STORAGE_PREFIX), else the store.
  const bull =
    store.kind === "redis"
      ? createBullmqConnection({ name: "push", redisUrl: storageUrl, logger, prefix: prefix === undefined ? "bull" : `${prefix}/bull` })
      : undefined;
  const env = {
    PATH: process.env["PATH"] ?? "",
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: front.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: storageUrl,
    ...(typeof target === "string" ? {} : target.env),
    HTTP_HOST: "127.0.0.1",
    HTTP_PORT: "0",
    LOG_LEVEL: "info",
    ...extraEnv,
  };
  const live = new Set<BotProcess>();

  /** Starts the bot and resolves once it polls Telegram (a worker: once it says it runs). */
  async function startBot(options: { worker?: boolean } = {}): Promise<BotProcess> {
    const polls = tg.callsOf("getUpdates").length;
    const child: ChildProcess = spawn(process.execPath, ["dist/main.js"], {
      cwd: ROOT,
      env: options.worker ? { ...env, BOT_MODE: "worker" } : env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout?.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const bot: BotProcess = { pid: child.pid!, output: () => out, exited };
    live.add(bot);
    void exited.then(() => live.delete(bot));
    const ready = () => (options.worker ? out.includes("started as a worker") : tg.callsOf("getUpdates").length > polls);
    await waitFor(() => ready() || (child.exitCode !== null && `exited:\n${out}`), "the bot to start", 30_000).then((v) => {
      if (typeof v === "string") throw new Error(v);
    });
    return bot;
  }

  async function kill(bot: BotProcess): Promise<void> {
    try {
      process.kill(-bot.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
    await bot.exited;
  }

  /** A user message; resolves with the first bot message that matches (`edits`: or the first text edited in place to match). */
  async function say(chatId: number, text: string, match: (m: StoredMessage) => boolean, edits = false): Promise<StoredMessage> {
    const reply = edits ? tg.waitForBotText(chatId, 30_000, match) : tg.waitForBotMessage(chatId, 30_000, match);
    front.enqueue(tg.text(chatId, text));
    return reply;
  }

  /** The user taps a button; resolves once the bot fetched the tap. */
  async function tap(chatId: number, label: string, messageId: number): Promise<void> {
    const press = tg.press(chatId, label, { messageId });
    front.enqueue(press);
    if (!(await front.waitDelivered(press.update_id, 30_000))) throw new Error("the tap was never fetched");
  }

  async function pendingCount(): Promise<number> {
    let n = 0;
    for await (const _ of store.namespace("pending-confirmations").entries()) n += 1;
    return n;
  }

  /** The record behind a message's buttons (read from its callback data, as the bot does). */
  function idFromButtons(message: StoredMessage, unpack: (data: string) => string | undefined): string {
    for (const b of message.buttons.flat()) {
      const id = b.callback_data === undefined ? undefined : unpack(b.callback_data);
      if (id !== undefined) return id;
    }
    throw new Error(`message ${message.messageId} has no button naming a record`);
  }

  /** Read while the message still shows its buttons: edits take them away. */
  const quoteIdOf = (message: StoredMessage): string => idFromButtons(message, (d) => quoteData.unpack(d)?.quoteId);
  const draftIdOf = (message: StoredMessage): string => idFromButtons(message, (d) => draftData.unpack(d)?.draftId);
  const quoteOf = (quoteId: string): Promise<Quote | undefined> => quotes.get(quoteId);
  const draftOf = (draftId: string): Promise<BroadcastDraft | undefined> => drafts.get(draftId);

  /**
   * Push jobs not finished yet, over every process: a job a killed process was sending counts
   * until it is sent again (local queue: at the next start; BullMQ: once its lock expired).
   */
  async function pushBacklog(): Promise<number> {
    if (bull) return bull.size();
    let n = 0;
    for await (const _ of store.namespace("push-jobs").entries()) n += 1;
    return n;
  }

  const plansOf = (chatId: number): Promise<KeepPlan[]> => keep.ofChat(chatId);

  const debits = () => sim.ledger(account.accountId).filter((e) => e.kind === "debit");
  /** When the service gave the item this status (the simulator's clock), if it did. */
  const statusAt = (id: string, status: string): number | undefined => sim.statusChanges.find((c) => c.id === id && c.status === status)?.at;
  /**
   * When Telegram first received a message or edit to the chat whose visible text passes `test`
   * (the fake's arrival time of the call), if one arrived.
   */
  const firstShownAt = (chatId: number, test: (text: string) => boolean): number | undefined =>
    tg.calls.find(
      (c) =>
        c.ok &&
        (c.method === "sendMessage" || c.method === "editMessageText") &&
        Number(c.params["chat_id"]) === chatId &&
        typeof c.params["text"] === "string" &&
        test(visibleText(c.params["text"])),
    )?.at;
  const textOf = (chatId: number, messageId: number): string => tg.view(chatId).find((m) => m.messageId === messageId)?.text ?? "";
  const botTexts = (chatId: number, pattern: RegExp): string[] =>
    tg
      .botMessages(chatId)
      .map((m) => m.text)
      .filter((t) => pattern.test(t));

  /**
   * What every side holds now, for a failure's message: the service's statuses of `ids`, the stored tracked
   * items, the push backlog and the chat's Telegram calls since `sinceMs`.
   */
  async function diagnose(chatId: number, ids: readonly string[], sinceMs = 0): Promise<string> {
    const statuses = ids.map(
      (id) =>
        `${id}: ${
          sim.statusChanges
            .filter((c) => c.id === id)
            .map((c) => `${c.status}@${c.at}`)
            .join(" ") || "no change"
        }`,
    );
    const items: string[] = [];
    for await (const [key, value] of store.namespace("tracking").entries()) items.push(`${key} ${JSON.stringify(value)}`);
    const calls = tg.calls
      .filter((c) => c.at >= sinceMs && Number(c.params["chat_id"]) === chatId)
      .map((c) => `${c.at} ${c.method} ${c.ok ? "ok" : `${c.errorCode ?? "?"} ${c.description ?? ""}`}`);
    return [
      `now ${Date.now()}`,
      `service statuses:\n${statuses.join("\n")}`,
      `tracked items (${items.length}):\n${items.join("\n")}`,
      `push backlog: ${await pushBacklog().catch((error: unknown) => String(error))}`,
      `telegram calls to chat ${chatId} since ${sinceMs}:\n${calls.join("\n")}`,
    ].join("\n");
  }

  async function close(): Promise<void> {
    for (const bot of [...live]) await kill(bot);
    await bull?.close();
    await store.close();
    await front.close();
    await tg.close();
    await sim.stop();
  }

  return {
    tg,
    front,
    sim,
    account,
    store,
    startBot,
    kill,
    say,
    tap,
    pendingCount,
    pushBacklog,
    quoteIdOf,
    draftIdOf,
    quoteOf,
    draftOf,
    plansOf,
    debits,
    statusAt,
    firstShownAt,
    textOf,
    botTexts,
    diagnose,
    close,
  };
}

/** A sent text as the chat sees it: the HTML the bot uses (tags, the four entities) taken off. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** The quote once the bot recorded it placed (its orders known), within `timeoutMs`. */
export function placedQuote(w: KillWorld, quoteId: string, what = "the quote placed"): Promise<Quote> {
  return waitFor(
    async () => {
      const q = await w.quoteOf(quoteId);
      return q?.state === "placed" ? q : false;
    },
    what,
    40_000,
  );
}

export interface FrontAndWorker {
  readonly w: KillWorld;
  readonly front: BotProcess;
  readonly worker: BotProcess;
}

/**
 * Two bot processes under a Redis key prefix of their own: one takes Telegram's
 * updates (polling), the other is a worker; `chat` is linked through the
 * first. Registers its own beforeAll/afterAll.
 */
export function useFrontAndWorker(redisUrl: string, chat: number, env: Record<string, string>): FrontAndWorker {
  let target: StoreTarget | undefined;
  let w: KillWorld;
  let front: BotProcess;
  let worker: BotProcess;

  beforeAll(async () => {
    target = await redisTarget(redisUrl);
    w = await startKillWorld(target, env);
    front = await w.startBot();
    worker = await w.startBot({ worker: true });
    await w.say(chat, `/link ${w.account.apiKey}`, (m) => /connected/i.test(m.text));
  }, 90_000);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  return {
    get w() {
      return w;
    },
    get front() {
      return front;
    },
    get worker() {
      return worker;
    },
  };
}
