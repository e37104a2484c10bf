import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

/** Lists, examples and amounts written in the chat's language (en, ru, zh), and texts that stay true after what follows them. */
const BOB = TEST_KEYS.bob.address;
const NBSP = "\u00a0";
let h: OrderHarness;

useOrderHarness((started) => (h = started));

describe("lists and examples written in the user's language", () => {
  it("the available durations are listed with the locale's separators and its word for 'or'", async () => {
    for (const [chatId, lang, list] of [
      [7101, "en", "Available: 1m, 5m, 15m, or 1h."],
      [7102, "ru", "Доступны: 1 мин, 5 мин, 15 мин или 1 ч."],
      [7103, "zh", "可选：1分钟、5分钟、15分钟或1小时。"],
    ] as const) {
      await h.linkChat(chatId, { balanceSun: 100_000_000 });
      const u = h.user(chatId, { languageCode: lang });
      await u.send(`/order ${BOB} 100000 2h`);
      expect(u.lastText()).toContain(list);
    }
  });

  it("an inline query for a duration no tier has lists the tiers the same way", async () => {
    const update = h.tg.inlineQuery(7104, "10万 2小时", { languageCode: "zh" });
    await h.send(update);
    const button = h.tg.answerOf(update)!["button"] as { text: string };
    expect(button.text).toBe("没有“2小时”这个时长：可选 1分钟、5分钟、15分钟或1小时");
  });

  it("the /order usage shows a saved label in the user's language, and that example works", async () => {
    for (const [chatId, lang, label, example, quoted] of [
      [7105, "ru", "основной кошелёк", "/order основной кошелёк 100к 1 ч", `Энергия: 100${NBSP}000 на 1 ч`],
      [7106, "zh", "主钱包", "/order 主钱包 10万 1小时", "能量：100,000，时长 1小时"],
    ] as const) {
      await h.linkChat(chatId, { balanceSun: 100_000_000 });
      const u = h.user(chatId, { languageCode: lang });
      await u.send("/order x");
      expect(u.lastText()).toContain(example);
      expect(u.lastText()).not.toMatch(/main wallet|。 /);
      await u.send("/order");
      await u.send(`${BOB} ${label}`);
      await u.send("/cancel");
      await u.send(example);
      expect(u.lastText()).toContain(quoted);
    }
  });
});

describe("a quote confirmed from the 'top-up credited' message", () => {
  it("no longer says the balance is short, nor offers Top up, once the order is placed below", async () => {
    const chatId = 7201;
    const account = await h.linkChat(chatId, { balanceSun: 2_000_000, depositAddress: TEST_KEYS.erin.address });
    const u = h.user(chatId, { languageCode: "ru" });
    await u.send(`/order ${BOB} 60 000 15 мин`);
    const quoteMessage = u.last()!.messageId;
    expect(u.lastText()).toContain("не хватает 4,6 TRX");
    expect(h.sim.deposit(account.accountId, 10_000_000)).toBe(true);
    await h.until(() => u.lastText().startsWith("💰 Пополнение зачислено"));
    await u.press("✅ Подтвердить");
    const quote = h.tg.history(chatId).find((m) => m.messageId === quoteMessage)!;
    expect(quote.text).toBe("✅ Подтверждено после пополнения: карточка заказа — ниже.");
    expect(quote.buttons).toEqual([]);
  });
});

describe("/balance", () => {
  it("names the minimum deposit once, in every language", async () => {
    for (const [chatId, lang, minimum] of [
      [7301, "en", /10 TRX/g],
      [7302, "ru", /10 TRX/g],
      [7303, "zh", /10 TRX/g],
    ] as const) {
      await h.linkChat(chatId, { balanceSun: 50_000_000, depositAddress: TEST_KEYS.erin.address });
      const u = h.user(chatId, { languageCode: lang });
      await u.send("/balance");
      const text = h.tg.botMessages(chatId).at(-1)!.text;
      expect(text.match(minimum)).toHaveLength(1);
    }
  });
});

describe("the chat's own API key pasted again", () => {
  it("is removed and acknowledged, never 'revoke it'; another key still gets the warning", async () => {
    const chatId = 7401;
    await h.linkChat(chatId, { balanceSun: 5_000_000 });
    const own = (await h.deps.chats.getApiKey(chatId))!;
    const u = h.user(chatId, { languageCode: "en" });
    await u.send(own);
    expect(h.tg.history(chatId).find((m) => m.text === own)?.deleted).toBe(true);
    expect(u.lastText()).toBe("🔐 That is the API key already connected to this chat: nothing changes, and there is nothing to revoke.");
    expect(await h.deps.chats.getApiKey(chatId)).toBe(own);
    const other = h.sim.createAccount().apiKey;
    await u.send(other);
    expect(u.lastText()).toContain("revoke it");
    expect(await h.deps.chats.getApiKey(chatId)).toBe(own);
  });
});

describe("a deep link followed before linking, then the key pasted (no /link)", () => {
  it("links and lands in the order with the link's amount and duration", async () => {
    const chatId = 7501;
    const u = h.user(chatId, { languageCode: "ru" });
    await u.send("/start order_100000_3600");
    expect(u.lastButtons()).toEqual([["🔗 Подключить"]]);
    const { apiKey } = h.sim.createAccount({ balanceSun: 100_000_000 });
    await u.send(apiKey);
    expect(await h.deps.chats.getApiKey(chatId)).toBe(apiKey);
    expect(u.botTexts().some((t) => t.includes("Аккаунт подключён"))).toBe(true);
    expect(u.botTexts().some((t) => t.startsWith("Что-то пошло не так"))).toBe(false);
    expect(u.lastText()).toContain("Кому отправить энергию?");
    await u.send(BOB);
    expect(u.lastText()).toContain(`Энергия: 100${NBSP}000 на 1 ч`);
  });
});

describe("a refused (402) confirmation retried from the 'top-up credited' message", () => {
  it("leaves no live Top up or Retry on the refusal once the order is placed", async () => {
    const chatId = 7601;
    const account = await h.linkChat(chatId, { balanceSun: 22_000_000, depositAddress: TEST_KEYS.erin.address });
    h.sim.control.pauseLifecycles(true);
    try {
      const u = h.user(chatId);
      await u.send(`/order ${BOB} 100k 1h`);
      const first = u.last()!.messageId;
      await u.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
      await u.press("✅ Confirm", { messageId: first });
      await u.press("✅ Confirm");
      const refusal = u.last()!.messageId;
      expect(u.lastButtons()).toEqual([["💳 Top up"], ["🔁 Retry", "Cancel"]]);
      h.sim.deposit(account.accountId, 10_000_000);
      await h.until(() => u.lastText().startsWith("💰 Top-up credited"));
      await u.press("🔁 Retry");
      const card = h.tg.history(chatId).find((m) => m.messageId === refusal)!;
      expect(card.text).toBe("✅ Confirmed after the top-up: the order's card is below.");
      expect(card.buttons).toEqual([]);
    } finally {
      h.sim.control.pauseLifecycles(false);
    }
  });
});
