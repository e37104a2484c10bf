import { describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("/alerts", () => {
  const h = useBotHarness();
  let nextChat = 7400;

  it("shows the three switches, all on, and the default threshold", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    expect(u.lastText()).toContain("Balance alerts");
    expect(u.lastText()).toContain("Low-balance threshold: default (below 10 TRX, or below the next keep-charged renewal if that costs more)");
    expect(u.lastButtons()).toEqual([["✅ Deposit notices: on"], ["✅ Low-balance alert: on"], ["✅ Charges the bot did not make: on"]]);
  });

  it("switches one kind off and on again, per chat, editing the same message; a stale double tap changes nothing", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    const other = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const card = u.last()!.messageId;
    const tap = await u.press("✅ Deposit notices: on");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Deposit notices are off.");
    expect(u.last()!.messageId).toBe(card);
    expect(u.lastButtons()).toEqual([["🔕 Deposit notices: off"], ["✅ Low-balance alert: on"], ["✅ Charges the bot did not make: on"]]);
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: false, lowBalance: true, foreignCharges: true });
    expect(await h.deps.alerts.get(other.chatId)).toEqual({ deposits: true, lowBalance: true, foreignCharges: true });
    await h.send(h.tg.rawCallback(u.chatId, card, "alerts:foreignCharges:off"));
    await h.send(h.tg.rawCallback(u.chatId, card, "alerts:foreignCharges:off"));
    await u.press("🔕 Deposit notices: off");
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: true, lowBalance: true, foreignCharges: false });
  });

  it("answers a forged button as expired and stores nothing", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const tap = h.tg.rawCallback(u.chatId, u.last()!.messageId, "alerts:everything:off");
    await h.send(tap);
    expect(h.tg.answerOf(tap)?.["text"]).toContain("expired");
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: true, lowBalance: true, foreignCharges: true });
  });

  it("sets the threshold in exact TRX and goes back to the default", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts threshold 25.000001");
    expect(u.botTexts().at(-2)).toContain("falls below 25.000001 TRX");
    expect(u.lastText()).toContain("Low-balance threshold: 25.000001 TRX.");
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBe("25000001");
    await u.send("/alerts threshold 1,000.5");
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBe("1000500000");
    await u.send("/alerts threshold default");
    expect(u.lastText()).toContain("Low-balance threshold: default");
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBeUndefined();
  });

  it("refuses a bad threshold with the reason and keeps the old one", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts threshold 12");
    for (const [input, reason] of [
      ["1,5", "is not an amount in TRX"],
      ["0.0000001", "is not an amount in TRX"],
      ["-3", "cannot be negative"],
      ["1e3", "is not an amount in TRX"],
      ["2000000000", "more than the largest threshold, 1,000,000,000 TRX"],
    ] as const) {
      await u.send(`/alerts threshold ${input}`);
      expect(u.lastText()).toContain(reason);
    }
    await u.send("/alerts limit 5");
    expect(u.lastText()).toContain("/alerts threshold 25.5");
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBe("12000000");
  });

  it("speaks Russian and Chinese", async () => {
    const ru = h.user(++nextChat, { languageCode: "ru" });
    await ru.send("/alerts");
    expect(ru.lastText()).toContain("Уведомления о балансе");
    const zh = h.user(++nextChat, { languageCode: "zh" });
    await zh.send("/alerts");
    expect(zh.lastText()).toContain("余额提醒");
  });
});
