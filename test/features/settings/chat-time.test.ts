/**
 * The chat's time, everywhere (docs/expiry.md, "Time zones"): every clock time is in the chat's
 * zone and names it by its offset ("17:43 UTC+1"), a card drawn again says how long is left from
 * the moment it is drawn, and until the chat picks a zone its times are in UTC, say so, and the
 * zone of its language is offered as one tap under the messages that show times.
 */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { utcOffsetText } from "../../../src/shared/limits/zone-input.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5701;
const BOB = TEST_KEYS.bob.address;
/** Moves the bot's clock (flows, tracker, reminders) ahead of the wall clock. */
let skewMs = 0;
let h: OrderHarness;

useOrderHarness(
  (started) => {
    h = started;
    skewMs = 0;
  },
  { now: () => Date.now() + skewMs, keep: true },
);

/** "17:43 UTC+1" or "Nov 29, 17:43 UTC+1": a clock time as every text shows it. */
const CLOCK = "(?:[A-Z][a-z]{2} \\d{1,2}, )?\\d{2}:\\d{2} UTC(?:[+−]\\d{1,2}(?::\\d{2})?)?";
const answers = () => h.tg.callsOf("answerCallbackQuery").map((c) => (typeof c.params["text"] === "string" ? c.params["text"] : ""));

/** Places a 100k order in the chat's language and waits for its fulfilled notice; the card's and the notice's message ids. */
async function fulfilledOrder(chatId: number, duration: string, confirm = "✅ Confirm", languageCode?: string) {
  const user = h.user(chatId, languageCode === undefined ? {} : { languageCode });
  await user.send(`/order ${BOB} 100k ${duration}`);
  const tap = await user.press(confirm);
  const cardId = h.pressedMessage(tap)!;
  await h.until(() => user.botTexts().some((t) => t.startsWith("✅")));
  const notice = user.last()!;
  const orderId = /([0-9a-f]{24})/.exec(notice.text)![1]!;
  await h.until(() => /⏳/.test(h.textOf(chatId, cardId)));
  return { user, cardId, notice, orderId };
}

describe("the chat's time", () => {
  it("a card drawn again recomputes how long is left, from the moment it is drawn", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const { user, orderId } = await fulfilledOrder(CHAT, "1h");
    await user.send(`/track ${orderId}`);
    const card = user.last()!;
    const left = (text: string) => Number(/ends in (\d+) min/.exec(text)?.[1] ?? (/ends in 1 h\)/.test(text) ? 60 : NaN));
    const first = left(card.text);
    expect(first).toBeGreaterThanOrEqual(59);

    // Twenty minutes later the same card, drawn again, says twenty minutes less; the end itself has not moved.
    skewMs += 20 * 60_000;
    await user.press("🔄 Track", { messageId: card.messageId });
    const again = h.textOf(CHAT, card.messageId);
    // Rounded up to the minute, as a clock reads: the real time between the two drawings may cross one.
    expect(left(again)).toBeLessThanOrEqual(first - 20);
    expect(left(again)).toBeGreaterThanOrEqual(first - 21);
    const end = (text: string) => new RegExp(`until (${CLOCK})`).exec(text)?.[1];
    expect(end(again)).toBe(end(card.text));
  });

  it("/orders and the order's card agree on the end, in Europe/Madrid, and say so", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    await h.flows.limits.setTimeZone(CHAT, "Europe/Madrid");
    const { user, cardId, notice, orderId } = await fulfilledOrder(CHAT, "1h");
    const entry = await h.flows.history.get(CHAT, "order", orderId);
    const endsAtMs = entry!.fulfilledAtMs! + 3_600_000;
    const madrid = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Madrid", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(endsAtMs);
    const offset = utcOffsetText("Europe/Madrid", endsAtMs);
    const expected = `${madrid} ${offset}`;
    const cardEnd = new RegExp(`Energy delegated until (${CLOCK}) \\(ends in`).exec(h.textOf(CHAT, cardId))?.[1];
    expect(cardEnd).toContain(expected);
    expect(notice.text).toContain(`${cardEnd} (ends in`);
    // A chat that picked its zone is offered nothing more.
    expect(notice.buttons.flat().map((b) => b.text)).not.toContain("🕒 Set my time zone");
    await user.send("/orders");
    expect(user.lastText()).toContain(`energy until ${cardEnd}`);
    expect(user.lastText()).toContain(`Times in Europe/Madrid (${utcOffsetText("Europe/Madrid", Date.now())})`);
    expect(user.lastButtons().flat()).not.toContain("🕒 Set my time zone");
    await user.send(`/track ${orderId}`);
    expect(user.lastText()).toContain(`Energy delegated until ${cardEnd} (ends in`);
  });

  it("the ⏰ toast and the reminder are in the chat's zone", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    await h.flows.limits.setTimeZone(CHAT, "Europe/Moscow");
    const { user, cardId, orderId } = await fulfilledOrder(CHAT, "1m");
    const entry = await h.flows.history.get(CHAT, "order", orderId);
    const endsAtMs = entry!.fulfilledAtMs! + 60_000;
    const moscow = (ms: number) =>
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Moscow", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);

    // Past the moment a 1-minute order is reminded (half its duration): switched on, the reminder goes at once.
    skewMs += 35_000;
    // The switch is on the card (the notice replying to it repeats none of its buttons).
    await user.press("⏰ Remind me", { messageId: cardId });
    expect(answers().at(-1)).toBe(`I will remind you at ${moscow(endsAtMs - 30_000)} UTC+3.`);
    await h.until(() => user.botTexts().some((t) => t.startsWith("⏰ Energy for")));
    const reminder = user.botTexts().find((t) => t.startsWith("⏰ Energy for"))!;
    expect(reminder).toContain(`ends at ${moscow(endsAtMs)} UTC+3 (in `);
    expect(reminder).not.toMatch(/UTC(?![+−])/);
  });

  it("in Russian, Moscow time is offered as one tap under the first message with a time, and taken", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "ru");
    const { user, notice, cardId } = await fulfilledOrder(CHAT, "1h", "✅ Подтвердить", "ru");
    const cardBefore = structuredClone(h.tg.view(CHAT).find((m) => m.messageId === cardId)!);
    // Not assumed: until the chat picks, its times are UTC and say so.
    expect(notice.text).toMatch(/делегирована до [^(]*\d{2}:\d{2} UTC \(/);
    const before = notice.buttons.map((row) => row.map((b) => b.text));
    const utcText = notice.text;
    const offer = before.at(-1);
    expect(offer).toEqual(["🕒 Московское время (UTC+3)", "🕒 Другой пояс"]);
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "UTC", chosen: false });

    await user.press("🕒 Московское время (UTC+3)", { messageId: notice.messageId });
    expect(answers().at(-1)).toBe("🕒 Теперь время московское (UTC+3). Изменить — в /settings.");
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "Europe/Moscow", chosen: true });
    // The notice is drawn again in Moscow time: the same delegation's end, three hours on, named UTC+3.
    const redrawn = h.tg.view(CHAT).find((m) => m.messageId === notice.messageId)!;
    const end = (text: string, offset: string) => new RegExp(`делегирована до [^(]*?(\\d{2}):(\\d{2}) ${offset} \\(`).exec(text);
    const [, hh, mm] = end(redrawn.text, "UTC\\+3")!;
    const [, utcH, utcM] = end(utcText, "UTC")!;
    expect(`${hh}:${mm}`).toBe(`${String((Number(utcH) + 3) % 24).padStart(2, "0")}:${utcM}`);
    expect(redrawn.text).not.toMatch(/UTC(?![+−])/);
    expect(redrawn.text.split("\n")[0]).toBe(utcText.split("\n")[0]);
    // The offer leaves that message; its other buttons stay.
    expect(redrawn.buttons.flat().map((b) => b.text)).toEqual(before.slice(0, -1).flat());
    // The order's card the notice replies to tells the same end in the same zone, its buttons as they were (the edit
    // goes through the outbox, where it replaces an edit of the card still waiting).
    await h.until(() => /UTC\+3/.test(h.textOf(CHAT, cardId)));
    const card = h.tg.view(CHAT).find((m) => m.messageId === cardId)!;
    expect(end(cardBefore.text, "UTC")).not.toBeNull();
    const [, cardH, cardM] = end(card.text, "UTC\\+3")!;
    expect(`${cardH}:${cardM}`).toBe(`${hh}:${mm}`);
    expect(card.text).not.toMatch(/UTC(?![+−])/);
    expect(card.text.split("\n")[0]).toBe(cardBefore.text.split("\n")[0]);
    expect(card.buttons).toEqual(cardBefore.buttons);

    await user.send("/orders");
    expect(user.lastText()).toMatch(/энергия до [^\n]*?\d{2}:\d{2} UTC\+3/);
    expect(user.lastText()).toContain("Время по поясу Europe/Moscow (UTC+3)");
    expect(
      user
        .lastButtons()
        .flat()
        .some((t) => t.startsWith("🕒")),
    ).toBe(false);
  });

  it("in Chinese, Beijing time is offered under /orders, and English is offered the choices, never a guess", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "zh");
    const { user } = await fulfilledOrder(CHAT, "1h", "✅ 确认", "zh");
    await user.send("/orders");
    expect(user.lastText()).toMatch(/能量至 [^\n]*?\d{2}:\d{2} UTC\s/);
    // The offer is the row above ◀️ Home.
    expect(user.lastButtons().at(-2)).toEqual(["🕒 北京时间（UTC+8）", "🕒 其他时区"]);
    expect(user.lastButtons().at(-1)).toEqual(["◀️ 主页"]);
    const list = user.last()!;
    const listButtons = list.buttons.map((row) => row.map((b) => b.text));
    await user.press("🕒 北京时间（UTC+8）", { messageId: list.messageId });
    expect(answers().at(-1)).toBe("🕒 现在起按北京时间（UTC+8）显示时间，可在 /settings 中更改。");
    expect(await h.flows.limits.timeZoneOf(CHAT)).toBe("Asia/Shanghai");
    // The list itself is drawn again in Beijing time, its row buttons kept and the offer gone.
    const redrawn = h.tg.view(CHAT).find((m) => m.messageId === list.messageId)!;
    expect(redrawn.text).toMatch(/能量至 [^\n]*?\d{2}:\d{2} UTC\+8/);
    expect(redrawn.text).toContain("Asia/Shanghai (UTC+8)");
    expect(redrawn.buttons.map((row) => row.map((b) => b.text))).toEqual(listButtons.filter((row) => !row[0]!.startsWith("🕒")));
    await user.send("/orders");
    expect(user.lastText()).toMatch(/能量至 [^\n]*?\d{2}:\d{2} UTC\+8/);

    const EN = CHAT + 1;
    await h.linkChat(EN, { balanceSun: 100_000_000 }, true, "en");
    const english = (await fulfilledOrder(EN, "1h", "✅ Confirm", "en")).user;
    await english.send("/orders");
    expect(english.lastButtons().at(-2)).toEqual(["🕒 Set my time zone"]);
    // The choices, typed or tapped; "UTC" is a choice too, and the offer then ends.
    await english.press("🕒 Set my time zone");
    expect(english.lastText()).toContain("Time zone: UTC");
    // UTC is where its times are until it picks ("• UTC" marks that), and a choice like any other.
    await english.press("• UTC");
    expect(await h.flows.limits.zoneOf(EN)).toEqual({ zone: "UTC", chosen: true });
    await english.send("/orders");
    expect(
      english
        .lastButtons()
        .flat()
        .some((t) => t.startsWith("🕒")),
    ).toBe(false);
  });

  it("in English, the offer's choices open under the notice, and a zone picked there draws the notice and its card again in it", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "en");
    const { user, notice, cardId } = await fulfilledOrder(CHAT, "1h", "✅ Confirm", "en");
    const cardButtons = structuredClone(h.tg.view(CHAT).find((m) => m.messageId === cardId)!.buttons);
    expect(notice.buttons.map((row) => row.map((b) => b.text)).at(-1)).toEqual(["🕒 Set my time zone"]);
    const until = (text: string, offset: string) => new RegExp(`delegated until (?:[A-Z][a-z]{2} \\d{1,2}, )?(\\d{2}):(\\d{2}) ${offset} \\(`).exec(text);
    const [, utcH, utcM] = until(notice.text, "UTC")!;

    await user.press("🕒 Set my time zone", { messageId: notice.messageId });
    const menu = user.last()!;
    expect(menu.text).toContain("Time zone: UTC");
    await user.press("Europe/Berlin", { messageId: menu.messageId });
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "Europe/Berlin", chosen: true });
    // The choices become the word that the zone is saved; nothing new is sent.
    expect(h.textOf(CHAT, menu.messageId)).toContain("Europe/Berlin");
    expect(user.view().find((m) => m.messageId === menu.messageId)!.buttons).toEqual([]);
    expect(user.last()!.messageId).toBe(menu.messageId);
    // The notice and the order's card above it tell the same end, an hour or two on from UTC, named by their offset.
    const berlinOffset = utcOffsetText("Europe/Berlin", Date.now());
    const shift = Number(berlinOffset.slice(4) || "0");
    const expected = `${String((Number(utcH) + shift) % 24).padStart(2, "0")}:${utcM}`;
    await h.until(() => h.textOf(CHAT, cardId).includes(berlinOffset));
    for (const id of [notice.messageId, cardId]) {
      const [, hh, mm] = until(h.textOf(CHAT, id), berlinOffset.replace("+", "\\+"))!;
      expect(`${hh}:${mm}`).toBe(expected);
    }
    const redrawnNotice = user.view().find((m) => m.messageId === notice.messageId)!;
    expect(redrawnNotice.buttons).toEqual([]);
    expect(user.view().find((m) => m.messageId === cardId)!.buttons).toEqual(cardButtons);
  });

  it("in Chinese, a city typed in the offer's choices draws the notice and its card again in that city's zone", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "zh");
    const { user, notice, cardId } = await fulfilledOrder(CHAT, "1h", "✅ 确认", "zh");
    const cardButtons = structuredClone(h.tg.view(CHAT).find((m) => m.messageId === cardId)!.buttons);
    const kept = notice.buttons.slice(0, -1);
    expect(notice.buttons.at(-1)!.map((b) => b.text)).toEqual(["🕒 北京时间（UTC+8）", "🕒 其他时区"]);
    expect(notice.text).not.toContain("UTC+9");

    await user.press("🕒 其他时区", { messageId: notice.messageId });
    const menu = user.last()!;
    await user.press("🔎 输入城市", { messageId: menu.messageId });
    const question = user.last()!;
    await user.send("Tokyo");
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "Asia/Tokyo", chosen: true });
    // The menu becomes the word that the zone is saved, and the question keeps the answer: nothing new is sent.
    expect(h.textOf(CHAT, menu.messageId)).toContain("时区已设置为 Asia/Tokyo (UTC+9)");
    expect(user.view().find((m) => m.messageId === menu.messageId)!.buttons).toEqual([]);
    expect(user.last()!.messageId).toBe(question.messageId);
    expect(user.last()!.text).toContain("Tokyo");
    // The notice the menu was opened under, and the order's card above it, now tell the end in Tokyo time.
    await h.until(() => h.textOf(CHAT, cardId).includes("UTC+9"));
    const redrawn = user.view().find((m) => m.messageId === notice.messageId)!;
    expect(redrawn.text).toMatch(/\d{2}:\d{2} UTC\+9/);
    expect(redrawn.text).not.toMatch(/UTC(?![+−])/);
    expect(redrawn.text.split("\n")[0]).toBe(notice.text.split("\n")[0]);
    expect(redrawn.buttons).toEqual(kept);
    expect(h.textOf(CHAT, cardId)).not.toMatch(/UTC(?![+−])/);
    expect(user.view().find((m) => m.messageId === cardId)!.buttons).toEqual(cardButtons);
  });

  it("in Russian, a zone picked by its UTC offset in the offer's choices draws the notice and its card again in it", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "ru");
    const { user, notice, cardId } = await fulfilledOrder(CHAT, "1h", "✅ Подтвердить", "ru");
    const kept = notice.buttons.slice(0, -1);

    await user.press("🕒 Другой пояс", { messageId: notice.messageId });
    const menu = user.last()!;
    await user.press("🕐 По смещению от UTC", { messageId: menu.messageId });
    await user.press("UTC+4", { messageId: menu.messageId });
    await user.press("Dubai", { messageId: menu.messageId });
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "Asia/Dubai", chosen: true });
    // The choices become the word that the zone is saved; nothing new is sent.
    expect(h.textOf(CHAT, menu.messageId)).toContain("Часовой пояс установлен: Asia/Dubai (UTC+4)");
    expect(user.view().find((m) => m.messageId === menu.messageId)!.buttons).toEqual([]);
    expect(user.last()!.messageId).toBe(menu.messageId);
    await h.until(() => h.textOf(CHAT, cardId).includes("UTC+4"));
    const redrawn = user.view().find((m) => m.messageId === notice.messageId)!;
    expect(redrawn.text).toMatch(/делегирована до [^(]*?\d{2}:\d{2} UTC\+4 \(/);
    expect(redrawn.buttons).toEqual(kept);
    expect(h.textOf(CHAT, cardId)).toMatch(/делегирована до [^(]*?\d{2}:\d{2} UTC\+4 \(/);
  });

  it("the offer under a reminder, tapped, draws the reminder again in Moscow time with its Extend and Keep charged", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "ru");
    const { user, cardId, orderId } = await fulfilledOrder(CHAT, "1m", "✅ Подтвердить", "ru");
    const endsAtMs = (await h.flows.history.get(CHAT, "order", orderId))!.fulfilledAtMs! + 60_000;
    const moscow = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Moscow", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(endsAtMs);
    skewMs += 35_000;
    await user.press("⏰ Напомнить", { messageId: cardId });
    await h.until(() => user.botTexts().some((t) => t.startsWith("⏰ Энергия для")));
    const reminder = user.view().find((m) => m.text.startsWith("⏰ Энергия для"))!;
    expect(reminder.text).toMatch(/закончится в [^\n(]*?\d{2}:\d{2} UTC \(/);
    const buttons = reminder.buttons.map((row) => row.map((b) => b.text));
    expect(buttons.at(-1)).toEqual(["🕒 Московское время (UTC+3)", "🕒 Другой пояс"]);

    await user.press("🕒 Московское время (UTC+3)", { messageId: reminder.messageId });
    const redrawn = h.textOf(CHAT, reminder.messageId);
    // "Nov 29, 00:05" when the end falls on the next day in Moscow.
    expect(redrawn).toMatch(new RegExp(`закончится в (?:[^,(]+, )?${moscow} UTC\\+3`));
    expect(redrawn).toContain(orderId);
    const left = user.view().find((m) => m.messageId === reminder.messageId)!;
    expect(left.buttons.map((row) => row.map((b) => b.text))).toEqual(buttons.slice(0, -1));
  });

  it("an offer that cannot draw its message again (one sent before offers named it) says older messages keep their times", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 }, true, "ru");
    const { notice } = await fulfilledOrder(CHAT, "1h", "✅ Подтвердить", "ru");
    const shown = notice.text;
    const old = h.tg.rawCallback(CHAT, notice.messageId, "tz:s3", { languageCode: "ru" });
    await h.send(old);
    expect(h.tg.answerOf(old)?.["text"]).toBe(
      "🕒 Теперь время московское (UTC+3). Изменить — в /settings. В уже отправленных сообщениях время остаётся прежним.",
    );
    expect(await h.flows.limits.zoneOf(CHAT)).toEqual({ zone: "Europe/Moscow", chosen: true });
    expect(h.textOf(CHAT, notice.messageId)).toBe(shown);
  });

  it("a keep plan counts in the chat's zone unless told otherwise, and shows its moments there", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    await h.flows.limits.setTimeZone(CHAT, "Europe/Madrid");
    const user = h.user(CHAT, { languageCode: "en" });
    await user.send(`/keep ${BOB} 100k 1h until=18:00 hours=09:00-18:00`);
    // 18:00 is read on Madrid's clock and shown on it, with the offset of that moment.
    expect(user.lastText()).toMatch(/Runs until (?:[A-Z][a-z]{2} \d{1,2}, )?18:00 UTC\+[12]\./);
    expect(user.lastText()).toContain("(Europe/Madrid)");
    // tz= still sets a plan's own days and hours; its end is shown in the chat's zone all the same.
    await user.send(`/keep ${BOB} 100k 1h until=18:00 tz=UTC`);
    expect(user.lastText()).toMatch(/Runs until (?:[A-Z][a-z]{2} \d{1,2}, )?(?:19|20):00 UTC\+[12]\./);
  });

  it.each([
    ["moscow", "Europe/Moscow (UTC+3)"],
    ["москва", "Europe/Moscow (UTC+3)"],
    ["上海", "Asia/Shanghai (UTC+8)"],
    ["UTC+3", "UTC+3"],
    ["+03:00", "UTC+3"],
    ["GMT-5", "UTC−5"],
  ])("takes %j typed as the chat's zone (%s)", async (typed, label) => {
    const user = h.user(CHAT, { languageCode: "en" });
    await user.send("/settings");
    await user.press("🕒 Time zone: UTC");
    await user.press("🔎 Type a city");
    await user.send(typed);
    expect(user.lastText()).toContain(`Time zone set: ${label}`);
    expect((await h.flows.limits.zoneOf(CHAT)).chosen).toBe(true);
  });
});
