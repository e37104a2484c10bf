import { randomBytes } from "node:crypto";
import { Api } from "grammy";
import type { Logger } from "pino";
import { createKeepCardOpener, createKeepModule, createRenewalCosts } from "./features/keep/index.js";
import { createBalanceModule } from "./features/balance/index.js";
import { createTrackingModule } from "./features/history/index.js";
import { createExpiryModule } from "./features/expiry/index.js";
import { createOutbox } from "./platform/push/index.js";
import { createWebhookInbox } from "./shared/webhooks/create-webhook-inbox.js";
import { createChatZones } from "./shared/limits/chat-zone.js";
import { otherChatsOfAccount } from "./bot/helpers/notifier-deps.js";
import { telegramParams } from "./bot/helpers/push-document.js";
import { createTelegramFetch } from "./platform/telegram/telegram-fetch.js";
import type { PushLimits } from "./platform/push/types.js";
import { ALLOWED_UPDATES, createIntake } from "./intake.js";
import { createServiceAccess } from "./platform/service/service-access.js";
import { runStopSteps } from "./platform/stop-steps.js";
import { createStorage } from "./shared/storage.js";
import { createBot, TELEGRAM_CALL_TIMEOUT_SECONDS, type BotDeps, type ConversationContext, type CreateBotOptions } from "./bot/index.js";
import { chatStoredLocale, createI18n } from "./bot/i18n.js";
import type { AppEventBus, AppEvents } from "./shared/events.js";
import { createEvents } from "./platform/events.js";
import { createFlows } from "./shared/flows.js";
import { createLinks } from "./bot/helpers/links.js";
import type { Config } from "./config.js";
import { checkSealedValuesAtStart } from "./shared/chats/sealed-audit.js";
import { createConfirmationRecovery } from "./shared/confirmations/confirmation-recovery.js";
import { createMetrics, type Metrics } from "./platform/metrics.js";
import { createLeases } from "./platform/store/lease.js";
import { createStoreWatch } from "./platform/store/store-watch.js";
import { DEFAULT_SPREAD } from "./shared/tracking/first-reads.js";
import { createTelegramLink } from "./platform/telegram/telegram-link.js";
import { createSendModule } from "./features/send/index.js";
import { createMiniAppModule } from "./mini-app/index.js";

export { ALLOWED_UPDATES };

export interface AppDeps {
  config: Config;
  logger: Logger;
  /**
   * Called when the app cannot go on by itself (polling refused: 401 revoked
   * token, 409 another instance). The caller shuts down and exits non-zero.
   */
  onFatal?: (error: unknown) => void;
  /** Hears the store go unreachable (false) and come back (true), as the store watch sees it. */
  onStoreReachability?: (up: boolean) => void;
  /** Ends a start still waiting for the store to be reachable. */
  signal?: AbortSignal;
  /** An outage was told already (it cut an earlier start short): waiting for the store again is not told again. */
  storeOutageTold?: boolean;
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
    /** The push queue's backoff after a transient Telegram failure (first delay, cap). */
    pushRetryBaseDelayMs?: number;
    pushRetryMaxDelayMs?: number;
    /** Telegram's send limits as the push queue and the bot's answers are paced to them (the fake Bot API of the tests enforces none by default). */
    pushLimits?: Partial<PushLimits>;
    /** The bot's own first wait after a Telegram 5xx (doubled after each); 3 s otherwise. */
    telegramServerErrorDelayMs?: number;
    /** How often the store watch looks at the store. */
    storeWatchIntervalMs?: number;
    /** The clock the keep plans' daily summaries read, so a test can move it past a midnight. */
    keepSummaryNow?: () => number;
  };
}

export interface App {
  readonly metrics: Metrics;
  /** The HTTP server's port once started (0 before). */
  readonly httpPort: number;
  start(): Promise<void>;
  /** A worker just failed to reach the store: the store watch looks now (and tells an outage it finds). */
  lookAtStore(): void;
  /** Idempotent: stops intake first, then the workers, then storage. */
  stop(): Promise<void>;
}

/** `{ key: value }` when the value is set, `{}` otherwise (optional properties stay absent). */
const given = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value ? ({ [key]: value } as { [P in K]: V }) : {});

/**
 * The composition root: storage (store, vault, chats, history, and the queue
 * mode, decided once) → service access → one I18n instance → the outbox (push
 * queue and Telegram budget) → the feature modules that run in the background
 * (expiry reminders, tracking, balance watch, keep plans) and the service's
 * webhook inbox → the flows and the confirmation recovery → the bot with its
 * features → intake (src/intake.ts: the runner or the Telegram webhook, and the
 * HTTP server).
 * Nothing here is global: two apps can live in one process (tests do that).
 */
export async function createApp({ config, logger, onFatal, onStoreReachability, signal, storeOutageTold, overrides = {} }: AppDeps): Promise<App> {
  const metrics = createMetrics();
  // What happens in one module and others act on (src/shared/events.ts): each subscribes where it is built.
  const events: AppEventBus = createEvents<AppEvents>();
  const storage = await createStorage({
    config,
    logger,
    events,
    ...given("onFatal", onFatal),
    ...given("signal", signal),
    ...given("outageTold", storeOutageTold),
  });
  const { store, vault, chats, history } = storage;
  const storeWatch = createStoreWatch({
    store,
    logger,
    ...given("intervalMs", overrides.storeWatchIntervalMs),
    ...given("onReachability", onStoreReachability),
  });
  const { service, pricing } = createServiceAccess({
    baseUrl: config.serviceBaseUrl,
    logger,
    metrics,
    tuning: { ...given("attemptTimeoutMs", overrides.serviceAttemptTimeoutMs), ...given("totalTimeoutMs", overrides.serviceTotalTimeoutMs) },
  });
  // The one I18n instance: the bot's middleware, the notifiers and the command menu.
  const i18n = createI18n<ConversationContext>({ defaultLocale: config.defaultLocale, storedLocale: chatStoredLocale(chats), logger });

  // Says (and retries) an unreachable Telegram, and tells /readyz how the latest call went.
  const telegram = createTelegramLink({ apiRoot: config.telegramApiRoot, token: config.botToken, logger });
  // A plain Api without auto-retry: the push queue must see Telegram's 429s to pace itself.
  const telegramHttp = createTelegramFetch();
  const pushApi = new Api(config.botToken, {
    apiRoot: config.telegramApiRoot,
    timeoutSeconds: TELEGRAM_CALL_TIMEOUT_SECONDS,
    fetch: telegramHttp.fetch as never,
  });
  pushApi.config.use(telegram.transformer);
  // One owner id per process: a plan, a chat's balance or a reminder is served by whichever process holds its lease.
  const owner = `${process.pid}-${randomBytes(6).toString("hex")}`;
  const leases = createLeases({ store, owner });
  const claim = (key: string, ttlMs: number) => leases.claim(key, ttlMs);
  const links = createLinks(config);
  // What the chats hear without having just asked, paced to Telegram's limits in one allowance with the bot's answers.
  const outbox = createOutbox({
    store,
    logger,
    metrics,
    ...storage.queueMode,
    transport: (job) => pushApi.raw[job.method](telegramParams(job) as never),
    retry: { ...given("baseDelayMs", overrides.pushRetryBaseDelayMs), ...given("maxDelayMs", overrides.pushRetryMaxDelayMs) },
    ...given("limits", overrides.pushLimits),
    isChatBlocked: async (chatId) => (await chats.get(chatId))?.active === false,
    onChatUnreachable: (chatId) => events.emit("chat.unreachable", { chatId }),
  });
  const { push } = outbox;
  // A chat that blocked the bot (or is gone) is marked so: nothing more is sent there, and its tracking ends.
  events.on("chat.unreachable", ({ chatId }) => chats.markInactive(chatId));
  // The chats' zones as /settings stored them, read by the notices each time they are drawn.
  const zones = createChatZones({
    settings: storage.limitSettings,
    defaultTimeZone: config.limitsTimeZone,
  });
  const notices = { push, chats, i18n, defaultLocale: config.defaultLocale, logger, zones, accountChatsOf: otherChatsOfAccount(chats) };
  // Before the tracking module: a fulfilled order's reminder is scheduled before its card (which shows the switch) is drawn.
  const reminders = createExpiryModule({
    store,
    jobs: storage.jobs,
    logger,
    events,
    notices,
    tuning: {
      leadMs: config.expiryReminderLeadMs,
      maxLeadPercent: config.expiryReminderMaxLeadPercent,
      rescanIntervalMs: config.expiryReminderRescanMs,
      claim,
    },
  });
  const tracking = createTrackingModule({
    store,
    chats,
    history,
    memo: storage.memo,
    addressBook: storage.addressBook,
    service,
    events,
    push,
    i18n,
    defaultLocale: config.defaultLocale,
    zones,
    links,
    reminders,
    logger,
    metrics,
    tuning: {
      tracker: {
        ...given("minDelayMs", overrides.trackerMinDelayMs),
        ...given("maxDelayMs", overrides.trackerMaxDelayMs),
        leases,
        leaseTtlMs: config.tracking.leaseTtlMs,
        scanIntervalMs: config.tracking.scanIntervalMs,
        firstReadSpread: { perItemMs: DEFAULT_SPREAD.perItemMs, maxMs: config.tracking.spreadMaxMs },
        readLimits: { maxPerSecond: config.tracking.maxReadsPerSecond },
        notFound: { graceMs: config.tracking.notFoundGraceMs, reads: config.tracking.notFoundReads },
      },
    },
  });
  const { tracker } = tracking;
  // The service's signed webhooks, stored before they are acknowledged; each is `webhook.received`, one unit of work.
  const inbox = createWebhookInbox({
    store,
    logger,
    metrics,
    ...storage.queueMode,
    onEvent: (notice) => (storage.memo ? storage.memo.run(() => events.emit("webhook.received", notice)) : events.emit("webhook.received", notice)),
    resolveTxId: async (chatId, txId) => (await history.findBroadcastByTxId(chatId, txId))?.id,
  });
  const balance = createBalanceModule({
    storage,
    events,
    service,
    push,
    i18n,
    defaultLocale: config.defaultLocale,
    links,
    logger,
    tuning: config.balanceWatch,
    claim,
    nextRenewalCostSun: createRenewalCosts({ store, logger }),
    topUps: {
      firstDelayMs: overrides.topUpFirstDelayMs ?? config.topUpWatch.firstDelayMs,
      maxDelayMs: overrides.topUpMaxDelayMs ?? config.topUpWatch.maxDelayMs,
    },
  });

  const flows = createFlows({
    store,
    addressBook: storage.addressBook,
    limitSettings: storage.limitSettings,
    service,
    usdtContract: config.network.usdtContract,
    logger,
    tracker,
    history,
    limits: {
      defaultTimeZone: config.limitsTimeZone,
      accountOf: async (chatId) => (await chats.account(chatId))?.id,
      onFreeze: (chatId) => events.emit("chat.frozen", { chatId }),
    },
  });
  const recovery = createConfirmationRecovery({
    store,
    jobs: storage.jobs,
    pending: flows.pending,
    quotes: flows.quotes,
    drafts: flows.drafts,
    placer: flows.placer,
    submitter: flows.submitter,
    getApiKey: (chatId) => chats.getApiKey(chatId),
    onOutcome: (outcome) => events.emit("confirmation.refused", outcome),
    logger,
  });
  const { keep, daySummaries } = createKeepModule({
    config,
    storage,
    leases,
    events,
    service,
    pricing,
    flows,
    spend: flows.limits,
    zones: flows.limits,
    push,
    i18n,
    links,
    logger,
    ...given("summaryNow", overrides.keepSummaryNow),
  });
  const send = createSendModule({ config, store, flows, chats, pricing, service, push, i18n, links, logger });
  const deps: BotDeps = {
    config,
    logger,
    metrics,
    store,
    vault,
    service,
    pricing,
    chats,
    i18n,
    flows,
    alerts: balance.alerts,
    topUps: balance.topUps,
    keep,
    keepSummaries: daySummaries,
    reminders,
    memo: storage.memo,
    send: send.bot,
    push,
  };
  const bot = createBot(deps, {
    ...given("botInfo", overrides.botInfo),
    ...given("retry", overrides.telegramServerErrorDelayMs ? { serverErrorDelayMs: overrides.telegramServerErrorDelayMs } : undefined),
    // The Bot API client's HTTP, shared with the push queue's Api.
    fetch: telegramHttp.fetch,
    // The bot's answers and the push queue's sends: one allowance, the answers first.
    budget: outbox.budget,
    innerTransformers: [telegram.transformer],
  });
  // A plan started in the Mini App gets its card in the chat through the bot's own API.
  const openKeepCard = createKeepCardOpener({ api: bot.api, i18n });
  const miniApp = createMiniAppModule({ config, i18n, chats, service, pricing, flows, links, logger, send: send.bot, openKeepCard, ...(keep ? { keep } : {}) });
  const intake = createIntake({
    config,
    logger,
    bot,
    store,
    vault,
    metrics,
    service,
    chats,
    telegram,
    inbox,
    owner,
    ...given("onFatal", onFatal),
    storeDataLost: () => storeWatch.dataLost,
    routes: [...send.routes, ...miniApp.routes],
  });

  let stopping: Promise<void> | undefined;
  // Ends a start() still waiting for Telegram when stop() is called.
  const lifetime = new AbortController();
  let sealedCheck: Promise<void> | undefined;

  async function stopAll(): Promise<void> {
    lifetime.abort(new Error("app stopped"));
    // Intake first (updates, webhooks), then the workers, then what they write to.
    await intake.stop();
    storeWatch.stop();
    await runStopSteps(logger, [
      ["keep-plans", () => keep.stop()],
      ["recovery", () => recovery.stop()],
      ["balance-watch", () => balance.topUps.stop()],
      ["account-watch", () => balance.watch.stop()],
      ["sealed-check", () => sealedCheck ?? Promise.resolve()],
    ]);
    await runStopSteps(logger, [
      ["inbox", () => inbox.stop()],
      ["tracking", () => tracking.stop()],
      ["expiry-reminders", () => reminders.stop()],
      ["push", () => outbox.stop()],
    ]);
    await runStopSteps(logger, [
      ["telegram-http", () => telegramHttp.close()],
      ["service", () => service.close()],
      ["store", () => storage.close()],
    ]);
  }

  return {
    metrics,
    lookAtStore: () => storeWatch.lookNow(),
    get httpPort() {
      return intake.httpPort;
    },
    async start() {
      logger.info({ storage: store.kind, mode: config.botMode, telegramApiRoot: config.telegramApiRoot }, "starting");
      await storeWatch.start();
      // In the background: chats whose secrets no configured key opens are named in the log, not left to read as unlinked.
      sealedCheck ??= checkSealedValuesAtStart({ chats, vault, logger, signal: lifetime.signal });
      // The push queue runs before anything can enqueue.
      await push.start();
      await inbox.start();
      await tracking.start();
      await reminders.start();
      // Quotes and 402s still waiting for a top-up when the process stopped.
      await balance.topUps.start();
      // Every linked chat's balance, compared with what was read before the restart.
      await balance.watch.start();
      // Confirmations a crash left unresolved: placed ones end up tracked, the others are told.
      await recovery.start();
      // Plans after the recovery: a slot whose confirmation a crash left open is resolved first.
      await keep.start();
      await intake.start(lifetime.signal);
      // The menu button opens the Mini App (https PUBLIC_URL only); a failure is logged, not fatal.
      await miniApp.offer(bot.api);
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}
