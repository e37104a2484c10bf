/**
 * What can be known before Confirm is said on the quote, with the button that resolves it, and
 * never left to a refusal after the tap: a token contract as receiver, an unreadable balance; a
 * receiver the service refuses as undeliverable offers ✏️ Change address, and Retry only when the
 * same order could pass (an inactive account, never a contract), redrawn on its own card. Every
 * saving the bot claims is computed from the live prices against the burn price (100 sun here).
 */
import { describe, expect, it } from "vitest";
import { USDT_MAINNET_CONTRACT } from "../../src/shared/tron/transaction.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { debitsOf, type OrderHarness, useOrderHarness } from "./order-harness.js";

const CHAT = 6301;
const BOB = TEST_KEYS.bob.address;
const CAROL = TEST_KEYS.carol.address;
let h: OrderHarness;

useOrderHarness((started) => (h = started), { keep: true });

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");
const buttonsOf = (messageId: number | undefined) =>
  (h.tg.view(CHAT).find((m) => m.messageId === messageId)?.buttons ?? []).map((row) => row.map((b) => b.text));

describe("a token contract as receiver", () => {
  it("is refused before any quote in the one-line /order, which goes on asking for another receiver with the same amount and duration", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${USDT_MAINNET_CONTRACT} 100k 1h`);
    const texts = alice.botTexts();
    expect(texts.some((t) => t.startsWith(`${USDT_MAINNET_CONTRACT} is a token contract, not a wallet`))).toBe(true);
    expect(texts.some((t) => t.includes("Your quote"))).toBe(false);
    expect(texts.some((t) => t.includes("Ordering 100,000 energy for 1 h, as quoted. Now the receiver:"))).toBe(true);
    await alice.send(BOB);
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
    expect(alice.lastText()).toMatch(/Energy: 100,000 for 1 h/);
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    expect(posts()).toHaveLength(0);
  });

  it("is refused at the guided receiver step, which asks again", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(USDT_MAINNET_CONTRACT);
    expect(alice.lastText()).toContain("is a token contract, not a wallet");
    expect(alice.lastButtons()).toEqual([["Cancel"]]);
    await alice.send(BOB);
    expect(alice.lastText()).toContain("How much energy?");
  });

  it("is named as a bad line of a batch, before anything is quoted", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/batch");
    await alice.send(`${BOB} 100k 1h\n${USDT_MAINNET_CONTRACT} 100k 1h`);
    expect(alice.lastText()).toContain(`Line 2: ${USDT_MAINNET_CONTRACT} is a token contract, not a wallet`);
    expect(alice.botTexts().some((t) => t.includes("Quote for"))).toBe(false);
  });
});

describe("a receiver the service refuses as undeliverable", () => {
  it("a contract: ✏️ Change address and no Retry; the change asks for the receiver and quotes the same energy afresh", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    h.sim.chain.setContract(CAROL);
    await alice.send(`/order ${CAROL} 100k 1h`);
    await alice.press("✅ Confirm");
    expect(alice.lastText()).toContain(`⛔ Not placed: the service says ${CAROL} is a contract, and a contract cannot receive energy.`);
    expect(alice.lastText()).not.toContain("Retry");
    expect(alice.lastButtons()).toEqual([["✏️ Change address"], ["Cancel"]]);
    await alice.press("✏️ Change address");
    expect(alice.botTexts().some((t) => t.includes("Ordering 100,000 energy for 1 h, as quoted. Now the receiver:"))).toBe(true);
    await alice.send(BOB);
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
    await alice.press("✅ Confirm");
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000]);
    // Two requests under two keys: the refused one (nothing charged) and the new receiver's.
    expect(new Set(posts().map((p) => p.idempotencyKey)).size).toBe(2);
  });

  it("an inactive account: Retry redraws the same card while nothing changed, and places the same order once it is activated", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    h.sim.chain.setActivated(BOB, false);
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.press("✅ Confirm");
    const card = alice.last()!;
    expect(card.text).toContain(`cannot receive energy because it is not an activated account yet`);
    expect(alice.lastButtons()).toEqual([["✏️ Change address", "🔁 Retry"], ["Cancel"]]);
    const count = h.tg.botMessages(CHAT).length;
    const again = await alice.press("🔁 Retry");
    expect(h.tg.answerOf(again)?.["text"]).toBe("Refused again: nothing has changed yet.");
    expect(h.tg.botMessages(CHAT)).toHaveLength(count);
    expect(buttonsOf(card.messageId)).toEqual([["✏️ Change address", "🔁 Retry"], ["Cancel"]]);
    h.sim.chain.setActivated(BOB, true);
    await alice.press("🔁 Retry");
    expect(h.textOf(CHAT, card.messageId)).toMatch(/^Order [0-9a-f]{24}/);
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000]);
    expect(new Set(posts().map((p) => p.idempotencyKey)).size).toBe(1);
  });
});

describe("a balance that cannot be read", () => {
  it("is said on the quote, which offers Retry instead of Confirm and gets Confirm on the same message once it is read", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 503, code: "service_unavailable" });
    await alice.send(`/order ${BOB} 100k 1h`);
    const quote = alice.last()!;
    expect(quote.text).toContain("Your balance could not be read right now.");
    expect(quote.text).toContain("⛔ It cannot be confirmed before the balance is read. Tap 🔁 Retry to read it again.");
    expect(alice.lastButtons()).toEqual([["🔁 Retry"], ["Cancel"]]);
    h.sim.faults.clear();
    await alice.press("🔁 Retry");
    expect(h.textOf(CHAT, quote.messageId)).toContain("Balance: 100 TRX, after the order: 85 TRX");
    expect(buttonsOf(quote.messageId)).toEqual([["✅ Confirm", "Cancel"]]);
    expect(posts()).toHaveLength(0);
  });
});

describe("the second-tap threshold", () => {
  it("is shown on a quote above it", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    await h.flows.limits.set(CHAT, "confirmAboveSun", 12_000_000n);
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 5m`); // 10 TRX
    expect(alice.lastText()).not.toContain("second-tap threshold");
    await alice.send(`/order ${BOB} 100k 1h`); // 15 TRX
    expect(alice.lastText()).toContain("Above your second-tap threshold of 12 TRX: Confirm will ask once more.");
  });
});

/** The service's base price moves and the bot's pricing cache has read it. */
async function pricesBecome(baseUnitPriceSun: number): Promise<void> {
  h.sim.control.setPricing({ baseUnitPriceSun });
  h.deps.pricing.invalidate();
  await h.until(async () => (await h.deps.pricing.get()).tiers.some((t) => t.unitPriceSun === baseUnitPriceSun));
}

describe("saving against burning, from live prices", () => {
  it("the quote states this order's saving or extra cost: amount × burn price against its total", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`); // 150 sun: 15 TRX against 10 TRX burnt
    expect(alice.lastText()).toContain("Burning TRX for the same energy would cost 10 TRX (at 100 sun per unit): this order costs 5 TRX more than burning.");
    await alice.send(`/order ${BOB} 100k 5m`);
    expect(alice.lastText()).toContain("would cost the same 10 TRX (at 100 sun per unit): this order saves nothing.");
    await pricesBecome(60);
    await alice.send(`/order ${BOB} 100k 5m`);
    expect(alice.lastText()).toContain("would cost 10 TRX (at 100 sun per unit): this order saves 4 TRX.");
    const ru = h.user(CHAT + 1, { languageCode: "ru" });
    await h.linkChat(CHAT + 1, { balanceSun: 100_000_000 });
    await ru.send(`/order ${BOB} 100k 5m`);
    expect(ru.lastText()).toContain("Сжечь TRX ради той же энергии стоило бы 10 TRX (по 100 sun за единицу): этот заказ экономит 4 TRX.");
  });

  it("/statement's saving is the sum of what the quotes said, by the same formula", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await alice.send(`/order ${BOB} 100k 1h`);
    expect(alice.lastText()).toContain("this order costs 5 TRX more than burning.");
    await alice.press("✅ Confirm");
    await pricesBecome(60);
    await alice.send(`/order ${BOB} 100k 5m`);
    expect(alice.lastText()).toContain("this order saves 4 TRX.");
    await alice.press("✅ Confirm");
    await alice.send("/statement");
    await h.until(() => alice.lastText().includes("Estimated saving against burning TRX"));
    expect(alice.lastText()).toContain(
      "Estimated saving against burning TRX: none this month. This is an estimate: the 200,000 energy of your orders, burnt at 100 sun per energy, would cost 20 TRX; the orders cost 21 TRX, that is 1 TRX more.",
    );
  });

  it("/start says what renting costs today against burning, or that prices cannot be read now", async () => {
    const alice = h.user(CHAT);
    await alice.send("/start");
    expect(alice.lastText()).toContain(
      "Today renting costs from 100 sun per unit of energy (1m); burning TRX for it costs 100 sun, so renting is no cheaper right now.",
    );
    expect(alice.lastText()).not.toContain("fraction");
    await pricesBecome(60);
    await alice.send("/start");
    expect(alice.lastText()).toContain("Today renting costs from 60 sun per unit of energy (1m); burning TRX for it costs 100 sun: 40% less.");
  });

  it("/start without readable prices says so instead of a promise", async () => {
    const alice = h.user(CHAT, { languageCode: "zh" });
    h.sim.faults.inject({ method: "GET", path: "/v1/public/pricing", kind: "status", status: 503, code: "service_unavailable" });
    await alice.send("/start");
    expect(alice.lastText()).toContain("目前无法读取今天的价格");
  });
});

describe("keep plans: what the cap allows", () => {
  it("/keep … 100k 1h cap=20 says the cap lets one order a day through, not a day of orders", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/keep ${BOB} 100k 1h cap=20`);
    const text = alice.lastText();
    expect(text).toContain(
      "Each order costs 15 TRX at today's price, one every 1 h. The cap of 20 TRX lets 1 of the 24 orders of a day through: at most 15 TRX per day, energy for 1 h of the day; then the plan waits for the next day.",
    );
    expect(text).not.toContain("if it runs all day");
    await alice.send(`/keep ${BOB} 100k 1h cap=10`);
    expect(alice.lastText()).toContain("more than the cap of 10 TRX: this plan would place no order.");
    await alice.send(`/keep ${BOB} 100k 1h cap=400`);
    expect(alice.lastText()).toContain("all 24 orders of a day fit under the cap of 400 TRX, at most 360 TRX per day.");
  });

  it("a plan proposed from an order's ♻️ Keep charged carries a cap, shown before Start: a day of orders, or the chat's lower daily limit", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.press("✅ Confirm");
    const card = alice.last()!;
    const orderId = /Order ([0-9a-f]{24})/.exec(card.text)![1]!;
    await h.send(h.tg.rawCallback(CHAT, card.messageId, `keep-order:${orderId}`));
    const proposal = h.tg.botMessages(CHAT).findLast((m) => m.text.includes("Keep charged"))!;
    expect(proposal.text).toContain("At most 360 TRX per day.");
    expect(proposal.text).toContain("The cap of 360 TRX per day was chosen for you: one day of orders at today's price.");
    expect(proposal.text).toContain(`<code>/keep ${BOB} 100000 3600s cap=…</code>`.replace(/<\/?code>/g, ""));
    expect(proposal.buttons.flat().map((b) => b.text)).toEqual(["✅ Start", "Cancel"]);
    await h.flows.limits.set(CHAT, "dailyCapSun", 50_000_000n);
    await h.send(h.tg.rawCallback(CHAT, card.messageId, `keep-order:${orderId}`));
    const capped = h.tg.botMessages(CHAT).findLast((m) => m.text.includes("Keep charged"))!;
    expect(capped.text).toContain("The cap of 50 TRX per day was chosen for you: your daily spending limit.");
    expect(capped.text).toContain("lets 3 of the 24 orders of a day through: at most 45 TRX per day");
  });
});
