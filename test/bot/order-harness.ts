/**
 * The real bot with the ordering flows installed on top of the bot core's
 * harness (fake Bot API, simulator with fast lifecycles, temp SQLite), and
 * what the app builds for background messages (push queue, tracker,
 * notifiers, webhook inbox: test/support/delivery.ts) sharing the bot's
 * I18n. `restart()` stops them and the balance watch, then builds
 * everything anew over the same file.
 */
import type { AppEvents } from "../../src/shared/events.js";
import { createEvents } from "../../src/platform/events.js";
import type { Bot } from "grammy";
import { afterEach, beforeEach, expect } from "vitest";
import { createTestDelivery, type TestDelivery } from "../support/delivery.js";
import { createKeepPlans, followPlanEvents } from "../../src/features/keep/keep-plans.js";
import { createFlows, type CreateFlowsDeps } from "../../src/shared/flows.js";
import { createBalanceWatcher, whileStillSendable } from "../../src/features/balance/top-up-watcher.js";
import { createLeases } from "../../src/platform/store/lease.js";
import type { BotContext } from "../../src/bot/index.js";
import { telegramParams } from "../../src/bot/helpers/push-document.js";
import { createOrderHistory } from "../../src/shared/orders/order-history.js";
import type { TrackerDeps } from "../../src/shared/tracking/tracker.js";
import { startBotHarness, type BotHarnessOptions } from "../support/bot-harness.js";
import { waitUntil } from "../support/wait.js";
import { createJobsEngine } from "../../src/platform/jobs/jobs-engine.js";

export interface OrderHarnessOptions extends BotHarnessOptions {
  tracker?: Partial<Pick<TrackerDeps, "minDelayMs" | "maxDelayMs" | "orderHorizonMs" | "broadcastMarginMs">>;
  /** Injected clock for flows (quote expiry, local expiration checks). */
  now?: () => number;
  /** Backoff of the balance watch (default: 20 ms doubling to 100 ms). */
  topUp?: { firstDelayMs?: number; maxDelayMs?: number; maxWatchMs?: number };
  /** The stablecoin contract the bot reads as USDT (mainnet USDT by default). */
  usdtContract?: string;
  /** What Freeze also calls, and the zone of chats that set none. */
  limits?: CreateFlowsDeps["limits"];
  /** How long a batch's card gathers changes before one edit (default 30 ms). */
  batchCoalesceMs?: number;
  /** Offers /keep (plans are proposed and listed; no scheduler runs, so none renews). */
  keep?: boolean;
  /** How long a Confirm whose answer was lost keeps checking before the journal takes over (default: the app's). */
  untilKnown?: CreateFlowsDeps["untilKnown"];
}

export async function startOrderHarness(options: OrderHarnessOptions = {}) {
  const current: { bot?: () => Bot<BotContext> } = {};
  let delivery: TestDelivery | undefined;
  const now = options.now ?? Date.now;

  const h = await startBotHarness({
    ...options,
    simulator: { orderStepMs: 40, broadcastStepMs: 40, ...options.simulator },
    extendDeps: (deps) => {
      const events = createEvents<AppEvents>();
      const history = createOrderHistory({ store: deps.store, logger: deps.logger, accountOf: (chatId) => deps.chats.account(chatId) });
      delivery = createTestDelivery({
        storage: { store: deps.store, chats: deps.chats, history, queueMode: { queue: "local" } },
        service: deps.service,
        events,
        i18n: deps.i18n,
        defaultLocale: deps.config.defaultLocale,
        ...(options.limits?.defaultTimeZone === undefined ? {} : { defaultTimeZone: options.limits.defaultTimeZone }),
        logger: deps.logger,
        metrics: deps.metrics,
        // Through the bot's own Api (auto-retry included), as the flows' sends go.
        transport: (job) => (current.bot!().api.raw as unknown as Record<string, (p: unknown) => Promise<unknown>>)[job.method]!(telegramParams(job)),
        tuning: {
          push: {
            limits: { globalPerSecond: 1_000, perChatPerSecond: 1_000, perGroupPerMinute: 1_000, marginMs: 0 },
            retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 3 },
          },
          tracker: { minDelayMs: 20, maxDelayMs: 100, ...options.tracker },
          now,
          batchCoalesceMs: options.batchCoalesceMs ?? 30,
        },
      });
      const tracker = delivery.tracker;
      const usdt = options.usdtContract === undefined ? {} : { usdtContract: options.usdtContract };
      const jobs = createJobsEngine({ store: deps.store, queue: "local" });
      const balanceWatch = createBalanceWatcher({
        store: deps.store,
        jobs,
        service: deps.service,
        logger: deps.logger,
        now,
        isWanted: whileStillSendable({ store: deps.store, logger: deps.logger, now }),
        getApiKey: (chatId: number) => deps.chats.getApiKey(chatId),
        onCredited: delivery.topUpNotifier.onCredited,
        firstDelayMs: 20,
        maxDelayMs: 100,
        ...options.topUp,
      });
      const limits = options.limits === undefined ? {} : { limits: options.limits };
      const untilKnown = options.untilKnown === undefined ? {} : { untilKnown: options.untilKnown };
      const flows = createFlows({
        store: deps.store,
        service: deps.service,
        logger: deps.logger,
        tracker,
        history,
        now,
        ...usdt,
        ...limits,
        ...untilKnown,
      });
      const plans = options.keep
        ? createKeepPlans({
            store: deps.store,
            jobs,
            leases: createLeases({ store: deps.store, owner: "order-harness" }),
            service: deps.service,
            pricing: deps.pricing,
            quotes: flows.quotes,
            placer: flows.placer,
            history,
            chats: deps.chats,
            onEvent: () => Promise.resolve(),
            logger: deps.logger,
            now,
          })
        : undefined;
      if (plans) followPlanEvents(events, plans, deps.chats);
      const keep = plans ? { keep: plans } : {};
      return { ...deps, flows, topUps: balanceWatch, reminders: delivery.reminders, push: delivery.push, ...keep };
    },
  });
  current.bot = () => h.bot;
  const startParts = async () => {
    await delivery!.start();
    await h.deps.topUps?.start();
  };
  const stopParts = async () => {
    await h.deps.topUps?.stop();
    await delivery!.stop();
  };
  await startParts();

  /**
   * Waits until `check` holds (no timed assertions: the bound is only a safety net). 45 s, as every other
   * wait: with the whole suite and a CPU hog on a slow two-core machine, a broadcast's chain (the service,
   * the tracker, the notice, then the card's edit) took more than 15 s to come through.
   */
  async function until(check: () => boolean | Promise<boolean>, ms = 45_000): Promise<void> {
    try {
      await waitUntil(check, { timeoutMs: ms, intervalMs: 15 });
    } catch (error) {
      // A wait that never ends says what the bot was doing, so a rare failure can be read from the CI log alone.
      console.error(await describeState().catch((stateError: unknown) => `order harness state unavailable: ${String(stateError)}`));
      throw error;
    }
  }

  async function describeState(): Promise<string> {
    const chats = [...new Set(h.tg.calls.map((c) => c.params["chat_id"]).filter((id) => typeof id === "number"))];
    const messages = chats.flatMap((chatId) => h.tg.view(chatId).map((m) => `  ${chatId}#${m.messageId}: ${m.text.slice(0, 120).replaceAll("\n", " | ")}`));
    const logTail = h.rawLogs.slice(-60).map((line) => `  ${line.trim().slice(0, 400)}`);
    const requests = h.sim.requests.slice(-20).map((r) => `  ${r.method} ${r.path}`);
    return [
      `order harness state: tracker ${delivery!.tracker.size} items, push ${await delivery!.push.size()} jobs`,
      "messages:",
      ...messages,
      "last service requests:",
      ...requests,
      "last log lines:",
      ...logTail,
    ].join("\n");
  }

  /** The current text of one message (edits included), whatever arrived after it. */
  const textOf = (chatId: number, messageId: number | undefined): string => h.tg.view(chatId).find((m) => m.messageId === messageId)?.text ?? "";
  /** Message id of the button a pressed update came from. */
  const pressedMessage = (update: { callback_query?: { message?: { message_id: number } } }): number | undefined => update.callback_query?.message?.message_id;

  return {
    ...h,
    textOf,
    pressedMessage,
    get bot() {
      return h.bot;
    },
    get deps() {
      return h.deps;
    },
    get flows() {
      return h.deps.flows;
    },
    get tracker() {
      return delivery!.tracker;
    },
    /** Push jobs waiting or in flight: 0 once every queued message reached the fake Bot API. */
    pushSize: () => delivery!.push.size(),
    until,
    async restart() {
      await stopParts();
      await h.restart();
      await startParts();
    },
    async close() {
      await stopParts();
      await h.close();
    },
  };
}

export type OrderHarness = Awaited<ReturnType<typeof startOrderHarness>>;

export function debitsOf(h: OrderHarness, accountId: string): number[] {
  return h.sim
    .ledger(accountId)
    .filter((e) => e.kind === "debit")
    .map((e) => e.amountSun);
}

/** Closes the harness after asserting the run made no failed Telegram call and logged no error. */
export async function closeChecked(h: OrderHarness): Promise<void> {
  try {
    expect(h.tg.failedCalls()).toEqual([]);
    expect(h.errorLogs()).toEqual([]);
  } finally {
    await h.close();
  }
}

/** One harness per test, handed to `use` before each test and closed (checked) after it. */
export function useOrderHarness(use: (h: OrderHarness) => void, options: OrderHarnessOptions = {}): void {
  let current: OrderHarness | undefined;
  beforeEach(async () => {
    current = await startOrderHarness(options);
    use(current);
  });
  afterEach(async () => {
    if (current) await closeChecked(current);
    current = undefined;
  });
}
