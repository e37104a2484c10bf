import { setTimeout as sleep } from "node:timers/promises";
import { run, type RunnerHandle } from "@grammyjs/runner";
import { Api } from "grammy";
import type { Logger } from "pino";
import { createBot, registerCommands, TELEGRAM_CALL_TIMEOUT_SECONDS, type CreateBotOptions } from "./bot/index.js";
import { createFlows, type FlowDeps } from "./bot/conversations/flow-deps.js";
import { createTopUpNotifier } from "./bot/features/top-up-notifier.js";
import { createTrackingNotifier } from "./bot/features/tracking-notifier.js";
import type { Config } from "./config.js";
import { createConfirmationRecovery } from "./core/confirmations/confirmation-recovery.js";
import { createChatRepository } from "./core/chats/chat-repository.js";
import { createMetrics, type Metrics } from "./core/metrics.js";
import { createOrderHistory } from "./core/orders/order-history.js";
import { createPricingCache } from "./core/pricing-cache.js";
import { createPushQueue, type PushJob } from "./core/push/index.js";
import { createServiceClient } from "./core/service/create-service-client.js";
import { openStore } from "./core/store/open-store.js";
import { createTracker } from "./core/tracking/tracker.js";
import { createVault } from "./core/vault.js";
import { createWebhookInbox } from "./core/webhooks/create-webhook-inbox.js";
import { createHttpServer } from "./server/index.js";
import { apiSignal, createTelegramLink } from "./telegram-link.js";

/** Update types the bot handles; anything else is not even fetched. */
export const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "inline_query", "my_chat_member"] as const;

export interface AppDeps {
  config: Config;
  logger: Logger;
  /**
   * Called when the app cannot go on by itself (polling refused: 401 revoked
   * token, 409 another instance). The caller shuts down and exits non-zero.
   */
  onFatal?: (error: unknown) => void;
  /** Overrides for tests: faster tracking, a known bot (no getMe). */
  overrides?: {
    botInfo?: CreateBotOptions["botInfo"];
    trackerMinDelayMs?: number;
    trackerMaxDelayMs?: number;
    /** Backoff of the balance watch after a short quote or a 402 (first read, cap). */
    topUpFirstDelayMs?: number;
    topUpMaxDelayMs?: number;
    serviceAttemptTimeoutMs?: number;
    serviceTotalTimeoutMs?: number;
  };
}

export interface App {
  readonly metrics: Metrics;
  /** The HTTP server's port once started (0 before). */
  readonly httpPort: number;
  start(): Promise<void>;
  /** Idempotent: stops intake first, then the workers, then storage. */
  stop(): Promise<void>;
}

/**
 * The composition root: store → vault → service client → pricing → chats →
 * push queue → tracker → flows (with the balance watch) → bot → webhook inbox → HTTP server.
 * Nothing here is global: two apps can live in one process (tests do that).
 */
export async function createApp({ config, logger, onFatal, overrides = {} }: AppDeps): Promise<App> {
  const metrics = createMetrics();
  const store = await openStore(config.storageUrl, { logger });
  const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
  const service = createServiceClient({
    baseUrl: config.serviceBaseUrl,
    logger,
    ...(overrides.serviceAttemptTimeoutMs ? { attemptTimeoutMs: overrides.serviceAttemptTimeoutMs } : {}),
    ...(overrides.serviceTotalTimeoutMs ? { totalTimeoutMs: overrides.serviceTotalTimeoutMs } : {}),
    onCall: ({ endpoint, outcome }) => metrics.inc("service_calls_total", { endpoint, outcome }),
  });
  const pricing = createPricingCache({ load: () => service.getPricing(), logger });
  const chats = createChatRepository({ store, vault, logger });
  // Scale-out: on Redis the queues run on BullMQ so several processes share them.
  const queueMode = store.kind === "redis" ? ({ queue: "bullmq", redisUrl: config.storageUrl } as const) : ({ queue: "local" } as const);

  // Says (and retries) an unreachable Telegram, and tells /readyz how the latest call went.
  const telegram = createTelegramLink({ apiRoot: config.telegramApiRoot, token: config.botToken, logger });
  // A plain Api without auto-retry: the push queue must see Telegram's 429s to pace itself.
  const pushApi = new Api(config.botToken, { apiRoot: config.telegramApiRoot, timeoutSeconds: TELEGRAM_CALL_TIMEOUT_SECONDS });
  pushApi.config.use(telegram.transformer);
  const push = createPushQueue({
    store,
    logger,
    metrics,
    ...queueMode,
    transport: (job: PushJob) => pushApi.raw[job.method](job.params as never),
    isChatBlocked: async (chatId) => (await chats.get(chatId))?.active === false,
    onChatUnreachable: async (chatId) => {
      await chats.markInactive(chatId);
      // Called only once the queue runs, after `tracker` below exists.
      await tracker.stopChat(chatId);
    },
  });
  const history = createOrderHistory({ store, logger, accountOf: (chatId) => chats.account(chatId) });
  const notifier = createTrackingNotifier({ push, chats, defaultLocale: config.defaultLocale, logger });
  const tracker = createTracker({
    store,
    service,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    onChange: (change) => notifier.onChange(change),
    onGiveUp: (event) => notifier.onGiveUp(event),
    history,
    logger,
    metrics,
    ...(overrides.trackerMinDelayMs ? { minDelayMs: overrides.trackerMinDelayMs } : {}),
    ...(overrides.trackerMaxDelayMs ? { maxDelayMs: overrides.trackerMaxDelayMs } : {}),
  });
  const topUpNotifier = createTopUpNotifier({ push, chats, defaultLocale: config.defaultLocale, logger });
  const flows = createFlows({
    store,
    service,
    logger,
    tracker: tracker,
    history,
    topUps: {
      getApiKey: (chatId) => chats.getApiKey(chatId),
      onCredited: (event) => topUpNotifier.onCredited(event),
      ...(overrides.topUpFirstDelayMs ? { firstDelayMs: overrides.topUpFirstDelayMs } : {}),
      ...(overrides.topUpMaxDelayMs ? { maxDelayMs: overrides.topUpMaxDelayMs } : {}),
    },
  });
  const recovery = createConfirmationRecovery({
    pending: flows.pending,
    quotes: flows.quotes,
    drafts: flows.drafts,
    placer: flows.placer,
    submitter: flows.submitter,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    onOutcome: (outcome) => notifier.onRecovered(outcome),
    logger,
  });
  const deps: FlowDeps = { config, logger, metrics, store, vault, service, pricing, chats, flows };
  const bot = createBot(deps, { ...(overrides.botInfo ? { botInfo: overrides.botInfo } : {}), innerTransformers: [telegram.transformer] });

  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    ...queueMode,
    onEvent: (notice) => tracker.hint(notice),
    resolveTxId: async (chatId, txId) => (await history.findBroadcastByTxId(chatId, txId))?.id,
  });
  const server = createHttpServer({
    config,
    logger,
    metrics,
    store,
    service,
    telegramState: () => telegram.state(),
    chats,
    inbox,
    bot: config.botMode === "webhook" ? bot : undefined,
    telegramSecretToken: config.telegramWebhookSecret,
  });

  let runner: RunnerHandle | undefined;
  let httpPort = 0;
  let stopping: Promise<void> | undefined;
  // Ends a start() still waiting for Telegram when stop() is called.
  const lifetime = new AbortController();

  /**
   * The runner's stop() ends only the fetching: updates already in its sink keep
   * running and must finish before the stores they write to close (bounded, as
   * the sink's own timeout is).
   */
  async function stopRunner(handle: RunnerHandle): Promise<void> {
    await handle.stop();
    const end = Date.now() + 15_000;
    while (handle.size() > 0 && Date.now() < end) await sleep(10);
  }

  async function stopAll(): Promise<void> {
    const step = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
      try {
        await fn();
      } catch (error) {
        logger.error({ err: error, step: name }, "shutdown step failed");
      }
    };
    lifetime.abort(new Error("app stopped"));
    // Intake first (updates, webhooks), then the workers, then what they write to.
    if (runner?.isRunning()) await step("runner", () => stopRunner(runner!));
    await step("http", () => server.stop());
    await step("inbox", () => inbox.stop());
    await step("recovery", () => recovery.stop());
    await step("tracker", () => tracker.stop());
    await step("balance-watch", async () => flows.balanceWatch?.stop());
    await step("push", () => push.stop());
    await step("service", () => service.close());
    await step("store", () => store.close());
  }

  return {
    metrics,
    get httpPort() {
      return httpPort;
    },
    async start() {
      logger.info({ storage: store.kind, mode: config.botMode, telegramApiRoot: config.telegramApiRoot }, "starting");
      await push.start();
      await inbox.start();
      await tracker.start();
      // Quotes and 402s still waiting for a top-up when the process stopped.
      await flows.balanceWatch?.start();
      // Confirmations a crash left unresolved: placed ones end up tracked, the others are told.
      await recovery.start();
      // Before Telegram is reached: /healthz answers while getMe is still retried.
      httpPort = (await server.start()).port;
      await bot.init(apiSignal(lifetime.signal));
      logger.info({ username: bot.botInfo.username }, "connected to Telegram");
      if (config.botMode === "worker") {
        // Telegram intake (updates, webhook, command menu) belongs to the process that polls or takes /telegram.
        logger.info({ httpPort }, "started as a worker: no Telegram intake");
        return;
      }
      try {
        await registerCommands(bot, { defaultLocale: config.defaultLocale });
      } catch (error) {
        // The command menu is a convenience; the bot works without it.
        logger.warn({ err: error }, "setMyCommands failed");
      }
      if (config.botMode === "webhook") {
        await bot.api.setWebhook(
          `${config.publicUrl}/telegram`,
          {
            allowed_updates: [...ALLOWED_UPDATES],
            ...(config.telegramWebhookSecret ? { secret_token: config.telegramWebhookSecret } : {}),
          },
          apiSignal(lifetime.signal),
        );
      } else {
        await bot.api.deleteWebhook(undefined, apiSignal(lifetime.signal));
        // Updates of one chat in order, different chats in parallel.
        runner = run(bot, { runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES] }, silent: true } });
        runner.task()?.catch((error: unknown) => {
          logger.fatal({ err: error }, "polling stopped: Telegram refused getUpdates");
          onFatal?.(error);
        });
      }
      logger.info({ httpPort }, "started");
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}
