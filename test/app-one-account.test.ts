/**
 * One account linked in three chats, through the whole app (simulator, fake
 * Bot API): it is one account. The chats share the key's one webhook route;
 * what any of them spends is the bot's own in every chat's balance watch (no
 * "the bot did not spend" alarm); /orders, /statement and /limits say the
 * same in the three; what the account hears unasked (a deposit, a relayed
 * service event, a fulfilled order) reaches each chat in its own language:
 * English chosen with /language, Russian and Chinese only from the users'
 * Telegram language (docs/balance-watch.md, "Who is told"); and a keep plan's
 * renewals are its card's digest, a message in no chat.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredMessage } from "../testkit/fake-telegram/fake-telegram-state.js";
import { failOnLoggedErrors, RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

const FAST = {
  BALANCE_WATCH_INTERVAL_MS: "60",
  BALANCE_WATCH_SETTLE_MS: "30",
  BALANCE_WATCH_MAX_BACKOFF_MS: "300",
  KEEP_TICK_MS: "50",
  KEEP_RENEWAL_LEAD_MS: "60000",
  KEEP_LEAD_MAX_FRACTION: "0.99",
  KEEP_LEASE_TTL_MS: "2000",
  KEEP_BALANCE_RECHECK_MS: "50",
};

const EN = 7101;
const RU = 7102;
const ZH = 7103;
const CHATS = [EN, RU, ZH] as const;
type Chat = (typeof CHATS)[number];

/** How each chat's messages begin, in its language. */
const TEXTS: Record<Chat, { deposit: string; seen: string; fulfilled: RegExp; foreign: RegExp; placedIn: string }> = {
  [EN]: {
    deposit: "💰 Deposit credited:",
    seen: "New on your account:",
    fulfilled: /^✅ Order (\w+) is fulfilled/,
    foreign: /did not spend/,
    placedIn: "↪ Placed from another chat",
  },
  [RU]: {
    deposit: "💰 Пополнение зачислено:",
    seen: "Новое в вашем аккаунте:",
    fulfilled: /^✅ Заказ (\w+) выполнен/,
    foreign: /бот не тратил/,
    placedIn: "↪ Оформлено из другого чата",
  },
  [ZH]: {
    deposit: "💰 充值已到账：",
    seen: "您的账户有新记录：",
    fulfilled: /^✅ 订单 (\w+) 已完成/,
    foreign: /不是机器人花的/,
    placedIn: "↪ 由此账户的另一个聊天下单",
  },
};

/** The numbers of a text, read the same way whatever the locale wrote them ("1 000,5" and "1,000.5" alike), sorted. */
function numbersOf(text: string): string[] {
  const plain = text.replace(/(\d)[\s\u00a0\u202f,](?=\d{3}\b)/g, "$1").replace(/(\d),(\d)/g, "$1.$2");
  return (plain.match(/\d+(?:\.\d+)?/g) ?? []).sort();
}

describe("one account linked in three chats", { timeout: 120_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;
  let port: number;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    port = (await w.startApp(target, FAST)).httpPort;
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  const started = (chatId: Chat, prefix: string): StoredMessage[] => w.tg.botMessages(chatId).filter((m) => m.text.startsWith(prefix));
  const fulfilledIds = (chatId: Chat): string[] => w.tg.botMessages(chatId).flatMap((m) => TEXTS[chatId].fulfilled.exec(m.text)?.[1] ?? []);

  it("shares the key's one webhook route, and says so when the second and third chat link it", async () => {
    // The English chat's user runs Telegram in German and chooses English; the others never touch /language.
    w.tg.addChat(EN, { languageCode: "de" });
    w.tg.addChat(RU, { languageCode: "ru-RU" });
    w.tg.addChat(ZH, { languageCode: "zh-hans" });
    await w.say(EN, "/language", (m) => m.text.length > 0);
    w.front.enqueue(w.tg.press(EN, "🇬🇧 English"));
    await waitFor(() => w.botTexts(EN, /^Done: I will speak English/).length > 0, "the /language confirmation");

    const link = (chatId: Chat) => w.say(chatId, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.includes("/hooks/"));
    const first = await link(EN);
    expect(first.text).toContain("Your personal callback URL");
    const second = await link(RU);
    expect(second.text).toContain("остаётся прежним");
    const third = await link(ZH);
    expect(third.text).toContain("回调地址保持不变");
    for (const chatId of CHATS) {
      await waitFor(() => w.logs.some((l) => l.msg === "balance watch baseline read" && l["chatId"] === chatId), `the baseline read of ${chatId}`);
    }
    const routes = [await w.routeIdOf(EN), await w.routeIdOf(RU), await w.routeIdOf(ZH)];
    expect(new Set(routes).size).toBe(1);
    w.sim.setCallbackUrl(w.demo.apiKey, `http://127.0.0.1:${port}/hooks/${routes[0]}`);
  });

  it("tells a deposit in every chat, each in its language, once", async () => {
    expect(w.sim.deposit(w.demo.accountId, 12_000_000)).toBe(true);
    for (const chatId of CHATS) await waitFor(() => started(chatId, TEXTS[chatId].deposit).length === 1, `the deposit notice in ${chatId}`);
  });

  it("takes an order placed in one chat for the bot's own in all three, and tells its fulfilment in each", async () => {
    const quote = await w.say(RU, `/order ${RECEIVER} 100k 1h`, (m) => m.text.startsWith("Расчёт стоимости"));
    w.front.enqueue(w.tg.press(RU, "✅ Подтвердить", { messageId: quote.messageId }));
    const orderId = (await waitFor(() => /^Заказ ([0-9a-f]{24})/.exec(w.textOf(RU, quote.messageId)) ?? undefined, "the order card"))[1]!;
    for (const chatId of CHATS) await waitFor(() => fulfilledIds(chatId).includes(orderId), `the fulfilled notice in ${chatId}`);
    // The other chats are told where it was placed.
    expect(w.tg.botMessages(ZH).find((m) => m.text.includes(orderId) && TEXTS[ZH].fulfilled.test(m.text))?.text).toContain(TEXTS[ZH].placedIn);
    // Each watch reads the balance (well) after the charge: a deposit then is told exactly, which it could not be after a false alarm.
    expect(w.sim.deposit(w.demo.accountId, 10_000_000)).toBe(true);
    for (const chatId of CHATS) await waitFor(() => started(chatId, TEXTS[chatId].deposit).length === 2, `the second deposit notice in ${chatId}`);
    for (const chatId of CHATS) {
      expect(w.botTexts(chatId, TEXTS[chatId].foreign)).toEqual([]);
      expect(started(chatId, TEXTS[chatId].deposit)[1]!.text).toMatch(/\+10 TRX/);
    }
  });

  it("takes an order whose webhooks overtake the answer to its POST for the bot's own: no chat hears of it as new, each hears its end once", async () => {
    // The service handles the POST and sends its webhooks (created, then fulfilled) before its answer reaches the bot.
    w.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "delay", ms: 1_500, afterProcessing: true, times: 1 });
    // Placed in the English chat; the account's route resolves to another of its chats.
    const quote = await w.say(EN, `/order ${RECEIVER} 100k 1h`, (m) => m.text.startsWith("Your quote"));
    w.front.enqueue(w.tg.press(EN, "✅ Confirm", { messageId: quote.messageId }));
    const orderId = (await waitFor(() => /^Order ([0-9a-f]{24})/.exec(w.textOf(EN, quote.messageId)) ?? undefined, "the order card"))[1]!;
    for (const chatId of CHATS) await waitFor(() => fulfilledIds(chatId).includes(orderId), `the fulfilled notice in ${chatId}`);
    const toldOnce = () => {
      for (const chatId of CHATS) {
        expect(started(chatId, TEXTS[chatId].seen).filter((m) => m.text.includes(orderId))).toEqual([]);
        expect(fulfilledIds(chatId).filter((id) => id === orderId)).toHaveLength(1);
      }
    };
    toldOnce();
    // The webhooks came first: the routed chat's first sight waited out the grace, then found the order placed in the English chat.
    const said = (msg: string) => w.logs.some((l) => l.msg === msg && l["id"] === orderId);
    expect(said("first sight held back: a confirmation of the account is in flight")).toBe(true);
    await waitFor(() => said("first sight placed by another chat of the account"), "the held first sight read");
    toldOnce();
  });

  it("shows a keep plan's renewals on its card alone: no chat of the account gets a message per renewal", async () => {
    const before = new Map(CHATS.map((chatId) => [chatId, w.tg.botMessages(chatId).length]));
    const proposal = await w.say(EN, `/keep ${RECEIVER} 100k 1m`, (m) => m.text.includes("Keep charged"));
    const cardId = proposal.messageId;
    w.front.enqueue(w.tg.press(EN, "✅ Start", { messageId: cardId }));
    // The first order and two renewals, counted on the plan's card.
    await waitFor(() => /Orders placed: ([3-9]|\d\d+)\n/.test(w.textOf(EN, cardId)), "three orders on the card");
    w.front.enqueue(w.tg.press(EN, "⏹ Stop", { messageId: cardId }));
    await waitFor(() => w.textOf(EN, cardId).includes("⏹ Stopped."), "the stopped plan");
    await waitFor(() => /Last order [0-9a-f]{24}: fulfilled/.test(w.textOf(EN, cardId)), "the last order delivered on the card");
    // The plan's chat holds its proposal, now the card; the account's other chats hear of the plan's own events only (none here).
    expect(w.tg.botMessages(EN)).toHaveLength(before.get(EN)! + 1);
    for (const chatId of [RU, ZH] as const) expect(w.tg.botMessages(chatId)).toHaveLength(before.get(chatId)!);
    for (const chatId of CHATS) expect(w.botTexts(chatId, TEXTS[chatId].foreign)).toEqual([]);
  });

  it("relays a service event about the account to every chat, each in its language", async () => {
    const orderId = await w.orderBehindTheBotsBack("one-account-relayed");
    // Told as new on the account, or (when the service delivered it before the first read) as fulfilled.
    const told = (chatId: Chat) =>
      w.tg.botMessages(chatId).some((m) => m.text.includes(orderId) && (m.text.startsWith(TEXTS[chatId].seen) || TEXTS[chatId].fulfilled.test(m.text)));
    for (const chatId of CHATS) await waitFor(() => told(chatId), `the relayed order in ${chatId}`);
  });

  it("shows one ledger, one statement and one set of limits in the three chats", async () => {
    const ids = (text: string) => [...text.matchAll(/\b[0-9a-f]{24}\b/g)].map((m) => m[0]);
    const titles: Record<Chat, string> = {
      [EN]: "Orders and broadcasts of this account",
      [RU]: "Заказы и отправки этого аккаунта",
      [ZH]: "此账户的订单和广播",
    };
    const orders = await Promise.all(CHATS.map((chatId) => w.say(chatId, "/orders", (m) => m.text.startsWith(titles[chatId]))));
    expect(ids(orders[1]!.text)).toEqual(ids(orders[0]!.text));
    expect(ids(orders[2]!.text)).toEqual(ids(orders[0]!.text));
    expect(ids(orders[0]!.text).length).toBeGreaterThan(2);
    // Lines placed from the Russian chat say so in the others.
    expect(orders[0]!.text).toContain("placed from another chat");

    // A daily cap set in the English chat is the cap of all three.
    await w.say(EN, "/limits", (m) => m.text.startsWith("Spend limits"));
    w.front.enqueue(w.tg.press(EN, "Daily cap"));
    // The card turns into the cap's choices; ✏️ Custom asks for the amount.
    await waitFor(() => w.tg.botMessages(EN).some((m) => m.buttons.flat().some((b) => b.text === "✏️ Custom")), "the cap's choices");
    w.front.enqueue(w.tg.press(EN, "✏️ Custom"));
    await waitFor(() => w.botTexts(EN, /^Send the daily cap/).length > 0, "the question");
    await w.say(EN, "5000", (m) => m.text.startsWith("✅ Saved."));
    const limitsTitles: Record<Chat, string> = { [EN]: "Spend limits of this account", [RU]: "Лимиты расходов этого аккаунта", [ZH]: "此账户的支出限额" };
    const limits = await Promise.all(CHATS.map((chatId) => w.say(chatId, "/limits", (m) => m.text.startsWith(limitsTitles[chatId]))));
    for (const text of limits.map((m) => m.text)) expect(numbersOf(text)).toEqual(numbersOf(limits[0]!.text));
    expect(numbersOf(limits[0]!.text)).toContain("5000");

    const statementTitles: Record<Chat, string> = { [EN]: "Statement of this account for", [RU]: "Выписка этого аккаунта за", [ZH]: "此账户 " };
    const statements = await Promise.all(CHATS.map((chatId) => w.say(chatId, "/statement", (m) => m.text.startsWith(statementTitles[chatId]))));
    // The month's name differs by language; everything between the title and the chart's caption is numbers that must agree.
    const body = (text: string) => numbersOf(text.split("\n\n").slice(0, -1).join("\n\n").split("\n").slice(1).join("\n"));
    for (const m of statements) expect(body(m.text)).toEqual(body(statements[0]!.text));
    for (const [i, chatId] of CHATS.entries()) w.front.enqueue(w.tg.press(chatId, /^📄/, { messageId: statements[i]!.messageId }));
    await waitFor(() => CHATS.every((chatId) => w.tg.botMessages(chatId).some((m) => m.document?.fileName?.startsWith("statement-") === true)), "the CSVs");
    // The CSV is one file in the three chats; its chat column names the chat that placed each line.
    const csvOf = (chatId: Chat) =>
      w.tg
        .botMessages(chatId)
        .filter((m) => m.document?.fileName?.startsWith("statement-") === true)
        .at(-1)!
        .document!.bytes!.toString("utf8");
    const csvs = CHATS.map(csvOf);
    expect(csvs[1]).toBe(csvs[0]);
    expect(csvs[2]).toBe(csvs[0]);
    const placedBy = parse<Record<string, string>>(csvs[0]!, { columns: true }).map((line) => line["chat"]);
    expect(placedBy).toContain(`User${RU}`);
  });

  it("keeps the route and the other chats working when the chat the route resolves to unlinks", async () => {
    const routeId = await w.routeIdOf(EN);
    // The Chinese chat linked last with the secret: the route resolves to it. It leaves.
    await w.say(ZH, "/unlink", (m) => m.buttons.flat().some((b) => b.text === "确定解绑"));
    w.front.enqueue(w.tg.press(ZH, "确定解绑"));
    await waitFor(() => w.botTexts(ZH, /^已解绑/).find((t) => t.includes("另外 2 个聊天")), "the unlink, saying the other two chats stay");
    expect(await w.routeIdOf(RU)).toBe(routeId);
    const before = w.tg.botMessages(ZH).length;
    const orderId = await w.orderBehindTheBotsBack("one-account-after-unlink");
    const told = (chatId: Chat) =>
      w.tg.botMessages(chatId).some((m) => m.text.includes(orderId) && (m.text.startsWith(TEXTS[chatId].seen) || TEXTS[chatId].fulfilled.test(m.text)));
    for (const chatId of [EN, RU] as const) await waitFor(() => told(chatId), `the relayed order in ${chatId}`);
    expect(
      w.tg
        .botMessages(ZH)
        .slice(before)
        .filter((m) => m.text.includes(orderId)),
    ).toEqual([]);
  });
});
