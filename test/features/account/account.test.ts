import { describe, expect, it } from "vitest";
import { createOrderHistory } from "../../../src/shared/orders/order-history.js";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

let h: OrderHarness;
useOrderHarness((started) => (h = started));

/** The id of the order a Confirm just placed (the card names it). */
function lastOrderId(text: string): string {
  const id = /[0-9a-f]{24}/.exec(text)?.[0];
  if (!id) throw new Error(`no order id in: ${text}`);
  return id;
}

async function placeOrder(user: ReturnType<OrderHarness["user"]>, amount: string): Promise<string> {
  await user.send(`/order ${TEST_KEYS.bob.address} ${amount} 1h`);
  await user.press("✅ Confirm");
  return lastOrderId(user.lastText());
}

async function unlink(user: ReturnType<OrderHarness["user"]>): Promise<{ confirm: string; done: string }> {
  await user.send("/unlink");
  const confirm = user.lastText();
  await user.press(/^Yes|^Да|^确定/);
  return { confirm, done: user.lastText() };
}

describe("history follows the linked account", () => {
  it("after /unlink and another account, /orders and /track show only that account's records; the same account (even with a new key) brings its own back", async () => {
    const CHAT = 9101;
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    const a = h.sim.createAccount({ balanceSun: 500_000_000 });
    const b = h.sim.createAccount({ balanceSun: 500_000_000 });

    await user.send(`/link ${a.apiKey}`);
    const orderA = await placeOrder(user, "100k");
    await user.send("/orders");
    expect(user.lastText()).toContain(orderA);

    await unlink(user);
    await user.send("/orders");
    expect(user.lastText()).toContain("not connected");

    await user.send(`/link ${b.apiKey}`);
    await user.send("/orders");
    expect(user.lastText()).toContain("No orders or broadcasts yet");
    await user.send(`/track ${orderA}`);
    expect(user.lastText()).toContain("was not found for your account");
    const orderB = await placeOrder(user, "60k");
    await user.send("/orders");
    expect(user.lastText()).toContain(orderB);
    expect(user.lastText()).not.toContain(orderA);

    await unlink(user);
    // Another key of account A: the account, not the key, owns the history.
    const a2 = h.sim.createApiKey(a.accountId);
    await user.send(`/link ${a2.apiKey}`);
    await user.send("/orders");
    expect(user.lastText()).toContain("1 in all");
    expect(user.lastText()).toContain(orderA);
    expect(user.lastText()).not.toContain(orderB);
    await user.send(`/track ${orderA}`);
    expect(user.lastText()).toContain(orderA);
    expect(user.lastText()).not.toContain("was not found");
  });

  it("records kept per chat before the upgrade go to the account linked at their first use, and stay with it", async () => {
    const CHAT = 9102;
    const user = h.user(CHAT);
    // What the per-chat history wrote (no account).
    const legacy = createOrderHistory({ store: h.deps.store, logger: h.deps.logger });
    const oldId = "0123456789abcdef01234567";
    await legacy.add(CHAT, [
      { kind: "order", id: oldId, createdAtMs: 1_700_000_000_000, status: "fulfilled", address: TEST_KEYS.bob.address, amount: 65_000, durationSec: 3600 },
    ]);
    const a = await h.linkChat(CHAT);
    await user.send("/orders");
    expect(user.lastText()).toContain(oldId);

    await unlink(user);
    await h.linkChat(CHAT);
    await user.send("/orders");
    expect(user.lastText()).toContain("No orders or broadcasts yet");

    await unlink(user);
    await user.send(`/link ${a.apiKey}`);
    await user.send("/orders");
    expect(user.lastText()).toContain(oldId);
  });

  it("history kept under the key (no address known then) joins the account when the same key comes back with its address", async () => {
    const CHAT = 9109;
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    const a = h.sim.createAccount({ balanceSun: 500_000_000 });
    // Linked without the address (as before accounts were told apart): the key names the account.
    await h.deps.chats.link(CHAT, { apiKey: a.apiKey });
    expect((await h.deps.chats.account(CHAT))?.id).toMatch(/^key:/);
    const order = await placeOrder(user, "100k");
    await unlink(user);
    await user.send(`/link ${a.apiKey}`);
    expect((await h.deps.chats.account(CHAT))?.id).toMatch(/^addr:T/);
    await user.send("/orders");
    expect(user.lastText()).toContain(order);
  });

  it("a quote shown before /unlink is never confirmed under the account linked afterwards", async () => {
    const CHAT = 9103;
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    await user.send(`/order ${TEST_KEYS.bob.address} 100k 1h`);
    const quoteMessage = user.last()!.messageId;
    await unlink(user);
    const b = await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    const press = await user.press("✅ Confirm", { messageId: quoteMessage });
    expect(h.tg.answerOf(press)?.["text"]).toContain("can no longer be confirmed");
    expect(h.sim.ledger(b.accountId).filter((e) => e.kind === "debit")).toEqual([]);
    expect(h.tg.view(CHAT).find((m) => m.messageId === quoteMessage)?.buttons).toEqual([]);
  });

  it("a broadcast checked before /unlink is never submitted under the account linked afterwards", async () => {
    const CHAT = 9106;
    const user = h.user(CHAT);
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    await user.send("/broadcast");
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
    await user.send(JSON.stringify(tx));
    const summary = user.last()!.messageId;
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    await unlink(user);
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    const press = await user.press("✅ Confirm", { messageId: summary });
    expect(h.tg.answerOf(press)?.["text"]).toContain("can no longer be confirmed");
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toEqual([]);
  });

  it("/unlink stops following the account's unfinished orders in this chat", async () => {
    const CHAT = 9107;
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    await placeOrder(user, "100k");
    await h.until(() => h.tracker.size > 0);
    await unlink(user);
    expect(h.tracker.size).toBe(0);
  });

  it("/link with another account's key over a linked chat switches history and tracking to that account too", async () => {
    const CHAT = 9110;
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    await h.linkChat(CHAT, { balanceSun: 500_000_000 });
    const order = await placeOrder(user, "100k");
    await h.until(() => h.tracker.size > 0);
    const b = h.sim.createAccount({ balanceSun: 500_000_000 });
    await user.send(`/link ${b.apiKey}`);
    expect(user.lastText()).toContain("previous key of this chat was replaced");
    expect(h.tracker.size).toBe(0);
    await user.send("/orders");
    expect(user.lastText()).toContain("No orders or broadcasts yet");
    expect(user.lastText()).not.toContain(order);
  });

  it("the unlink texts name what is deleted and what is kept, in en, ru and zh", async () => {
    const user = h.user(9108);
    await h.linkChat(9108);
    const { confirm, done } = await unlink(user);
    expect(confirm).toContain("Deleted: the stored API key, the webhook secret and this chat's callback URL");
    expect(confirm).toContain("Quotes and broadcasts still waiting for Confirm can no longer be confirmed");
    expect(confirm).toContain("Kept: this account's order and broadcast history (it comes back when you link the same account again");
    expect(done).toContain("The account's history, your settings, saved labels and the language are kept");
    for (const [chat, languageCode, deleted, kept] of [
      [9104, "ru", "Будут удалены: сохранённый API-ключ", "Сохранятся: история заказов и отправок этого аккаунта"],
      [9105, "zh", "将被删除：已保存的 API 密钥", "将被保留：此账户的订单与广播记录"],
    ] as const) {
      const user = h.user(chat, { languageCode });
      await h.linkChat(chat);
      const { confirm } = await unlink(user);
      expect(confirm).toContain(deleted);
      expect(confirm).toContain(kept);
    }
  });
});

describe("a deep link followed before linking", () => {
  it("welcomes with Connect, survives the link flow and a restart, and opens the order with the link's amount and duration", async () => {
    const CHAT = 9201;
    const user = h.user(CHAT);
    await user.send("/start order_100000_3600");
    expect(user.lastText()).toContain("Hello");
    expect(user.lastText()).toContain("100,000 energy for 1 h");
    expect(user.lastButtons()).toEqual([["🔗 Connect"]]);

    await h.restart();
    const { apiKey } = h.sim.createAccount({ balanceSun: 500_000_000 });
    await user.press("🔗 Connect");
    expect(user.lastText()).toContain("API key");
    await user.send(apiKey);
    await user.press("Skip");
    const [linked, ask] = user.botTexts().slice(-2);
    expect(linked).toContain("Your account is connected");
    // The order flow, with amount and duration kept: only the receiver is asked, under what the link gave.
    expect(ask).toContain("100,000 energy for 1 h");
    expect(ask).toContain("Who receives the energy?");
    await user.send(TEST_KEYS.bob.address);
    expect(user.lastText()).toContain("100,000");
    expect(user.lastButtons().flat()).toContain("✅ Confirm");

    // Consumed once: linking again does not reopen it.
    await user.send("/cancel");
    await user.send(`/link ${apiKey}`);
    expect(user.lastText()).toContain("connected");
    expect(user.lastText()).not.toContain("Who receives the energy?");
  });

  it("also resumes after a one-step /link, in Russian", async () => {
    const CHAT = 9202;
    const user = h.user(CHAT, { languageCode: "ru" });
    await user.send("/start order_65000_3600");
    expect(user.lastText()).toContain("Здравствуйте");
    expect(user.lastText()).toContain("Подключите аккаунт");
    expect(user.lastButtons()).toEqual([["🔗 Подключить"]]);
    const { apiKey } = h.sim.createAccount({ balanceSun: 500_000_000 });
    await user.send(`/link ${apiKey}`);
    const ask = user.lastText();
    expect(ask).toMatch(/65\s000 энергии на 1 ч/);
    expect(ask).toContain("Кому отправить энергию?");
  });

  it("when already linked, /start with an order link opens the order flow as before", async () => {
    const CHAT = 9203;
    const user = h.user(CHAT);
    await h.linkChat(CHAT);
    await user.send("/start order_100000_3600");
    expect(user.lastText()).toContain("Who receives the energy?");
    expect(user.lastButtons().flat()).not.toContain("🔗 Connect");
  });
});
