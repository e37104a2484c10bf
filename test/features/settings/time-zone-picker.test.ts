/**
 * The /settings time-zone picker without typing an IANA name: 🔎 a city typed in any of the bot's
 * languages (several matches as buttons, none refused with the way on), and 🕐 the UTC offsets of now,
 * each listing the places that keep it. Every screen is the settings card itself, edited in place.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { zonesAtOffset, offsetsNow } from "../../../src/shared/limits/zone-search.js";
import { offsetText, parseTimeZoneInput, zoneLabel } from "../../../src/shared/limits/zone-input.js";
import { startBotHarness, type BotHarness } from "../../support/bot-harness.js";

describe("the time-zone picker", () => {
  let h: BotHarness;
  let nextChat = 7600;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterEach(() => {
    expect(h.leftovers()).toEqual({ failedCalls: [], errorLogs: [], unansweredCallbacks: [] });
  });
  afterAll(async () => {
    await h.close();
  });

  /** /settings opened on its zone's screen; the card's message id. */
  async function openPicker(languageCode = "en") {
    const u = h.user(++nextChat, { languageCode });
    await u.send("/settings");
    const card = u.last()!.messageId;
    await u.press(/^🕒/, { messageId: card });
    return { u, card };
  }
  const messageOf = (chatId: number, messageId: number) => h.tg.view(chatId).find((m) => m.messageId === messageId)!;
  const buttonsOf = (chatId: number, messageId: number) => messageOf(chatId, messageId).buttons.map((row) => row.map((b) => b.text));
  const zoneOf = (chatId: number) => h.deps.flows.limits.timeZoneOf(chatId);

  it.each([
    ["berlin", "Europe/Berlin"],
    ["Москва", "Europe/Moscow"],
    ["上海", "Asia/Shanghai"],
    ["new york", "America/New_York"],
    ["  New_York ", "America/New_York"],
  ])("🔎 finds %j: %s is set, and the card it was asked from shows it", async (typed, zone) => {
    const { u, card } = await openPicker();
    expect(buttonsOf(u.chatId, card)).toContainEqual(["🔎 Type a city", "🕐 By UTC offset"]);
    await u.press("🔎 Type a city", { messageId: card });
    expect(u.lastText()).toContain("Send the name of your city");
    await u.send(typed);
    const label = zoneLabel(zone, Date.now());
    expect(u.lastText()).toBe(`🕒 Time zone set: ${label}. Every time the bot shows is in it now.`);
    expect(await zoneOf(u.chatId)).toBe(zone);
    // The name a city search finds is the zone the other typed paths read (/limits, /keep tz=).
    const typedElsewhere = parseTimeZoneInput(typed);
    expect(typedElsewhere.ok && typedElsewhere.zone).toBe(zone);
    expect(messageOf(u.chatId, card).text).toContain(`Time zone: ${label}`);
    await u.press("◀️ Back", { messageId: card });
    expect(buttonsOf(u.chatId, card).flat()).toContain(`🕒 Time zone: ${zone}`);
  });

  it("🔎 offers the zones a part of a name matches as buttons; a tap sets one, says so on that message and redraws the picker", async () => {
    const { u, card } = await openPicker();
    await u.press("🔎 Type a city", { messageId: card });
    await u.send("novo");
    const answer = u.last()!;
    expect(answer.text).toBe("Several zones match “novo”. Pick yours, or send another name.");
    const now = Date.now();
    expect(buttonsOf(u.chatId, answer.messageId)).toEqual([
      [zoneLabel("Asia/Novosibirsk", now)],
      [zoneLabel("Asia/Novokuznetsk", now)],
      [zoneLabel("Africa/Porto-Novo", now)],
      ["🕐 By UTC offset"],
    ]);
    const before = h.tg.botMessages(u.chatId).length;
    const tap = await u.press(zoneLabel("Asia/Novosibirsk", now), { messageId: answer.messageId });
    expect(h.tg.answerOf(tap)?.["text"]).toBe("Time zone: Asia/Novosibirsk");
    expect(h.tg.botMessages(u.chatId)).toHaveLength(before);
    expect(await zoneOf(u.chatId)).toBe("Asia/Novosibirsk");
    expect(messageOf(u.chatId, answer.messageId).text).toContain("Time zone set: Asia/Novosibirsk");
    expect(messageOf(u.chatId, answer.messageId).buttons).toEqual([]);
    expect(messageOf(u.chatId, card).text).toContain("Time zone: Asia/Novosibirsk");
  });

  it("🔎 says so when no zone has the name, with Try again and the offsets; the step still takes a name", async () => {
    const { u, card } = await openPicker();
    await u.press("🔎 Type a city", { messageId: card });
    await u.send("atlantis");
    const refusal = u.last()!;
    expect(refusal.text).toContain("“atlantis” is not a time zone I know. Check the spelling and send it again");
    expect(buttonsOf(u.chatId, refusal.messageId)).toEqual([["🔎 Try again", "🕐 By UTC offset"]]);
    expect(await zoneOf(u.chatId)).toBe("UTC");
    await u.press("🔎 Try again", { messageId: refusal.messageId });
    expect(u.lastText()).toContain("Send the name of your city");
    await u.send("берлин");
    expect(await zoneOf(u.chatId)).toBe("Europe/Berlin");
    // The picker the search was first asked from shows the zone.
    expect(messageOf(u.chatId, card).text).toContain("Time zone: Europe/Berlin");
  });

  it("🕐 lists every offset of now on the card; UTC+5:30 lists Asia/Kolkata, and a tap sets it", async () => {
    const { u, card } = await openPicker();
    const before = h.tg.botMessages(u.chatId).length;
    await u.press("🕐 By UTC offset", { messageId: card });
    const grid = buttonsOf(u.chatId, card).flat();
    for (const offset of ["UTC−12", "UTC−9:30", "UTC−3:30", "• UTC", "UTC+3", "UTC+5:30", "UTC+5:45", "UTC+8:45", "UTC+14"]) expect(grid).toContain(offset);
    expect(grid).toHaveLength(offsetsNow(Date.now()).length + 1);
    expect(grid.at(-1)).toBe("◀️ Back");

    await u.press("UTC+5:30", { messageId: card });
    expect(messageOf(u.chatId, card).text).toContain("UTC+5:30 now");
    expect(buttonsOf(u.chatId, card)).toEqual([["Kolkata", "Colombo"], ["◀️ Back"]]);
    const kolkata = messageOf(u.chatId, card).buttons[0]![0]!;
    expect(kolkata.callback_data).toContain("Asia/Kolkata");
    await u.press("Kolkata", { messageId: card });
    expect(await zoneOf(u.chatId)).toBe("Asia/Kolkata");
    expect(messageOf(u.chatId, card).text).toContain("Time zone: Asia/Kolkata (UTC+5:30)");
    await u.press("◀️ Back", { messageId: card });
    expect(buttonsOf(u.chatId, card).flat()).toContain("🕒 Time zone: Asia/Kolkata");
    // Every screen was the settings card itself.
    expect(h.tg.botMessages(u.chatId)).toHaveLength(before);
  });

  it("🕐 a whole hour also offers its fixed offset, and a long list has pages", async () => {
    const { u, card } = await openPicker();
    await u.press("🕐 By UTC offset", { messageId: card });
    const now = Date.now();
    // The offset most places keep now (UTC+1 in the northern winter, UTC+2 in its summer).
    const busiest = offsetsNow(now).reduce((a, b) => (zonesAtOffset(b, now).length > zonesAtOffset(a, now).length ? b : a));
    const zones = zonesAtOffset(busiest, now);
    expect(zones.length).toBeGreaterThan(12);
    await u.press(offsetText(busiest), { messageId: card });
    expect(messageOf(u.chatId, card).text).toContain(`Page 1 of ${Math.ceil(zones.length / 12)}.`);
    expect(
      buttonsOf(u.chatId, card)
        .flat()
        .filter((b) => !/Next|Back/.test(b)),
    ).toHaveLength(12);
    await u.press("Next ➡️", { messageId: card });
    expect(messageOf(u.chatId, card).text).toContain("Page 2 of");
    await u.press("⬅️ Previous", { messageId: card });
    expect(messageOf(u.chatId, card).text).toContain("Page 1 of");

    await u.press("◀️ Back", { messageId: card });
    await u.press("UTC−12", { messageId: card });
    expect(buttonsOf(u.chatId, card)).toEqual([["UTC−12, no summer time"], ["◀️ Back"]]);
    await u.press("UTC−12, no summer time", { messageId: card });
    expect(await zoneOf(u.chatId)).toBe("Etc/GMT+12");
    expect(messageOf(u.chatId, card).text).toContain("Time zone: UTC−12");
  });

  it("answers forged picker buttons as expired and changes nothing", async () => {
    const { u, card } = await openPicker();
    for (const data of ["tzp:l:999:0:s", "tzp:l:60:x:s", "tzp:z:Mars/Olympus:0:s", "tzp:q:0:0:s", "tzp:g:0:0:x", "tzp:g:0:0"]) {
      const tap = h.tg.rawCallback(u.chatId, card, data);
      await h.send(tap);
      expect(h.tg.answerOf(tap)?.["text"], data).toContain("expired");
    }
    expect((await h.deps.flows.limits.zoneOf(u.chatId)).chosen).toBe(false);
  });

  it("the button of pickers drawn before 🔎 still asks for a zone", async () => {
    const { u, card } = await openPicker();
    await h.send(h.tg.rawCallback(u.chatId, card, "tz:o"));
    expect(u.lastText()).toContain("Send the name of your city");
    await u.send("UTC+3");
    expect(await zoneOf(u.chatId)).toBe("Etc/GMT-3");
  });

  it("speaks Russian and Chinese", async () => {
    const ru = await openPicker("ru");
    expect(buttonsOf(ru.u.chatId, ru.card)).toContainEqual(["🔎 Ввести город", "🕐 По смещению от UTC"]);
    await ru.u.press("🔎 Ввести город", { messageId: ru.card });
    await ru.u.send("атлантида");
    expect(ru.u.lastButtons()).toEqual([["🔎 Ещё раз", "🕐 По смещению от UTC"]]);
    await ru.u.send("новосибирск");
    expect(ru.u.lastText()).toContain("Часовой пояс установлен: Asia/Novosibirsk");

    const zh = await openPicker("zh");
    expect(buttonsOf(zh.u.chatId, zh.card)).toContainEqual(["🔎 输入城市", "🕐 按 UTC 偏移"]);
    await zh.u.press("🕐 按 UTC 偏移", { messageId: zh.card });
    await zh.u.press("UTC+8", { messageId: zh.card });
    expect(messageOf(zh.u.chatId, zh.card).text).toContain("当前为 UTC+8");
    expect(buttonsOf(zh.u.chatId, zh.card).flat()).toContain("Shanghai");
  });
});
