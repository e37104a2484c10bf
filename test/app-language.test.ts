/**
 * The language of messages no tap started, through the whole app (fake Bot
 * API, simulator, balance watch, webhook relay): a chat whose user never
 * pressed /language gets its deposit notices and relayed service events in
 * the user's Telegram language, kept current as that language changes; a
 * /language choice wins over it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.js";
import { failOnLoggedErrors, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

const FAST = { BALANCE_WATCH_INTERVAL_MS: "60", BALANCE_WATCH_SETTLE_MS: "30", BALANCE_WATCH_MAX_BACKOFF_MS: "300" };

/** The first words of the deposit notice, per language. */
const TEXTS = {
  en: { deposit: "💰 Deposit credited:" },
  ru: { deposit: "💰 Пополнение зачислено:" },
  zh: { deposit: "💰 充值已到账：" },
} as const;
type Lang = keyof typeof TEXTS;

// Each test walks the link, a deposit and a webhook in sequence, each wait with its own 20 s deadline.
describe("the language of background messages", { timeout: 90_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;
  let app: App;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    app = await w.startApp(target, FAST);
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  /** A chat whose Telegram app speaks `languageCode`, linked with an account of its own, whose balance the watch has read once. */
  async function linkedChat(chatId: number, languageCode: string) {
    w.tg.addChat(chatId, { languageCode });
    const account = w.sim.createAccount({ balanceSun: 100_000_000 });
    await w.say(chatId, `/link ${account.apiKey} ${account.webhookSecret}`, (m) => m.text.includes("/hooks/") || m.text.includes("TRX"));
    await waitFor(() => w.logs.some((l) => l.msg === "balance watch baseline read" && l["chatId"] === chatId), "the baseline read");
    return account;
  }

  /**
   * The chat's deposit notices, in any language. Only the language is judged: the amount of a deposit that comes
   * within one read of a charge the bot has not yet seen is the sum of both (docs/balance-watch.md).
   */
  function started(chatId: number, what: "deposit"): { lang: Lang; text: string }[] {
    return w.tg.botMessages(chatId).flatMap((m) => {
      const lang = (Object.keys(TEXTS) as Lang[]).find((l) => m.text.startsWith(TEXTS[l][what]));
      return lang === undefined ? [] : [{ lang, text: m.text }];
    });
  }

  /** The language a notice is written in, by its script: a ru or zh notice holds no sentence of English. */
  function languageOf(text: string): Lang {
    if (/[\u4e00-\u9fff]/.test(text)) return "zh";
    if (/[\u0400-\u04ff]/.test(text)) return "ru";
    return "en";
  }

  async function depositNotice(chatId: number, accountId: string, count: number): Promise<Lang> {
    // Credited: the service takes deposits from 10 TRX up.
    expect(w.sim.deposit(accountId, 12_000_000)).toBe(true);
    const notices = await waitFor(() => (started(chatId, "deposit").length >= count ? started(chatId, "deposit") : undefined), "the deposit notice");
    return notices[count - 1]!.lang;
  }

  async function relayedOrder(chatId: number, apiKey: string): Promise<Lang> {
    const routeId = await w.routeIdOf(chatId);
    w.sim.setCallbackUrl(apiKey, `http://127.0.0.1:${app.httpPort}/hooks/${routeId}`);
    const orderId = await w.orderBehindTheBotsBack(`lang-${chatId}-${Date.now()}`, apiKey);
    // "New on your account" when the relay finds the order still open; only the final notice when it has ended by then.
    const told = await waitFor(() => w.tg.botMessages(chatId).find((m) => m.text.includes(orderId)), "the chat being told about the order");
    return languageOf(told.text);
  }

  it("writes a deposit notice and a relayed service event in Russian to a chat whose Telegram speaks ru-RU", async () => {
    const account = await linkedChat(6101, "ru-RU");
    expect(await depositNotice(6101, account.accountId, 1)).toBe("ru");
    expect(await relayedOrder(6101, account.apiKey)).toBe("ru");
  });

  it("writes them in Chinese when Telegram speaks zh, and follows the Telegram language when it changes", async () => {
    const account = await linkedChat(6102, "zh-hans");
    expect(await depositNotice(6102, account.accountId, 1)).toBe("zh");
    expect(await relayedOrder(6102, account.apiKey)).toBe("zh");

    // The user switches the Telegram app to Russian: the next message they send says so.
    w.tg.addChat(6102, { languageCode: "ru" });
    await w.say(6102, "/help", (m) => m.text.includes("/language"));
    expect(await depositNotice(6102, account.accountId, 2)).toBe("ru");
  });

  it("keeps a /language choice of English over a Russian Telegram", async () => {
    const account = await linkedChat(6103, "ru");
    await w.say(6103, "/language", (m) => m.text.length > 0);
    w.front.enqueue(w.tg.press(6103, "🇬🇧 English"));
    await waitFor(() => w.botTexts(6103, /^Done: I will speak English/).length > 0, "the /language confirmation");
    expect(await depositNotice(6103, account.accountId, 1)).toBe("en");
    expect(await relayedOrder(6103, account.apiKey)).toBe("en");
  });
});
