import { describe, expect, it } from "vitest";
import { registerCommands } from "../../src/bot/index.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

const BOB = TEST_KEYS.bob.address;
const NBSP = "\u00a0";
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");

interface Article {
  title: string;
}

async function inlineTitles(userId: number, query: string, languageCode: string): Promise<string[]> {
  const update = h.tg.inlineQuery(userId, query, { languageCode });
  await h.send(update);
  return (h.tg.answerOf(update)!["results"] as Article[]).map((r) => r.title);
}

describe("amounts and durations typed the way each language writes them", () => {
  it("zh: /order <address> 10万 1小时 quotes 100,000 energy for one hour", async () => {
    await h.linkChat(6101, { balanceSun: 100_000_000 });
    const u = h.user(6101, { languageCode: "zh" });
    await u.send(`/order ${BOB} 10万 1小时`);
    expect(u.lastText()).toContain("能量：100,000，时长 1小时");
    expect(u.lastButtons()).toEqual([["✅ 确认", "取消"]]);
  });

  it("ru: /order <address> 65 000 1 час quotes 65 000 energy for one hour; 1,5 тыс reads as 1 500 with a suffix", async () => {
    await h.linkChat(6102, { balanceSun: 100_000_000 });
    const u = h.user(6102, { languageCode: "ru" });
    await u.send(`/order ${BOB} 65 000 1 час`);
    expect(u.lastText()).toContain(`Энергия: 65${NBSP}000 на 1 ч`);
    await u.send(`/order ${BOB} 65,5 тыс 15 минут`);
    expect(u.lastText()).toContain(`Энергия: 65${NBSP}500 на 15 мин`);
  });

  it("ru: an amount whose comma reads two ways is refused with both readings, and nothing is quoted", async () => {
    await h.linkChat(6103, { balanceSun: 100_000_000 });
    const u = h.user(6103, { languageCode: "ru" });
    const before = u.botTexts().length;
    await u.send(`/order ${BOB} 100,000 1ч`);
    expect(u.botTexts()).toHaveLength(before + 1);
    expect(u.lastText()).toBe(
      `«100,000» можно понять двояко: 100${NBSP}000 или 100. Заказ не создан. Напишите число без запятой, например 100${NBSP}000 или 100.`,
    );
    expect(u.lastButtons()).toEqual([]);
    // The same text is a plain thousands separator in English.
    const en = h.user(6113, { languageCode: "en" });
    await h.linkChat(6113, { balanceSun: 100_000_000 });
    await en.send(`/order ${BOB} 100,000 1h`);
    expect(en.lastText()).toContain("Energy: 100,000 for 1 h");
    expect(posts()).toHaveLength(0);
  });

  it("ru guided flow: tier buttons in Russian, an ambiguous amount asked again, 100 тыс and a typed 15 минут accepted", async () => {
    await h.linkChat(6104, { balanceSun: 100_000_000 });
    const u = h.user(6104, { languageCode: "ru" });
    await u.send("/order");
    await u.send(BOB);
    await u.send("65,000");
    expect(u.lastText()).toContain("можно понять двояко");
    await u.send("100 тыс");
    expect(u.lastButtons()).toEqual([["1 мин · 100 sun", "5 мин · 100 sun"], ["15 мин · 110 sun", "1 ч · 150 sun"], ["Отмена"]]);
    await u.send("15 минут");
    expect(u.lastText()).toContain(`Энергия: 100${NBSP}000 на 15 мин`);
  });

  it("zh guided flow: 6.5万 and a typed 十五分钟", async () => {
    await h.linkChat(6105, { balanceSun: 100_000_000 });
    const u = h.user(6105, { languageCode: "zh" });
    await u.send("/order");
    await u.send(BOB);
    await u.send("6.5万");
    expect(u.lastButtons()).toEqual([["1分钟 · 100 sun", "5分钟 · 100 sun"], ["15分钟 · 110 sun", "1小时 · 150 sun"], ["取消"]]);
    await u.send("十五分钟");
    expect(u.lastText()).toContain("能量：65,000，时长 15分钟");
  });

  it("ru batch: lines with 1 час, 15 мин and 100 тыс are read; a line whose comma reads two ways is named with both readings", async () => {
    await h.linkChat(6110, { balanceSun: 100_000_000 });
    const u = h.user(6110, { languageCode: "ru" });
    const { alice: A, carol: C } = TEST_KEYS;
    await u.send("/order");
    await u.send(`${A.address} 65 000 1 час\n${C.address} 65,000 15 мин`);
    expect(u.lastText()).toContain(`Строка 2: «65,000» можно понять как 65${NBSP}000 или как 65 — напишите без запятой`);
    await u.send(`${A.address} 65 000 1 час\n${C.address} 100 тыс 15 мин`);
    expect(u.lastText()).toContain(`1. ${A.address} · 65${NBSP}000 на 1 ч`);
    expect(u.lastText()).toContain(`2. ${C.address} · 100${NBSP}000 на 15 мин`);
    expect(posts()).toHaveLength(0);
  });

  it("the tier buttons and /prices name the tiers alike, in Russian and in Chinese", async () => {
    for (const [chatId, lang, names] of [
      [6106, "ru", ["1 мин", "5 мин", "15 мин", "1 ч"]],
      [6107, "zh", ["1分钟", "5分钟", "15分钟", "1小时"]],
    ] as const) {
      await h.linkChat(chatId);
      const u = h.user(chatId, { languageCode: lang });
      await u.send("/prices");
      const priced = u
        .lastText()
        .split("\n")
        .flatMap((line) => /^(.+?)[:：].* = .*TRX$/.exec(line)?.[1] ?? []);
      expect(priced).toEqual(names);
      await u.send("/order");
      await u.send(BOB);
      await u.send("100000");
      expect(
        u
          .lastButtons()
          .flat()
          .slice(0, -1)
          .map((b) => b.split(" · ")[0]),
      ).toEqual(names);
      await u.send("/cancel");
    }
  });

  it("inline queries take the same words: @bot 10万 1小时 (zh), @bot 65 000 1 час (ru)", async () => {
    expect(await inlineTitles(6108, "10万 1小时", "zh")).toEqual(["1小时：100,000 能量 15 TRX"]);
    expect(await inlineTitles(6109, "65 000 1 час", "ru")).toEqual([`1 ч: 9,75 TRX за 65${NBSP}000 энергии`]);
    expect(await inlineTitles(6109, "100к 15мин", "ru")).toEqual([`15 мин: 11 TRX за 100${NBSP}000 энергии`]);
  });
});

describe("TRX amounts typed the way each language writes them", () => {
  it("ru: /alerts takes 25,5 and 1 000 (in its own words or in English), refuses 1,000 with both readings, and shows its syntax the Russian way", async () => {
    const u = h.user(6301, { languageCode: "ru" });
    await u.send("/alerts");
    expect(u.lastText()).toContain("или введите /alerts порог 25,5 (точно, в TRX); вернуть по умолчанию: /alerts порог сброс.");
    await u.send("/alerts порог 25,5");
    expect(u.lastText()).toContain("Порог низкого баланса: 25,5 TRX.");
    await u.send("/alerts threshold 1 000");
    expect(u.lastText()).toContain(`Порог низкого баланса: 1${NBSP}000 TRX.`);
    await u.send(`/alerts порог 2${NBSP}000,5`);
    expect(u.lastText()).toContain(`Порог низкого баланса: 2${NBSP}000,5 TRX.`);
    await u.send("/alerts порог 1,000");
    expect(u.lastText()).toBe(
      `«1,000» можно понять двояко: 1${NBSP}000 TRX или 1 TRX. Ничего не изменено. Напишите 1${NBSP}000 или 1: разряды — через пробел, дробная часть — после запятой.`,
    );
    await u.send("/alerts порог сброс");
    expect(u.lastText()).toContain("Порог низкого баланса: по умолчанию");
  });

  it("ru: a /limits cap typed as 12,5 or 1 000 is saved as that amount", async () => {
    const u = h.user(6302, { languageCode: "ru" });
    await u.send("/limits");
    const card = u.last()!.messageId;
    const cardText = () => h.tg.view(u.chatId).find((m) => m.messageId === card)?.text;
    await u.press("Лимит на день");
    await u.press("✏️ Своя сумма");
    expect(u.lastText()).toContain("например 50 или 12,5");
    await u.send("12,5");
    expect(cardText()).toContain("Лимит на день: 12,5 TRX, осталось 12,5 TRX");
    await u.press("Лимит на месяц");
    await u.press("✏️ Своя сумма");
    await u.send("1 000");
    expect(cardText()).toContain(`Лимит на месяц: 1${NBSP}000 TRX, осталось 1${NBSP}000 TRX`);
    await u.press("Лимит на месяц");
    // A preset is written the Russian way too.
    expect(
      h.tg
        .view(u.chatId)
        .find((m) => m.messageId === card)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toContain(`• 1${NBSP}000 TRX`);
    await u.press("✏️ Своя сумма");
    await u.send("1,500");
    expect(u.lastText()).toContain("можно понять двояко");
  });

  it("en and zh keep the comma a thousands separator: 1,000 is a thousand, 12,5 is refused", async () => {
    const en = h.user(6303, { languageCode: "en" });
    await en.send("/alerts threshold 1,000");
    expect(en.lastText()).toContain("Low-balance threshold: 1,000 TRX.");
    await en.send("/alerts threshold 12,5");
    expect(en.lastText()).toContain("is not an amount in TRX");
    const zh = h.user(6304, { languageCode: "zh" });
    await zh.send("/alerts");
    expect(zh.lastText()).toContain("/alerts 阈值 25.5");
    await zh.send("/alerts 阈值 1,000");
    expect(zh.lastText()).toContain("余额不足阈值：1,000 TRX。");
  });
});

describe("Ukrainian, Belarusian and Kazakh users", () => {
  it("get Russian until they choose another language with /language", async () => {
    for (const [chatId, lang] of [
      [6201, "uk"],
      [6202, "be"],
      [6203, "kk-KZ"],
    ] as const) {
      const u = h.user(chatId, { languageCode: lang });
      await u.send("/help");
      expect(u.lastText()).toContain("Что я умею");
    }
    const u = h.user(6201, { languageCode: "uk" });
    await u.send("/language");
    await u.press("🇬🇧 English");
    await u.send("/help");
    expect(u.lastText()).not.toContain("Что я умею");
  });

  it("see the Russian command menu in a Ukrainian, Belarusian or Kazakh Telegram app", async () => {
    await registerCommands(h.bot);
    for (const lang of ["uk", "be", "kk"]) {
      expect(h.tg.commands(lang, "all_private_chats")).toEqual(h.tg.commands("ru", "all_private_chats"));
      expect(h.tg.commands(lang, "all_group_chats")).toEqual(h.tg.commands("ru", "all_group_chats"));
    }
  });
});
