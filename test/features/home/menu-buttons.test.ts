/**
 * Buttons instead of typing: every button of /start, /balance and /prices
 * leads where its command leads (the same text, the same flow step).
 */
import { describe, expect, it, vi } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { useBotHarness } from "../../support/bot-harness.js";

const ADDRESS = "TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH";
const LINKED_MENU = [
  ["⚡ Order energy", "📜 My orders"],
  ["💰 Balance", "💳 Top up"],
  ["📈 Prices", "📡 Broadcast"],
  ["⚙️ Settings", "❓ Help"],
  // The harness's PUBLIC_URL is https: the ledger is offered in the Mini App too.
  ["📜 History (app)"],
];

describe("/start's main actions", () => {
  const h = useBotHarness();
  let chat = 7100;

  /** What the bot says to a command, and what it says to the button on the home card, in that card's place: the same text and buttons. */
  async function sameAsCommand(command: string, button: string, chatId: number) {
    const u = h.user(chatId);
    await u.send(command);
    const byCommand = u.last()!;
    await u.send("/start");
    const home = u.last()!;
    await u.press(button);
    const byButton = u.last()!;
    expect(byButton.messageId).toBe(home.messageId);
    expect(byButton.text).toBe(byCommand.text);
    expect(byButton.buttons).toEqual(byCommand.buttons);
    return byButton;
  }

  it("greets a linked chat with its actions, and each leads where its command does", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    await h.linkChat(u.chatId, { balanceSun: 12_000_000, depositAddress: ADDRESS });
    await u.send("/start");
    expect(u.lastText()).toContain("your account is connected");
    expect(u.lastButtons()).toEqual(LINKED_MENU);
    // No DASHBOARD_URL or SUPPORT_URL: no link buttons at all.
    expect(
      u
        .last()!
        .buttons.flat()
        .some((b) => b.url !== undefined),
    ).toBe(false);

    expect((await sameAsCommand("/prices", "📈 Prices", u.chatId)).text).toContain("Energy prices");
    expect((await sameAsCommand("/orders", "📜 My orders", u.chatId)).text).toContain("No orders or broadcasts yet");
    expect((await sameAsCommand("/settings", "⚙️ Settings", u.chatId)).text).toContain("Notifications");
    expect((await sameAsCommand("/help", "❓ Help", u.chatId)).text).toContain("What I can do");
  });

  it("Balance shows /balance's one message: the QR code with the balance, the address and the buttons", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId, { balanceSun: 12_000_000, depositAddress: ADDRESS });
    await u.send("/start");
    await u.press("💰 Balance");
    const card = h.tg.botMessages(u.chatId).at(-1);
    expect(card?.photo).toBeDefined();
    expect(card?.text).toContain("Available balance: 12 TRX");
    expect(card?.text).toContain(ADDRESS);
    expect(card?.buttons.flat().map((b) => b.text)).toEqual(["🔄 Refresh", "⚡ Order energy", "💳 Top up"]);
  });

  it("Order energy and Broadcast open their guided flows", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId);
    await u.send("/start");
    await u.press("⚡ Order energy");
    expect(u.lastText()).toContain("Who receives the energy?");
    await u.send("/cancel");
    await u.send("/start");
    await u.press("📡 Broadcast");
    expect(u.lastText()).toContain("Send the signed transaction");
    await u.send("/cancel");
  });

  it("Top up sends the QR code with the address and what to send in its caption", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId, { balanceSun: 0, depositAddress: ADDRESS });
    await u.send("/start");
    await u.press("💳 Top up");
    const photo = u.last()!;
    expect(photo.photo).toBeDefined();
    expect(photo.text).toContain(ADDRESS);
    expect(photo.text).toContain("Send at least 10 TRX per transfer");
  });

  it("greets a chat without an account with Connect, Prices, Language and Help", async () => {
    const u = h.user(++chat, { languageCode: "ru" });
    await u.send("/start");
    expect(u.lastButtons()).toEqual([
      ["🔗 Подключить", "📈 Цены"],
      ["🌐 Язык", "❓ Помощь"],
    ]);
    await u.press("🌐 Язык");
    expect(u.lastText()).toBe("Выберите язык:");
    await u.send("/start");
    await u.press("📈 Цены");
    expect(u.lastText()).toContain("Цены на энергию");
    await u.send("/start");
    await u.press("🔗 Подключить");
    expect(u.lastText()).toContain("API-ключ");
    await u.send("/cancel");
  });

  it("answers an account button of an unlinked chat (a stale menu) with the way to connect", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId);
    await u.send("/start");
    await h.deps.chats.unlink(u.chatId);
    const before = h.sim.requests.length;
    await u.press("💰 Balance");
    expect(u.lastText()).toContain("/link");
    expect(h.sim.requests.length).toBe(before);
  });

  it("keeps deep links: /start link opens the link flow, with no menu", async () => {
    const u = h.user(++chat);
    await u.send("/start link");
    expect(u.lastText()).toContain("API key");
    expect(u.lastButtons().flat()).not.toContain("📈 Prices");
    await u.send("/cancel");
  });
});

describe("/balance's buttons", () => {
  const h = useBotHarness();
  let chat = 7200;
  const answers = () => h.tg.callsOf("answerCallbackQuery").map((c) => (typeof c.params["text"] === "string" ? c.params["text"] : ""));

  it("Refresh edits the same message in place, and only says so when nothing changed", async () => {
    const u = h.user(++chat);
    const account = await h.linkChat(u.chatId, { balanceSun: 12_000_000, depositAddress: ADDRESS });
    await u.send("/balance");
    const card = h.tg.botMessages(u.chatId).at(-1)!;
    const edits = h.tg.callsOf("editMessageCaption").length;
    await u.press("🔄 Refresh", { messageId: card.messageId });
    expect(answers().at(-1)).toBe("Nothing has changed since the last check");
    expect(h.tg.callsOf("editMessageCaption")).toHaveLength(edits);

    h.sim.credit(account.accountId, 3_500_001);
    const messages = h.tg.botMessages(u.chatId).length;
    await u.press("🔄 Refresh", { messageId: card.messageId });
    expect(answers().at(-1)).toBe("Balance updated");
    const edited = h.tg.view(u.chatId).find((m) => m.messageId === card.messageId)!;
    expect(edited.text).toContain("Available balance: 15.500001 TRX");
    expect(edited.buttons.flat().map((b) => b.text)).toEqual(["🔄 Refresh", "⚡ Order energy", "💳 Top up"]);
    expect(h.tg.botMessages(u.chatId)).toHaveLength(messages);
  });

  it("Order starts the guided order; Top up on the card says what to send on that card, no second QR code", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId, { balanceSun: 12_000_000, depositAddress: ADDRESS });
    await u.send("/balance");
    const messages = h.tg.botMessages(u.chatId).length;
    await u.press("💳 Top up");
    expect(h.tg.botMessages(u.chatId)).toHaveLength(messages);
    expect(u.last()!.photo).toBeDefined();
    expect(u.lastText()).toContain(ADDRESS);
    // Nothing new to say on the card: the tap is answered with where and how much to send.
    expect(answers().at(-1)).toBe("Send TRX to the address on this card, at least 10 TRX per transfer.");
    await u.press("⚡ Order energy");
    expect(u.lastText()).toContain("Who receives the energy?");
    await u.send("/cancel");
  });
});

describe("/prices' Order buttons", () => {
  const h = useBotHarness();
  let chat = 7300;

  it("offers one Order button per tier, and one starts the order with that duration chosen", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    await h.linkChat(u.chatId, { balanceSun: 100_000_000 });
    await u.send("/prices");
    const tiers = (await h.deps.pricing.get()).tiers.length;
    expect(u.lastButtons().flat()).toHaveLength(tiers + 1);
    expect(u.lastButtons().flat()).toContain("⚡ Order 1h");
    expect(u.lastButtons().flat().at(-1)).toBe("◀️ Home");
    await u.press("⚡ Order 1h");
    expect(u.botTexts().at(-2)).toBe("Duration: 1 h. Now tell me who receives the energy and how much.");
    expect(u.lastText()).toContain("Who receives the energy?");
    await u.send(TEST_KEYS.bob.address);
    expect(u.lastText()).toContain("How much energy?");
    await u.send("100k");
    // No duration question: the quote comes at once, for the tier pressed.
    expect(u.lastText()).toMatch(/Energy: 100,000 for 1 h/);
    expect(u.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("answers a tier that is gone since as expired, and shows no buttons in a group", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId);
    await u.send("/prices");
    h.sim.control.setPricing({ tiers: [{ durationSec: 3600, label: "1h", unitPriceSun: 150 }] });
    h.deps.pricing.invalidate();
    await h.deps.pricing.get();
    await vi.waitFor(() => expect(h.deps.pricing.peek()?.tiers).toHaveLength(1), { timeout: 10_000 });
    const messages = h.tg.botMessages(u.chatId).length;
    const tap = await u.press("⚡ Order 1m");
    expect(h.tg.answerOf(tap)?.["text"]).toBe("This button has expired. Please start again.");
    expect(h.tg.botMessages(u.chatId)).toHaveLength(messages);

    const GROUP = -200_7300;
    h.tg.addChat(GROUP, { type: "supergroup" });
    const group = h.user(GROUP, { from: { id: 9002, languageCode: "en" } });
    await group.send("/prices");
    expect(group.lastText()).toContain("Energy prices");
    expect(group.lastButtons()).toEqual([]);
  });
});
