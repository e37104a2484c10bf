/** What a user sends along with a command is used or said to be dropped, never lost in silence. */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

const { alice: A, bob: B } = TEST_KEYS;
let h: OrderHarness;

describe("parts sent with a command", () => {
  useOrderHarness((started) => (h = started));

  it("/batch reads the lines sent with it as the batch", async () => {
    await h.linkChat(5401, { balanceSun: 10_000_000_000 });
    const user = h.user(5401);
    await user.send(`/batch\n${A.address} 65000 1h\n${B.address} 70000 1h`);
    expect(user.lastText()).toContain("Quote for 2 orders");
    expect(user.lastText()).toContain("65,000");
    expect(user.lastText()).toContain("70,000");
    expect(user.lastButtons().flat()).toEqual(expect.arrayContaining(["✅ Confirm"]));
  });

  it("/cancel in a flow ends that flow only: a quote made before it still confirms", async () => {
    await h.linkChat(5403, { balanceSun: 1_000_000_000 });
    const user = h.user(5403);
    await user.send(`/order ${A.address} 65000 1h`);
    const quote = user.last()!;
    expect(quote.text).toContain("Your quote");
    await user.send("/order");
    await user.send("/cancel");
    expect(user.lastText()).not.toContain("quote");
    await user.press("✅ Confirm", { messageId: quote.messageId });
    await h.until(() => /^Order [0-9a-f]{24}/.test(h.textOf(5403, quote.messageId)));
  });

  it("a deep link whose amount cannot be ordered says so, then asks for the amount", async () => {
    await h.linkChat(5402);
    const user = h.user(5402);
    await user.send("/start order_999999_3600");
    const texts = h.tg.botMessages(5402).map((m) => m.text);
    expect(texts.some((t) => t.includes("The link asked for 999,999 energy, outside what can be ordered"))).toBe(true);
    await user.send(A.address);
    expect(user.lastText()).toContain("How much energy");
  });
});

describe("/help", () => {
  useOrderHarness((started) => (h = started));

  it("lists every command by task, the everyday ones first, with the main actions as buttons", async () => {
    const user = h.user(5410);
    await user.send("/help");
    const text = user.lastText();
    const everyday = text.indexOf("Every day");
    const orders = text.indexOf("Orders, sending, history");
    const account = text.indexOf("Account and settings");
    expect(everyday).toBeGreaterThan(-1);
    expect(everyday).toBeLessThan(orders);
    expect(orders).toBeLessThan(account);
    expect(text.indexOf("/send")).toBeLessThan(orders);
    expect(text.indexOf("/webhook")).toBeGreaterThan(account);
    expect(user.lastButtons().flat()).toEqual(["💰 Balance", "⚡ Order energy", "📜 My orders", "⚙️ Settings", "◀️ Home"]);
  });
});

describe("the guided order's amount step", () => {
  useOrderHarness((started) => (h = started));

  it("offers the usual amounts as buttons: one tap instead of typing", async () => {
    await h.linkChat(5420, { balanceSun: 1_000_000_000 });
    const user = h.user(5420);
    await user.send("/order");
    await user.send(A.address);
    const amountPrompt = user.last()!;
    expect(amountPrompt.text).toContain("How much energy");
    await user.press("131k · to a new recipient");
    expect(user.lastText()).toContain("For how long?");
    // The question keeps the answer the tap gave, as a typed answer would stand below it.
    expect(h.textOf(5420, amountPrompt.messageId)).toMatch(/How much energy[\s\S]*\n→ 131,000$/);
    await user.press(/^1h/);
    expect(user.lastText()).toContain("131,000");
  });
});

describe("/track alone", () => {
  useOrderHarness((started) => (h = started));

  it("offers the chat's latest orders as buttons, and the tapped one's live card replaces the question", async () => {
    await h.linkChat(5430, { balanceSun: 1_000_000_000 });
    const user = h.user(5430);
    await user.send(`/order ${A.address} 65000 1h`);
    await user.press("✅ Confirm");
    await user.send("/track");
    const pick = user.last()!;
    expect(pick.text).toContain("Which one?");
    const [button] = pick.buttons.flat();
    expect(button?.text).toMatch(/^Order [0-9a-f]{6}… · /);
    await user.press(button!.text, { messageId: pick.messageId });
    await h.until(() => /^Order [0-9a-f]{24}/.test(h.textOf(5430, pick.messageId)));
  });
});

describe("/settings' time zone", () => {
  useOrderHarness((started) => (h = started));

  it("opens on the settings card itself, and ◀️ Back shows the card with the zone just chosen", async () => {
    await h.linkChat(5440);
    const user = h.user(5440);
    await user.send("/settings");
    const card = user.last()!;
    const messages = h.tg.botMessages(5440).length;
    await user.press(/Time zone: UTC/, { messageId: card.messageId });
    await user.press("Europe/Berlin", { messageId: card.messageId });
    await user.press("◀️ Back", { messageId: card.messageId });
    expect(h.tg.botMessages(5440)).toHaveLength(messages);
    const buttons = h.tg
      .view(5440)
      .find((m) => m.messageId === card.messageId)!
      .buttons.flat()
      .map((b) => b.text);
    expect(buttons.some((b) => b.includes("Time zone: Europe/Berlin"))).toBe(true);
  });
});

describe("the address book card", () => {
  useOrderHarness((started) => (h = started));

  it("is redrawn once ➕ Add has saved: it counts the new entry", async () => {
    const user = h.user(5450);
    await user.send(`/addresses add ${A.address} home`);
    await user.send("/addresses");
    const card = user.last()!;
    expect(card.text).toContain("1 saved");
    await user.press("➕ Add", { messageId: card.messageId });
    await user.send(B.address);
    await user.send("shop");
    expect(h.textOf(5450, card.messageId)).toContain("2 saved");
  });
});
