/**
 * The home card (docs/bot.md, "UI conventions"): /start is one message with the balance, what needs
 * attention and the main actions; every main action opens on that same message, and ◀️ Home comes
 * back to it, so a walk through the whole menu adds no message.
 */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const { alice: A } = TEST_KEYS;
let h: OrderHarness;

/** The bot's live messages in the chat: the count a walk must not raise. */
const botMessages = (chatId: number) => h.tg.botMessages(chatId).length;

describe("the home card", () => {
  useOrderHarness((started) => (h = started), { keep: true });

  it("shows the exact balance and the main actions, Keep charged included", async () => {
    await h.linkChat(6101, { balanceSun: 123_456_789 });
    const user = h.user(6101, { languageCode: "en" });
    await user.send("/start");
    expect(user.lastText()).toContain("your account is connected");
    expect(user.lastText()).toContain("Balance: 123.456789 TRX");
    expect(user.lastText()).not.toContain("Needs your attention");
    const buttons = user.lastButtons().flat();
    expect(buttons.slice(0, 3)).toEqual(["⚡ Order energy", "📜 My orders", "🔁 Keep charged"]);
    expect(buttons).toEqual(expect.arrayContaining(["💰 Balance", "💳 Top up", "📈 Prices", "⚙️ Settings", "❓ Help", "📜 History (app)"]));
    // The Mini App's History, where Telegram can open it (PUBLIC_URL is https here): a web_app button, last.
    const app = user.last()!.buttons.flat().at(-1) as unknown as { text: string; web_app?: { url: string } };
    expect(app.text).toBe("📜 History (app)");
    expect(app.web_app?.url).toBe("https://bot.example.test/app?screen=history");
  });

  it("navigates to every screen and back on the one message", async () => {
    await h.linkChat(6102);
    const user = h.user(6102, { languageCode: "en" });
    await user.send("/start");
    const home = user.last()!;
    const count = botMessages(6102);
    const screens: [string, string][] = [
      ["📜 My orders", "No orders or broadcasts yet"],
      ["🔁 Keep charged", "plans"],
      ["📈 Prices", "Energy prices"],
      ["⚙️ Settings", "Notifications"],
      ["❓ Help", "What I can do"],
    ];
    for (const [button, shows] of screens) {
      await user.press(button, { messageId: home.messageId });
      expect(h.textOf(6102, home.messageId), button).toContain(shows);
      expect(user.last()!.buttons.flat().at(-1)?.text, button).toBe("◀️ Home");
      await user.press("◀️ Home", { messageId: home.messageId });
      expect(h.textOf(6102, home.messageId), button).toContain("your account is connected");
    }
    expect(botMessages(6102)).toBe(count);
  });

  it("asks an order's first question in the card's place; Cancel leads back home on it", async () => {
    await h.linkChat(6103);
    const user = h.user(6103, { languageCode: "en" });
    await user.send("/start");
    const home = user.last()!;
    const count = botMessages(6103);
    await user.press("⚡ Order energy", { messageId: home.messageId });
    expect(h.textOf(6103, home.messageId)).toContain("Who receives the energy?");
    expect(botMessages(6103)).toBe(count);
    await user.press("Cancel", { messageId: home.messageId });
    expect(h.textOf(6103, home.messageId)).toContain("Cancelled");
    await user.press("◀️ Home", { messageId: home.messageId });
    expect(h.textOf(6103, home.messageId)).toContain("your account is connected");
    expect(botMessages(6103)).toBe(count);
  });

  it("an order begun on the card goes on as usual: the answered question loses its buttons", async () => {
    await h.linkChat(6104, { balanceSun: 1_000_000_000 });
    const user = h.user(6104, { languageCode: "en" });
    await user.send("/start");
    const home = user.last()!;
    await user.press("⚡ Order energy", { messageId: home.messageId });
    await user.send(A.address);
    expect(h.tg.view(6104).find((m) => m.messageId === home.messageId)?.buttons).toEqual([]);
    expect(user.lastText()).toContain("How much energy");
  });

  it("says what needs attention, with the button that resolves it first", async () => {
    await h.linkChat(6105, { balanceSun: 5_000_000 });
    await h.deps.flows.limits.freeze(6105);
    const user = h.user(6105, { languageCode: "en" });
    await user.send("/start");
    const text = user.lastText();
    expect(text).toContain("Needs your attention");
    expect(text).toContain("Spending is frozen");
    expect(text).toContain("under your alert level of 10 TRX");
    expect(user.lastButtons()[0]).toEqual(["🧊 Limits", "💳 Top up"]);
  });

  it("says the balance cannot be read rather than failing the card", async () => {
    await h.linkChat(6106);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 503, code: "unavailable", times: 4 });
    const user = h.user(6106, { languageCode: "en" });
    await user.send("/start");
    expect(user.lastText()).toContain("The balance cannot be read right now");
    expect(user.lastButtons().flat()).toContain("⚡ Order energy");
    h.takeErrorLogs();
  });

  it.each([
    ["ru", "ваш аккаунт подключён", "Баланс: 50 TRX", "◀️ Главная", "⚙️ Настройки"],
    ["zh", "您的账户已绑定", "余额：50 TRX", "◀️ 主页", "⚙️ 设置"],
  ])("speaks %s, its Home button included", async (locale, connected, balance, homeButton, settings) => {
    const chatId = locale === "ru" ? 6107 : 6108;
    await h.linkChat(chatId, {}, true, locale);
    const user = h.user(chatId, { languageCode: locale });
    await user.send("/start");
    expect(user.lastText()).toContain(connected);
    expect(user.lastText()).toContain(balance);
    const home = user.last()!;
    await user.press(settings, { messageId: home.messageId });
    expect(user.last()!.buttons.flat().at(-1)?.text).toBe(homeButton);
    await user.press(homeButton, { messageId: home.messageId });
    expect(h.textOf(chatId, home.messageId)).toContain(connected);
  });
});

describe("a question left for another command", () => {
  useOrderHarness((started) => (h = started));

  it("loses its buttons, so it no longer looks answerable", async () => {
    await h.linkChat(6120);
    const user = h.user(6120, { languageCode: "en" });
    await user.send("/order");
    const question = user.last()!;
    expect(question.buttons.flat().map((b) => b.text)).toContain("Cancel");
    await user.send("/prices");
    expect(h.tg.view(6120).find((m) => m.messageId === question.messageId)?.buttons).toEqual([]);
  });

  it("is never a card that came after it: a command leaving a later flow leaves the home card's buttons alone", async () => {
    await h.linkChat(6122);
    const user = h.user(6122, { languageCode: "en" });
    await user.send("/order");
    const card = user.last()!;
    await user.press("Cancel", { messageId: card.messageId });
    await user.press("◀️ Home", { messageId: card.messageId });
    expect(h.textOf(6122, card.messageId)).toContain("your account is connected");
    // A flow whose question has no buttons, left for a command.
    await user.send("/limits");
    await user.press("Daily cap");
    await user.press("✏️ Custom");
    await user.send("/prices");
    expect(
      h.tg
        .view(6122)
        .find((m) => m.messageId === card.messageId)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toContain("⚡ Order energy");
  });

  it("loses its buttons when /cancel ends its flow", async () => {
    await h.linkChat(6121);
    const user = h.user(6121, { languageCode: "en" });
    await user.send("/order");
    const question = user.last()!;
    await user.send("/cancel");
    expect(h.tg.view(6121).find((m) => m.messageId === question.messageId)?.buttons).toEqual([]);
  });
});
