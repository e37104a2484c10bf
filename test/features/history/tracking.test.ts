import { afterEach, describe, expect, it, vi } from "vitest";
import { FLOW_MAX_WAIT_MS } from "../../../src/bot/conversations/index.js";
import { signTrc20Transfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { closeChecked, debitsOf, startOrderHarness, type OrderHarness } from "../../bot/order-harness.js";

const CHAT = 5401;
const BOB = TEST_KEYS.bob.address;
let h: OrderHarness;

afterEach(() => closeChecked(h));

describe("conversations and tracking across restarts", () => {
  it("continues an /order flow after a restart mid-conversation", async () => {
    h = await startOrderHarness();
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/order");
    await user.send(BOB);
    expect(user.lastText()).toContain("How much energy?");
    await h.restart();
    await user.send("100k");
    expect(user.lastText()).toContain("For how long?");
    await user.press(/^15m ·/);
    expect(user.lastText()).toContain(`Receiver: ${BOB}`);
    await user.send("/cancel");
  });

  it("leaves an /order flow that waited past its time limit; the late answer is handled as ordinary text", async () => {
    h = await startOrderHarness();
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/order");
    await user.send(BOB);
    expect(user.lastText()).toContain("How much energy?");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + FLOW_MAX_WAIT_MS + 1_000);
      await user.send("100k");
    } finally {
      vi.useRealTimers();
    }
    expect(user.lastText()).toContain("I did not understand that");
    await user.send("/order");
    expect(user.lastText()).toContain("Who receives the energy?");
  });

  it("continues a /broadcast flow after a restart mid-conversation", async () => {
    h = await startOrderHarness();
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/broadcast");
    await h.restart();
    const tx = signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: BOB, amountAtomic: 7n, expirationMs: Date.now() + 600_000 });
    await user.send(JSON.stringify(tx));
    expect(user.lastText()).toContain("USDT transfer: 0.000007 USDT");
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("picks tracking up after a restart and announces each status once", async () => {
    h = await startOrderHarness();
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await user.send(`/order ${BOB} 100k 1h`);
    await user.press("✅ Confirm");
    const cardId = user.last()!.messageId;
    await h.restart();
    h.sim.control.pauseLifecycles(false);
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
    await h.until(() =>
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === cardId)!
        .text.includes("Status: fulfilled"),
    );
    expect(user.botTexts().filter((t) => t.startsWith("✅ Order"))).toHaveLength(1);
    const cardEdits = h.tg
      .callsOf("editMessageText")
      .filter((c) => c.params["message_id"] === cardId)
      .map((c) => /Status: <b>(\w+)/.exec(String(c.params["text"]))?.[1]);
    expect(cardEdits.slice(1)).toEqual([...new Set(cardEdits.slice(1))]);
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
  });

  it("never presents confirming as success", async () => {
    h = await startOrderHarness();
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    const good = signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: BOB, amountAtomic: 5_000_000n, expirationMs: Date.now() + 90_000 });
    await user.send(`/broadcast ${JSON.stringify(good)}`);
    await user.press("✅ Confirm");
    const card = user.last()!;
    const id = /Broadcast ([0-9a-f]{24})/.exec(card.text)![1]!;
    h.sim.control.setBroadcastStatus(id, "confirming");
    await h.until(() =>
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === card.messageId)!
        .text.includes("Status: confirming"),
    );
    const shown = h.tg.view(CHAT).find((m) => m.messageId === card.messageId)!.text;
    expect(shown).toContain("waiting for confirmation. This is not final yet.");
    expect(user.botTexts().some((t) => t.startsWith("✅"))).toBe(false);
  });

  it("tells the chat to use /track when an order outlives the horizon", async () => {
    h = await startOrderHarness({ tracker: { orderHorizonMs: 200 } });
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await user.send(`/order ${BOB} 100k 1h`);
    await user.press("✅ Confirm");
    await h.until(() => user.lastText().startsWith("I have stopped watching order"));
    expect(user.lastText()).toMatch(/order [0-9a-f]{24} \(last status: pending\)\. Check it any time with \/track [0-9a-f]{24}\./);
  });

  it("offers a fresh quote, with a new key, when the quote has expired", async () => {
    let clock = Date.now();
    h = await startOrderHarness({ now: () => clock });
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    await user.send(`/order ${BOB} 100k 1h`);
    clock += 10 * 60_000 + 1;
    await user.press("✅ Confirm");
    expect(user.lastText()).toContain("This quote has expired");
    expect(h.sim.requests.filter((r) => r.method === "POST")).toHaveLength(0);
    await user.press("Get a fresh quote");
    expect(user.lastText()).toContain("Your quote");
    await user.press("✅ Confirm");
    expect(user.lastText()).toMatch(/^Order [0-9a-f]{24}/);
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
  });

  it("notifies in the language the chat was using, without a stored choice", async () => {
    h = await startOrderHarness();
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT, { languageCode: "ru" });
    await user.send(`/order ${BOB} 100k 1h`);
    expect(user.lastText()).toContain("Расчёт стоимости");
    const confirm = await user.press("✅ Подтвердить");
    const cardId = h.pressedMessage(confirm)!;
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Заказ")));
    expect(user.lastText()).toContain("выполнен");
    expect(user.lastText()).toMatch(/Энергия делегирована до (\d{1,2} [а-я]+\.?, )?\d{2}:\d{2} UTC/);
    // No zone picked: the times are UTC, and Moscow time is offered in the chat's language; the notice replies to the card.
    expect(user.last()!.replyTo).toBe(cardId);
    expect(user.lastButtons()).toEqual([["🕒 Московское время (UTC+3)", "🕒 Другой пояс"]]);
    // The card's buttons, in the chat's language too.
    await h.until(() => h.textOf(CHAT, cardId).includes("⏳"));
    const card = h.tg.view(CHAT).find((m) => m.messageId === cardId)!;
    expect(card.buttons.map((row) => row.map((b) => b.text))).toEqual([["🔄 Отслеживать", "🔁 Арендовать снова"], ["⏰ Напомнить"], ["🔎 В обозревателе"]]);
  });
});
