/**
 * The whole bot over loopback: the real bot (createBot) against the fake Bot
 * API server, the service simulator and a temp SQLite store. Tests drive it
 * with `bot.handleUpdate` (every outgoing call is validated by the fake).
 *
 *   const h = await startBotHarness();
 *   const alice = h.user(1001, { languageCode: "en" });
 *   await alice.send("/start");
 *   expect(alice.lastText()).toContain("Hello");
 *   await h.close();
 *
 * Most test files use `useBotHarness()` instead: one harness per file, and
 * after every test a check that the bot left nothing behind (a refused
 * Telegram call, an error log, a button still spinning).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "pino";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { SupportedLocale } from "../../src/config.js";
import { chatStoredLocale, createI18n } from "../../src/bot/i18n.js";
import { createBot, type BotContext, type BotDeps } from "../../src/bot/index.js";
import { createChatRepository } from "../../src/shared/chats/chat-repository.js";
import { createFlows, type FlowTracker } from "../../src/shared/flows.js";
import { createAlertSettings } from "../../src/shared/chats/alert-settings.js";
import { createMetrics } from "../../src/platform/metrics.js";
import { createPricingCache } from "../../src/platform/service/pricing-cache.js";
import { createServiceClient } from "../../src/platform/service/create-service-client.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import { createVault } from "../../src/shared/vault.js";
import { createLogger } from "../../src/platform/logger.js";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../testkit/simulator/index.js";
import {
  startFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
  type RecordedCall,
  type SendOptions,
  type StoredMessage,
} from "../../testkit/fake-telegram/fake-telegram.js";

export interface BotHarnessOptions {
  /** Default "https://bot.example.test"; null leaves PUBLIC_URL unset. */
  publicUrl?: string | null;
  defaultLocale?: SupportedLocale;
  simulator?: SimulatorOptions;
  telegram?: FakeTelegramOptions;
  pricingTtlMs?: number;
  /** The bot's translations (default: the repository's locales/); the notifiers and the menu read the same instance. */
  localesDirectory?: string;
  /**
   * The service client's budgets (default: one attempt 5 s, a call 10 s, as generous as the app's own). The bot,
   * the simulator and the fake Bot API share one loaded thread here: a shorter budget turns a stall of the machine
   * into a timeout, and a broadcast, which is never sent twice blindly, then ends "outcome unknown". Tests of a
   * hanging service pass `QUICK_SERVICE_TIMEOUTS`.
   */
  serviceTimeouts?: { attemptTimeoutMs: number; totalTimeoutMs: number };
  /** Adds or replaces deps before the bot is built (later features' own deps). */
  extendDeps?: (deps: BotDeps) => BotDeps;
  /** Build something else from the deps (default: createBot). */
  build?: (deps: BotDeps, options: { botInfo: FakeTelegram["botInfo"]; apiRoot: string }) => Bot<BotContext>;
}

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** Room for a loaded machine, where the simulator itself can take seconds to answer. */
const DEFAULT_SERVICE_TIMEOUTS = { attemptTimeoutMs: 15_000, totalTimeoutMs: 30_000 };
/** For tests of a service that hangs: the bot gives up within 1.6 s. */
export const QUICK_SERVICE_TIMEOUTS = { attemptTimeoutMs: 800, totalTimeoutMs: 1_600 };

/** A tracker that follows nothing: records the bot shows are not followed afterwards. */
const UNTRACKED: FlowTracker = {
  track: () => Promise.resolve(),
  cardShown: () => Promise.resolve(),
  cardNotShown: () => Promise.resolve(),
  stopChat: () => Promise.resolve(0),
};

export type BotHarness = Awaited<ReturnType<typeof startBotHarness>>;

export async function startBotHarness(options: BotHarnessOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bot-harness-"));
  const storePath = join(dir, "bot.sqlite");
  const logs: LogLine[] = [];
  /** The log lines as written (JSON.parse would hide a key written twice). */
  const rawLogs: string[] = [];
  const logger: Logger = createLogger({
    level: "debug",
    destination: {
      write: (line: string) => {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as LogLine);
      },
    },
  });
  const tg = await startFakeTelegram(options.telegram);
  const sim: Simulator = await startSimulator(options.simulator);
  const vaultKey = randomBytes(32);
  const publicUrl = options.publicUrl === undefined ? "https://bot.example.test" : (options.publicUrl ?? undefined);

  let store: StoreBackend;
  let deps: BotDeps;
  let bot: Bot<BotContext>;

  async function build(): Promise<void> {
    store = await openStore(`sqlite://${storePath}`, { logger, purgeIntervalMs: 0 });
    const vault = createVault({ key: vaultKey });
    const service = createServiceClient({
      baseUrl: sim.baseUrl,
      logger,
      ...(options.serviceTimeouts ?? DEFAULT_SERVICE_TIMEOUTS),
      maxAttempts: 2,
      backoffBaseMs: 10,
      backoffMaxMs: 50,
    });
    const chats = createChatRepository({ store, vault, logger });
    const defaultLocale = options.defaultLocale ?? "en";
    const base: BotDeps = {
      config: { botToken: tg.token, publicUrl, defaultLocale },
      logger,
      metrics: createMetrics(),
      store,
      vault,
      service,
      pricing: createPricingCache({ load: () => service.getPricing(), ttlMs: options.pricingTtlMs ?? 60_000, logger }),
      chats,
      i18n: createI18n({
        defaultLocale,
        storedLocale: chatStoredLocale(chats),
        logger,
        ...(options.localesDirectory ? { directory: options.localesDirectory } : {}),
      }),
      // The flows without a tracker behind them; useOrderHarness replaces them with tracked ones.
      flows: createFlows({ store, service, logger, tracker: UNTRACKED }),
      alerts: createAlertSettings({ store, logger }),
    };
    deps = options.extendDeps ? options.extendDeps(base) : base;
    const botOptions = { botInfo: tg.botInfo, apiRoot: tg.apiRoot };
    bot = options.build ? options.build(deps, botOptions) : createBot(deps, botOptions);
  }
  await build();

  const send = async (update: Update): Promise<void> => {
    await bot.handleUpdate(update);
  };

  /** A private chat (chat id = user id) or, with a negative id, a group member's view. */
  function user(chatId: number, defaults: SendOptions = {}) {
    if (defaults.languageCode) tg.addChat(chatId, { languageCode: defaults.languageCode });
    return {
      chatId,
      send: (text: string, opts: SendOptions = {}) => send(tg.text(chatId, text, { ...defaults, ...opts })),
      press: (label: string | RegExp, opts: SendOptions & { messageId?: number } = {}) => {
        const update = tg.press(chatId, label, { ...defaults, ...opts });
        return send(update).then(() => update);
      },
      document: (doc: Parameters<FakeTelegram["document"]>[1], opts: SendOptions = {}) => send(tg.document(chatId, doc, { ...defaults, ...opts })),
      /** Live messages, bot and user, after edits and deletes. */
      view: (): StoredMessage[] => tg.view(chatId),
      botTexts: (): string[] => tg.botMessages(chatId).map((m) => m.text),
      last: (): StoredMessage | undefined => tg.lastBotMessage(chatId),
      lastText: (): string => tg.lastBotMessage(chatId)?.text ?? "",
      /** Button texts of the last bot message, row by row. */
      lastButtons: (): string[][] => (tg.lastBotMessage(chatId)?.buttons ?? []).map((row) => row.map((b) => b.text)),
    };
  }

  // What earlier tests already looked at (take*/leftovers), so each test is judged on its own.
  let failedSeen = 0;
  let errorsSeen = 0;
  const callbacksSeen = new Set<string>();
  const errorLogs = () => logs.filter((l) => l.level >= 50);
  const takeFailedCalls = (): RecordedCall[] => {
    const all = tg.failedCalls();
    const fresh = all.slice(failedSeen);
    failedSeen = all.length;
    return fresh;
  };
  const takeErrorLogs = (): LogLine[] => {
    const all = errorLogs();
    const fresh = all.slice(errorsSeen);
    errorsSeen = all.length;
    return fresh;
  };

  return {
    tg,
    sim,
    logs,
    rawLogs,
    storePath,
    get bot() {
      return bot;
    },
    get deps() {
      return deps;
    },
    get store() {
      return store;
    },
    send,
    user,
    /** A simulator account with its key linked to the chat directly in the repository (no messages). */
    /** Links as /link does; `languageCode` is the linking user's Telegram language, which /link stores with the chat. */
    async linkChat(chatId: number, account: Parameters<Simulator["createAccount"]>[0] = {}, withSecret = true, languageCode?: string) {
      const created = sim.createAccount({ ...(account.hasWallet === false ? {} : { balanceSun: 50_000_000 }), ...account });
      await deps.chats.link(chatId, { apiKey: created.apiKey, webhookSecret: withSecret ? created.webhookSecret : undefined, languageCode });
      return created;
    },
    /** Log lines at error level or above (an unexpected one should fail a test). */
    errorLogs,
    /** Telegram refusals since the last take: a test that provokes one on purpose takes it. */
    takeFailedCalls,
    /** Error-level logs since the last take: a test that provokes one on purpose takes it. */
    takeErrorLogs,
    /** Everything not yet taken that a well-behaved bot never leaves: refusals, error logs, spinning buttons. */
    leftovers() {
      const unansweredCallbacks = tg.unansweredCallbacks().filter((id) => !callbacksSeen.has(id));
      for (const id of unansweredCallbacks) callbacksSeen.add(id);
      return { failedCalls: takeFailedCalls(), errorLogs: takeErrorLogs(), unansweredCallbacks };
    },
    /** The SQLite file's bytes (main file and WAL), to scan for plaintext. */
    rawStoreBytes: (): Buffer => {
      const parts: Buffer[] = [];
      for (const suffix of ["", "-wal"]) {
        try {
          parts.push(readFileSync(storePath + suffix));
        } catch {
          // No WAL file yet.
        }
      }
      return Buffer.concat(parts);
    },
    /** A new bot and new store objects over the same SQLite file (a restart). */
    async restart() {
      await deps.service.close();
      await store.close();
      await build();
    },
    async close() {
      await deps.service.close();
      await store.close();
      await sim.stop();
      await tg.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One harness for the whole test file, closed after it; after every test the
 * bot must have left nothing behind (see `leftovers`). Hooks run after the
 * file body, so this returns a stand-in that forwards to the harness once it
 * has started.
 */
export function useBotHarness(options: BotHarnessOptions = {}): BotHarness {
  let current: BotHarness | undefined;
  beforeAll(async () => {
    current = await startBotHarness(options);
  });
  afterEach(() => {
    if (current) expect(current.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as BotHarness, {
    get(_target, property) {
      if (!current) throw new Error("useBotHarness: the harness is used before beforeAll ran");
      return Reflect.get(current, property, current) as unknown;
    },
  });
}
