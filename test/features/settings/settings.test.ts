import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness, type BotHarness } from "../../support/bot-harness.js";

describe("/settings", () => {
  let h: BotHarness;
  let nextChat = 7000;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterEach(() => {
    expect(h.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows both notification switches, on by default", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/settings");
    expect(u.lastText()).toContain("Notifications");
    expect(u.lastButtons()).toEqual([["✅ Orders: on"], ["✅ Broadcasts: on"], ["🕒 Time zone: UTC"], ["◀️ Home"]]);
  });

  it("turns order notifications off and on again, stored per chat, editing the same message", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    const other = h.user(++nextChat, { languageCode: "en" });
    await u.send("/settings");
    const card = u.last()!.messageId;
    const tap = await u.press("✅ Orders: on");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Order notifications are off.");
    expect(u.last()!.messageId).toBe(card);
    expect(u.lastButtons()).toEqual([["🔕 Orders: off"], ["✅ Broadcasts: on"], ["🕒 Time zone: UTC"], ["◀️ Home"]]);
    expect((await h.deps.chats.get(u.chatId))?.notifications).toEqual({ orders: false, broadcasts: true });
    expect((await h.deps.chats.get(other.chatId))?.notifications ?? { orders: true, broadcasts: true }).toEqual({ orders: true, broadcasts: true });

    await u.press("🔕 Orders: off");
    expect(u.lastButtons()).toEqual([["✅ Orders: on"], ["✅ Broadcasts: on"], ["🕒 Time zone: UTC"], ["◀️ Home"]]);
    expect((await h.deps.chats.get(u.chatId))?.notifications.orders).toBe(true);
  });

  it("survives a double tap on the same stale button (target state, not a toggle)", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/settings");
    const card = u.last()!.messageId;
    await h.send(h.tg.rawCallback(u.chatId, card, "settings:broadcasts:off"));
    await h.send(h.tg.rawCallback(u.chatId, card, "settings:broadcasts:off"));
    expect((await h.deps.chats.get(u.chatId))?.notifications).toEqual({ orders: true, broadcasts: false });
  });

  it("answers a forged button as expired and stores nothing", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/settings");
    const tap = h.tg.rawCallback(u.chatId, u.last()!.messageId, "settings:balance:off");
    await h.send(tap);
    expect(h.tg.answerOf(tap)?.["text"]).toContain("expired");
    expect(await h.deps.chats.get(u.chatId)).toBeUndefined();
  });

  it("sets the chat's one time zone by a button or typed, the same zone /limits counts in", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/settings");
    await u.press("🕒 Time zone: UTC");
    expect(u.lastText()).toContain("Time zone: UTC");
    expect(u.lastText()).toContain("every time the bot shows (cards, reminders, /orders, statements, plans) is in it");
    expect(u.lastButtons()[0]).toEqual(["• UTC", "Europe/London"]);
    const menu = u.last()!.messageId;
    const tap = await u.press("Asia/Shanghai");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Time zone: Asia/Shanghai");
    expect(u.last()!.messageId).toBe(menu);
    expect(u.lastButtons()[3]).toEqual(["Asia/Singapore", "• Asia/Shanghai"]);
    expect(await h.deps.flows.limits.timeZoneOf(u.chatId)).toBe("Asia/Shanghai");

    await u.press("🔎 Type a city");
    expect(u.lastText()).toContain("IANA name");
    await u.send("Mars/Olympus");
    expect(u.lastText()).toContain("“Mars/Olympus” is not a time zone I know");
    await u.send("america/sao_paulo");
    expect(u.lastText()).toContain("Time zone set: America/Sao_Paulo");
    expect(await h.deps.flows.limits.timeZoneOf(u.chatId)).toBe("America/Sao_Paulo");
    await u.send("/settings");
    expect(u.lastButtons()[2]).toEqual(["🕒 Time zone: America/Sao_Paulo"]);
    await u.send("/limits");
    expect(u.lastText()).toContain("Days and months are counted in America/Sao_Paulo, your chat's time zone");

    const forged = h.tg.rawCallback(u.chatId, menu, "tz:99");
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.["text"]).toContain("expired");
    expect(await h.deps.flows.limits.timeZoneOf(u.chatId)).toBe("America/Sao_Paulo");
  });

  it("speaks Russian and Chinese", async () => {
    const ru = h.user(++nextChat, { languageCode: "ru" });
    await ru.send("/settings");
    expect(ru.lastText()).toContain("Уведомления");
    const zh = h.user(++nextChat, { languageCode: "zh" });
    await zh.send("/settings");
    expect(zh.lastButtons()).toEqual([["✅ 订单：开"], ["✅ 广播：开"], ["🕒 时区：UTC"], ["◀️ 主页"]]);
  });
});
