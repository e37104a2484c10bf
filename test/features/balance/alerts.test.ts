import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

/** The card's threshold choices with `marked` as the one in force. */
const thresholdRows = (marked: string, custom = "✏️ Other amount") =>
  [
    ["Default", "10 TRX", "25 TRX"],
    ["50 TRX", "100 TRX", "250 TRX"],
    [custom, "🔕 Off"],
  ].map((row) => row.map((label) => (label === marked ? `• ${label}` : label)));

describe("/alerts", () => {
  const h = useBotHarness();
  let nextChat = 7400;

  it("shows the two switches, all on, and the low-balance alert at its default threshold", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    expect(u.lastText()).toContain("Balance alerts");
    expect(u.lastText()).toContain("Low-balance threshold: default (below 10 TRX, or below the next keep-charged renewal if that costs more)");
    expect(u.lastButtons()).toEqual([["✅ Deposit notices: on"], ["✅ Charges the bot did not make: on"], ...thresholdRows("Default")]);
  });

  it("switches one kind off and on again, per chat, editing the same message; a stale double tap changes nothing", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    const other = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const card = u.last()!.messageId;
    const tap = await u.press("✅ Deposit notices: on");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Deposit notices are off.");
    expect(u.last()!.messageId).toBe(card);
    expect(u.lastButtons()).toEqual([["🔕 Deposit notices: off"], ["✅ Charges the bot did not make: on"], ...thresholdRows("Default")]);
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

  it.each([10, 25, 50, 100, 250])("the %d TRX button sets what `/alerts threshold %d` sets, on the same card", async (trx) => {
    const typed = h.user(++nextChat, { languageCode: "en" });
    await typed.send(`/alerts threshold ${trx}`);
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const card = u.last()!.messageId;
    const before = h.tg.botMessages(u.chatId).length;
    const tap = await u.press(`${trx} TRX`);
    expect(h.tg.answerOf(tap)?.["text"]).toBe(`Low-balance alert below ${trx} TRX.`);
    expect(h.tg.botMessages(u.chatId)).toHaveLength(before);
    expect(await h.deps.alerts.get(u.chatId)).toEqual(await h.deps.alerts.get(typed.chatId));
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBe(String(trx * 1_000_000));
    expect(h.tg.view(u.chatId).find((m) => m.messageId === card)?.text).toContain(`Low-balance threshold: ${trx} TRX.`);
    expect(u.lastButtons().slice(2)).toEqual(thresholdRows(`${trx} TRX`));
    // The same button again (a stale card) changes nothing and edits nothing.
    const edits = h.tg.callsOf("editMessageText").length;
    await u.press(`• ${trx} TRX`);
    expect(h.tg.callsOf("editMessageText")).toHaveLength(edits);
  });

  it("Default sets what `/alerts threshold default` sets; Off turns the alert off and an amount turns it on again, all on one card", async () => {
    const typed = h.user(++nextChat, { languageCode: "en" });
    await typed.send("/alerts threshold 25");
    await typed.send("/alerts threshold default");
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const before = h.tg.botMessages(u.chatId).length;
    await u.press("50 TRX");
    await u.press("Default");
    expect(await h.deps.alerts.get(u.chatId)).toEqual(await h.deps.alerts.get(typed.chatId));
    expect(u.lastText()).toContain("Low-balance threshold: default");

    await u.press("🔕 Off");
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: true, lowBalance: false, foreignCharges: true });
    expect(u.lastText()).toContain("Low-balance threshold: off (no low-balance alert).");
    expect(u.lastButtons().slice(2)).toEqual(thresholdRows("🔕 Off"));
    await u.press("100 TRX");
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: true, lowBalance: true, foreignCharges: true, thresholdSun: "100000000" });
    expect(h.tg.botMessages(u.chatId)).toHaveLength(before);
  });

  it("✏️ asks for the amount, refuses a bad one as the command does, and draws the card again with the amount typed", async () => {
    const typed = h.user(++nextChat, { languageCode: "en" });
    await typed.send("/alerts threshold 12.5");
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    const card = u.last()!.messageId;
    await u.press("✏️ Other amount");
    expect(u.lastText()).toContain("Send the low-balance threshold in TRX, for example 25.5");
    await u.send("lots");
    expect(u.lastText()).toBe("lots is not an amount in TRX. Write it with a dot and at most 6 decimals, e.g. 25.5.");
    await u.send("-3");
    expect(u.lastText()).toBe("The threshold cannot be negative: -3.");
    // A pasted page is quoted back cut to a line: the answer stays within Telegram's limits.
    await u.send("9".repeat(4000) + "x");
    expect(u.lastText()).toBe(`${"9".repeat(63)}… is not an amount in TRX. Write it with a dot and at most 6 decimals, e.g. 25.5.`);
    await u.send("12.5");
    expect(u.lastText()).toContain("Low-balance threshold set: you hear once when the balance falls below 12.5 TRX");
    expect(await h.deps.alerts.get(u.chatId)).toEqual(await h.deps.alerts.get(typed.chatId));
    const redrawn = h.tg.view(u.chatId).find((m) => m.messageId === card)!;
    expect(redrawn.text).toContain("Low-balance threshold: 12.5 TRX.");
    expect(redrawn.buttons.slice(2).map((row) => row.map((b) => b.text))).toEqual(thresholdRows("", "• ✏️ 12.5 TRX"));
    // The step is over: the next text is nobody's threshold.
    await u.send("30");
    expect((await h.deps.alerts.get(u.chatId)).thresholdSun).toBe("12500000");
  });

  it("answers a forged threshold button as expired and stores nothing", async () => {
    const u = h.user(++nextChat, { languageCode: "en" });
    await u.send("/alerts");
    for (const data of ["alerts:threshold:-5", "alerts:threshold:1e3", "alerts:threshold:9999999999"]) {
      const tap = h.tg.rawCallback(u.chatId, u.last()!.messageId, data);
      await h.send(tap);
      expect(h.tg.answerOf(tap)?.["text"], data).toContain("expired");
    }
    expect(await h.deps.alerts.get(u.chatId)).toEqual({ deposits: true, lowBalance: true, foreignCharges: true });
  });

  it("speaks Russian and Chinese", async () => {
    const ru = h.user(++nextChat, { languageCode: "ru" });
    await ru.send("/alerts");
    expect(ru.lastText()).toContain("Уведомления о балансе");
    expect(ru.lastButtons().slice(2)).toEqual([
      ["• По умолчанию", "10 TRX", "25 TRX"],
      ["50 TRX", "100 TRX", "250 TRX"],
      ["✏️ Другая сумма", "🔕 Выкл."],
    ]);
    const zh = h.user(++nextChat, { languageCode: "zh" });
    await zh.send("/alerts");
    expect(zh.lastText()).toContain("余额提醒");
    expect(zh.lastButtons().slice(2)).toEqual([
      ["• 默认", "10 TRX", "25 TRX"],
      ["50 TRX", "100 TRX", "250 TRX"],
      ["✏️ 其他金额", "🔕 关闭"],
    ]);
  });
});
