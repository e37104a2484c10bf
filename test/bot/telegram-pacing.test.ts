/**
 * The bot's own messages paced by the process's Telegram budget
 * (src/bot/middlewares/telegram-pacing.ts), installed as src/bot/index.ts
 * installs it, against the fake Bot API enforcing Telegram's limits. The
 * budget, the push queue and the fake share a virtual clock that stands
 * still while a call is on the wire: the times below are that clock's.
 */
import { Api, GrammyError, type Transformer } from "grammy";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramPacing } from "../../src/bot/middlewares/telegram-pacing.js";
import { telegramRetry } from "../../src/bot/middlewares/telegram-retry.js";
import { createLocalPushQueue } from "../../src/platform/push/create-local-push-queue.js";
import { createLocalTelegramBudget, type LocalTelegramBudget } from "../../src/platform/push/telegram-budget.js";
import { TELEGRAM_LIMITS, type PushQueue } from "../../src/platform/push/types.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../testkit/fake-telegram/fake-telegram.js";
import { createVirtualClock, type VirtualClock } from "../support/virtual-clock.js";
import { waitUntil } from "../support/wait.js";

const logger = pino({ level: "silent" });
const WINDOW_MS = 1_000 + TELEGRAM_LIMITS.marginMs;

describe("the bot's messages paced by the Telegram budget", () => {
  let clock: VirtualClock;
  let tg: FakeTelegram;
  let budget: LocalTelegramBudget;
  let api: Api;
  let store: StoreBackend;
  let queue: PushQueue;
  /** When each background notice left, by chat. */
  let noticeAt: Map<number, number>;

  beforeEach(async () => {
    clock = createVirtualClock();
    tg = await startFakeTelegram({ rateLimits: true, now: clock.now });
    budget = createLocalTelegramBudget({ clock });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    // As the app's link transformer sits closest to the network: here it holds the clock while a call is on the wire.
    const onTheWire: Transformer = (prev, method, payload, signal) => clock.hold(() => prev(method, payload, signal));
    api.config.use(onTheWire, telegramPacing(budget), ...telegramRetry({ serverErrorDelayMs: 1 }));
    store = await openStore("sqlite://:memory:", { logger, purgeIntervalMs: 0 });
    noticeAt = new Map();
    const pushApi = new Api(tg.token, { apiRoot: tg.apiRoot });
    queue = createLocalPushQueue({
      store,
      logger,
      clock,
      budget,
      transport: (job) =>
        clock.hold(async () => {
          const sent: unknown = await pushApi.raw[job.method](job.params as never);
          noticeAt.set(job.chatId, clock.now());
          return sent;
        }),
    });
    await queue.start();
  });

  afterEach(async () => {
    await queue.stop();
    await budget.close();
    await store.close();
    await tg.close();
  });

  it("sends a reply of two messages to one chat a chat window apart, so Telegram refuses neither", async () => {
    tg.addChat(1);
    await api.sendMessage(1, "first");
    const firstAt = clock.now();
    await api.sendMessage(1, "second");

    expect(tg.botMessages(1).map((m) => m.text)).toEqual(["first", "second"]);
    expect(clock.now() - firstAt).toBeGreaterThanOrEqual(WINDOW_MS);
    expect(tg.calls.filter((c) => c.errorCode === 429)).toEqual([]);
  });

  it("waits out a 429 longer than auto-retry's own wait, and holds the background notices for it too", async () => {
    for (const chat of [2, 3]) tg.addChat(chat);
    let limitedAt = 0;
    const { reply } = await clock.hold(async () => {
      tg.injectFault({ method: "sendMessage", kind: "refuse", code: 429, description: "Too Many Requests: retry after 30", retryAfter: 30 });
      const sending = api.sendMessage(2, "your quote");
      await waitUntil(() => budget.limiter.globalReadyAt(clock.now()) > clock.now() + 20_000, { timeoutMs: 30_000 });
      limitedAt = clock.now();
      await queue.enqueue({ id: "notice", chatId: 3, method: "sendMessage", params: { chat_id: 3, text: "order fulfilled" } });
      return { reply: sending };
    });

    await reply;
    await waitUntil(() => noticeAt.has(3), { timeoutMs: 30_000 });
    expect(tg.botMessages(2).map((m) => m.text)).toEqual(["your quote"]);
    expect(clock.now()).toBeGreaterThanOrEqual(limitedAt + 30_000);
    expect(noticeAt.get(3)).toBeGreaterThanOrEqual(limitedAt + 30_000);
  });

  it("passes on a 429 asking for more than a minute, as the error it is", async () => {
    tg.addChat(4);
    tg.injectFault({ method: "sendMessage", kind: "refuse", code: 429, description: "Too Many Requests: retry after 120", retryAfter: 120 });
    const refused = await api.sendMessage(4, "hello").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GrammyError);
    expect((refused as GrammyError).error_code).toBe(429);
  });

  it("takes no slot for what is not a message: a callback answer or a chat action leaves at once", async () => {
    const seen: string[] = [];
    const prev = ((method: string) => {
      seen.push(method);
      return Promise.resolve({ ok: true, result: true });
    }) as unknown as Parameters<Transformer>[0];
    const pacing = telegramPacing(budget);
    await budget.take(5);
    const at = clock.now();
    await pacing(prev, "sendChatAction", { chat_id: 5, action: "typing" } as never);
    await pacing(prev, "answerCallbackQuery", { callback_query_id: "q" });
    expect(seen).toEqual(["sendChatAction", "answerCallbackQuery"]);
    expect(clock.now()).toBe(at);
  });
});
