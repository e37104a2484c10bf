import { describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { debitsOf, type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5801;
const { alice: A, bob: B, carol: C } = TEST_KEYS;
let h: OrderHarness;
const frozenChats: number[] = [];

useOrderHarness((started) => (h = started), {
  // A Confirm whose answers are all lost checks three times, moments apart, before the journal takes over.
  untilKnown: { delaysMs: [10, 10, 10] },
  limits: {
    onFreeze: (chatId) => {
      frozenChats.push(chatId);
      return Promise.resolve();
    },
  },
});

const orderPosts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Sets one limit through /limits, its ✏️ Custom and the typed amount. */
async function setLimit(chatId: number, button: string, amount: string): Promise<void> {
  const user = h.user(chatId);
  await user.send("/limits");
  await user.press(button);
  await user.press("✏️ Custom");
  // The card is drawn again with the amount; the line under the answer says so.
  const saved = () => user.botTexts().filter((t) => t.startsWith("✅ Saved. The card above")).length;
  const before = saved();
  await user.send(amount);
  // Tracker announcements of earlier orders may arrive after it: counted, not "the last message".
  expect(saved()).toBe(before + 1);
}

/** The newest quote of a one-shot /order (an earlier order's announcement may land after it). */
async function quoteOf(chatId: number, line: string) {
  const before = h.tg.botMessages(chatId).length;
  await h.user(chatId).send(`/order ${line}`);
  const quote = h.tg
    .botMessages(chatId)
    .slice(before)
    .findLast((m) => m.text.includes("Your quote"));
  expect(quote, "the quote of this /order").toBeDefined();
  return quote!;
}

const buttonsOf = (m: { buttons: { text: string }[][] }) => m.buttons.map((row) => row.map((b) => b.text));

/** A one-shot quote, confirmed on its own message (tracker announcements may follow it). */
/** The newest bot message starting so: background announcements may land after the answer a step looks at. */
function newestStarting(chatId: number, prefix: string) {
  return h.tg.botMessages(chatId).findLast((m) => m.text.startsWith(prefix));
}

async function orderAndConfirm(chatId: number, line: string): Promise<void> {
  const user = h.user(chatId);
  const before = h.tg.botMessages(chatId).length;
  await user.send(`/order ${line}`);
  // The newest quote, not the newest message: an earlier order's announcement may land after it.
  const quote = h.tg
    .botMessages(chatId)
    .slice(before)
    .findLast((m) => m.text.includes("Your quote"));
  expect(quote, "the quote of this /order").toBeDefined();
  await user.press("✅ Confirm", { messageId: quote!.messageId });
}

describe("/limits", () => {
  it("shows the caps, what was spent, the threshold and the zone, and refuses an amount that is not exact TRX", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/limits");
    expect(user.lastText()).toContain("Daily cap: none (spent today: 0 TRX)");
    expect(user.lastText()).toContain("Monthly cap: none (spent this month: 0 TRX)");
    expect(user.lastText()).toContain("Second tap above: none");
    expect(user.lastText()).toContain("Days and months are counted in UTC, your chat's time zone");
    expect(user.lastButtons()).toEqual([["Daily cap", "Monthly cap"], ["Second-tap threshold", "Time zone"], ["❄️ Freeze"]]);
    const card = user.last()!.messageId;
    const cardText = () => h.textOf(CHAT, card);
    await user.press("Daily cap");
    await user.press("✏️ Custom");
    expect(user.lastText()).toContain("Send the daily cap in TRX");
    await user.send("12,5");
    expect(user.lastText()).toBe("“12,5” is not an amount in TRX. Use digits, with a dot before at most 6 decimals, for example 50, 12.5 or 1,000.");
    await user.send("0.0000001");
    expect(user.lastText()).toContain("is not an amount in TRX");
    await user.send("0");
    expect(user.lastText()).toContain("must be more than 0 TRX");
    await user.send("12.5");
    // The card it was asked from shows the cap; a short line says so below the answer.
    expect(user.lastText()).toBe("✅ Saved. The card above shows the limits now.");
    expect(cardText()).toContain("Daily cap: 12.5 TRX, 12.5 TRX left (spent today: 0 TRX)");
    await user.press("Time zone");
    await user.send("Mars/Olympus");
    expect(user.lastText()).toContain("is not a time zone I know");
    await user.send("Europe/Moscow");
    expect(cardText()).toContain("Days and months are counted in Europe/Moscow, your chat's time zone");
    await user.press("Monthly cap");
    await user.press("• No limit");
    expect(cardText()).toContain("Limit removed.");
    await user.press("Daily cap");
    await user.press("No limit");
    expect(cardText()).toContain("Daily cap: none");
  });

  it.each([
    ["Daily cap", "dailyCapSun", "d", [10, 25, 50, 100, 250, 500]],
    ["Monthly cap", "monthlyCapSun", "m", [100, 250, 500, 1_000, 2_500, 5_000]],
    ["Second-tap threshold", "confirmAboveSun", "t", [5, 10, 25, 50, 100, 250]],
  ] as const)("%s: each preset sets what typing it sets, on the card itself; No limit removes it", async (button, field, _input, presets) => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/limits");
    const card = user.last()!.messageId;
    const messages = () => h.tg.botMessages(CHAT).length;
    const cardButtons = () =>
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === card)!
        .buttons.map((row) => row.map((b) => b.text));
    const before = messages();
    for (const trx of presets) {
      await user.press(button, { messageId: card });
      const label = `${trx.toLocaleString("en-US")} TRX`;
      expect(cardButtons().flat()).toContain(label);
      const tap = await user.press(label, { messageId: card });
      expect(h.tg.answerOf(tap)?.["text"]).toBe("✅ Saved.");
      const tapped = (await h.flows.limits.status(CHAT)).settings[field];
      expect(h.textOf(CHAT, card)).toMatch(/^✅ Saved\.\n\nSpend limits/);
      // Typed through ✏️ Custom, the same amount is the same setting.
      await user.press(button, { messageId: card });
      await user.press("✏️ Custom", { messageId: card });
      await user.send(String(trx));
      expect((await h.flows.limits.status(CHAT)).settings[field]).toBe(tapped);
      expect(tapped).toBe(String(BigInt(trx) * 1_000_000n));
    }
    // The choices mark the amount in force.
    await user.press(button, { messageId: card });
    expect(cardButtons().flat()).toContain(`• ${presets.at(-1)!.toLocaleString("en-US")} TRX`);
    await user.press("No limit", { messageId: card });
    expect((await h.flows.limits.status(CHAT)).settings[field]).toBeUndefined();
    expect(h.textOf(CHAT, card)).toMatch(/^✅ Limit removed\./);
    // Taps made no message; each typed amount made its prompt, the user's answer and one line.
    const typed = presets.length;
    expect(messages()).toBe(before + 2 * typed);
    // ◀️ Back turns the choices into the card again.
    await user.press(button, { messageId: card });
    await user.press("◀️ Back", { messageId: card });
    expect(cardButtons()).toEqual([["Daily cap", "Monthly cap"], ["Second-tap threshold", "Time zone"], ["❄️ Freeze"]]);
  });

  it("answers a forged preset as expired and stores nothing", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/limits");
    for (const data of ["limp:d:0", "limp:d:-5", "limp:z:50", "limp:d:1.5"]) {
      const tap = h.tg.rawCallback(CHAT, user.last()!.messageId, data);
      await h.send(tap);
      expect(h.tg.answerOf(tap)?.["text"], data).toContain("expired");
    }
    expect((await h.flows.limits.status(CHAT)).settings).toEqual({ frozen: false });
  });

  it("daily cap: charges up to the cap exactly; the quote that would cross it has no Confirm, says cap, spent and left, and offers Limits and Check again", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Daily cap", "20");
    await orderAndConfirm(CHAT, `${B.address} 100k 5m`); // 10 TRX
    await orderAndConfirm(CHAT, `${B.address} 100k 5m`); // 10 TRX: exactly at the cap
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000, 10_000_000]);
    const refused = await quoteOf(CHAT, `${B.address} 50k 1m`); // 5 TRX: would cross it
    expect(refused.text).toContain(
      "⛔ This order would pass your daily cap, so it cannot be confirmed: cap 20 TRX, spent today 20 TRX, left 0 TRX, this order 5 TRX. Raise the cap in ⚙️ Limits, then tap 🔄 Check again.",
    );
    expect(buttonsOf(refused)).toEqual([["⚙️ Limits", "🔄 Check again"], ["Cancel"]]);
    expect(orderPosts()).toHaveLength(2);
    await user.press("⚙️ Limits", { messageId: refused.messageId });
    // The newest limits card, not the newest message: an order's announcement may land after it.
    expect(newestStarting(CHAT, "Spend limits")?.text).toContain("Daily cap: 20 TRX, 0 TRX left (spent today: 20 TRX)");
    await setLimit(CHAT, "Daily cap", "25");
    // Check again draws a fresh quote on the same message: now with Confirm.
    const check = await user.press("🔄 Check again", { messageId: refused.messageId });
    expect(h.tg.answerOf(check)?.["text"]).toBeUndefined();
    const redrawn = h.tg.view(CHAT).find((m) => m.messageId === refused.messageId)!;
    expect(redrawn.text).not.toContain("⛔");
    expect(buttonsOf(redrawn)).toEqual([["✅ Confirm", "Cancel"]]);
    await user.press("✅ Confirm", { messageId: refused.messageId });
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000, 10_000_000, 5_000_000]);
  });

  it("a Confirm the cap refuses after the quote (another charge got in first) carries the Limits button", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Daily cap", "15");
    const first = await quoteOf(CHAT, `${B.address} 100k 5m`); // 10 TRX
    const second = await quoteOf(CHAT, `${B.address} 100k 5m`); // 10 TRX: fits alone, not after the first
    await user.press("✅ Confirm", { messageId: first.messageId });
    await user.press("✅ Confirm", { messageId: second.messageId });
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000]);
    const refusal = newestStarting(CHAT, "⛔ Not sent");
    expect(refusal?.text).toBe(
      "⛔ Not sent: this would cross your daily cap. Nothing was charged.\nCap: 15 TRX · spent today: 10 TRX · left: 5 TRX\nThis costs: 10 TRX\nChange the caps with ⚙️ Limits below, then tap Confirm again.",
    );
    expect(buttonsOf(refusal!)).toEqual([["⚙️ Limits"]]);
  });

  it("monthly cap: refuses the order that would cross it", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Monthly cap", "15.5");
    await orderAndConfirm(CHAT, `${B.address} 100k 5m`);
    const refused = await quoteOf(CHAT, `${B.address} 65,000 1m`); // 6.5 TRX: 16.5 > 15.5
    expect(refused.text).toContain("cap 15.5 TRX, spent this month 10 TRX, left 5.5 TRX, this order 6.5 TRX");
    expect(buttonsOf(refused).flat()).not.toContain("✅ Confirm");
    expect(user.botTexts().some((t) => t.startsWith("⛔"))).toBe(false);
    await orderAndConfirm(CHAT, `${B.address} 55,000 1m`); // 5.5 TRX: exactly the rest
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000, 5_500_000]);
  });

  it("counts a batch and a broadcast against the cap, as the ledger charged them", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/order");
    await user.send(`${A.address} 100k 5m\n${B.address} 50k 5m`); // 15 TRX
    await user.press("✅ Confirm");
    expect(sum(debitsOf(h, account.accountId))).toBe(15_000_000);
    const tx = signTrxTransfer({ privateKey: B.privateKey, to: C.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
    await user.send("/broadcast");
    await user.send(JSON.stringify(tx));
    await user.press("✅ Confirm");
    await h.until(() => debitsOf(h, account.accountId).length === 3);
    const charged = sum(debitsOf(h, account.accountId));
    // The fee as the service charged it, once the tracker has read the broadcast's record.
    await h.until(async () => (await h.flows.limits.status(CHAT)).spent.daySun === BigInt(charged));
    const capTrx = (charged + 4_000_000) / 1_000_000; // 4 TRX left under it
    await setLimit(CHAT, "Daily cap", String(capTrx));
    const refused = await quoteOf(CHAT, `${C.address} 50k 1m`); // 5 TRX > 4 left
    expect(refused.text).toContain(`spent today ${String(charged / 1_000_000)} TRX, left 4 TRX`);
    expect(debitsOf(h, account.accountId)).toHaveLength(3);
  });

  it("above the threshold asks for a second tap on the quote, then charges once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Second-tap threshold", "12.3");
    await user.send(`/order ${B.address} 100k 5m`); // 10 TRX: below, one tap
    await user.press("✅ Confirm");
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
    await user.send(`/order ${B.address} 82,300 15m`); // 82,300 × 110 sun = 9.053 TRX: below
    await user.press("✅ Confirm");
    await user.send(`/order ${B.address} 123,400 5m`); // 12.34 TRX: above
    // The quote, not whatever came last: the tracker may announce an earlier order after it.
    const quote = h.tg.botMessages(CHAT).findLast((m) => m.buttons.flat().some((b) => b.text === "✅ Confirm"))!;
    await user.press("✅ Confirm");
    expect(orderPosts()).toHaveLength(2);
    const buttons = h.tg.view(CHAT).find((m) => m.messageId === quote.messageId)!.buttons;
    expect(buttons.map((row) => row.map((b) => b.text))).toEqual([["✅ Confirm again: 12.34 TRX", "Cancel"]]);
    const againData = buttons[0]![0]!.callback_data!;
    const again = await user.press("✅ Confirm again: 12.34 TRX");
    expect(h.textOf(CHAT, h.pressedMessage(again))).toMatch(/^Order [0-9a-f]{24}\nStatus:/);
    // A stale second tap changes nothing: the same quote, the same key.
    const stale = h.tg.rawCallback(CHAT, quote.messageId, againData);
    await h.send(stale);
    expect(h.tg.answerOf(stale)?.["text"]).toBe("This order is already placed; it was charged once.");
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000, 9_053_000, 12_340_000]);
    expect(orderPosts()).toHaveLength(3);
  });

  it("asks a second tap for a broadcast whose fee is above the threshold, then submits it once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Second-tap threshold", "0.000001");
    const tx = signTrxTransfer({ privateKey: B.privateKey, to: C.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
    await user.send("/broadcast");
    await user.send(JSON.stringify(tx));
    const summary = user.last()!;
    await user.press("✅ Confirm");
    expect(h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts")).toHaveLength(0);
    const again = h.tg
      .view(CHAT)
      .find((m) => m.messageId === summary.messageId)!
      .buttons.flat()
      .map((b) => b.text);
    expect(again[0]).toMatch(/^✅ Confirm again: [\d.]+ TRX$/);
    await user.press(again[0]!);
    await h.until(() => debitsOf(h, account.accountId).length === 1);
    expect(h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts")).toHaveLength(1);
  });

  it("Freeze refuses any spend at once and calls onFreeze; Unfreeze allows it again", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    frozenChats.length = 0;
    await user.send(`/order ${B.address} 100k 5m`);
    await user.send("/freeze");
    expect(user.lastText()).toContain("❄️ Frozen.");
    expect(user.lastButtons().at(-1)).toEqual(["▶️ Unfreeze"]);
    expect(frozenChats).toEqual([CHAT]);
    // The quote made before the freeze is refused as well.
    await user.press("✅ Confirm");
    expect(user.lastText()).toBe("⛔ Not sent: spending from this account is frozen. Nothing was charged. Tap ▶️ Unfreeze below to allow spending again.");
    expect(user.lastButtons()).toEqual([["▶️ Unfreeze"]]);
    // A quote made while frozen has no Confirm: Unfreeze is on it.
    const frozenQuote = await quoteOf(CHAT, `${B.address} 100k 5m`);
    expect(frozenQuote.text).toContain("⛔ Spending from this account is frozen, so this quote cannot be confirmed.");
    expect(buttonsOf(frozenQuote)).toEqual([["▶️ Unfreeze"], ["Cancel"]]);
    const tx = signTrxTransfer({ privateKey: B.privateKey, to: C.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });
    await user.send("/broadcast");
    await user.send(JSON.stringify(tx));
    await user.press("✅ Confirm");
    expect(user.lastText()).toContain("spending from this account is frozen");
    expect(user.lastButtons()).toEqual([["▶️ Unfreeze"]]);
    expect(await h.flows.limits.authorize(CHAT, 1n, "renewal")).toEqual({ allowed: false, reason: "frozen" });
    expect(debitsOf(h, account.accountId)).toEqual([]);
    // Unfreeze on the quote unfreezes and draws a fresh quote on the same message, Confirm included.
    await user.press("▶️ Unfreeze", { messageId: frozenQuote.messageId });
    expect(await h.flows.limits.isFrozen(CHAT)).toBe(false);
    expect(buttonsOf(h.tg.view(CHAT).find((m) => m.messageId === frozenQuote.messageId)!)).toEqual([["✅ Confirm", "Cancel"]]);
    await user.press("✅ Confirm", { messageId: frozenQuote.messageId });
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000]);
  });

  it("still resolves a confirmation sent before the freeze whose outcome was unknown, under its own key", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    // Every answer a 5xx, through all of the Confirm's checks: the outcome stays unknown, journaled.
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "status", status: 503, code: "service_unavailable" });
    await user.send(`/order ${B.address} 100k 5m`);
    await user.press("✅ Confirm");
    expect(user.lastText()).toContain("I keep checking in the background");
    h.sim.faults.clear();
    await user.send("/freeze");
    // The journal's resolution, as the confirmation recovery runs it.
    const [entry] = await h.deps.flows.pending.list();
    const resolved = await h.deps.flows.placer.place({ chatId: CHAT, quoteId: entry!.id, apiKey: account.apiKey, resolving: true });
    expect(resolved.status).toBe("placed");
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000]);
    // A new quote is refused on itself: no Confirm, Unfreeze instead.
    const refused = await quoteOf(CHAT, `${B.address} 100k 5m`);
    expect(refused.text).toContain("⛔ Spending from this account is frozen, so this quote cannot be confirmed.");
    expect(buttonsOf(refused).flat()).not.toContain("✅ Confirm");
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000]);
  });

  it("two confirmations at once never pass the cap together", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await setLimit(CHAT, "Daily cap", "15");
    const quoteIds: string[] = [];
    for (const receiver of [A.address, B.address]) {
      await user.send(`/order ${receiver} 100k 5m`);
      quoteIds.push(h.tg.lastBotMessage(CHAT)!.buttons.flat()[0]!.callback_data!.split(":")[1]!);
    }
    // Updates of one chat are handled one at a time; a renewal or a second process's confirmation is not one of them.
    const apiKey = (await h.deps.chats.getApiKey(CHAT))!;
    const results = await Promise.all(quoteIds.map((quoteId) => h.flows.placer.place({ chatId: CHAT, quoteId, apiKey })));
    expect(results.map((r) => r.status).sort()).toEqual(["over_limit", "placed"]);
    expect(debitsOf(h, account.accountId)).toEqual([10_000_000]);
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
  });
});
