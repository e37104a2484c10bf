import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { debitsOf, type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5101;
const BOB = TEST_KEYS.bob.address;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");

describe("/order", () => {
  it("walks receiver, amount and duration to a quote, charges on Confirm and tracks the card to fulfilled", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send("/order");
    expect(alice.lastText()).toContain("Who receives the energy?");
    await alice.send(`${BOB} main wallet`);
    expect(alice.botTexts().some((t) => t.includes(`Saved ${BOB} as “main wallet”`))).toBe(true);
    expect(alice.lastText()).toContain("How much energy? From 50,000 to 200,000");
    await alice.send("100k");
    expect(alice.lastText()).toContain("For how long?");
    expect(alice.lastButtons().flat()).toEqual(
      ["1m · 100 sun", "5m · 100 sun", "15m · 110 sun", "1h · 150 sun", "Cancel"].filter((b) => alice.lastButtons().flat().includes(b)),
    );
    await alice.press(/^1h ·/);
    const quote = alice.last()!;
    expect(quote.text).toContain(`Receiver: ${BOB}`);
    expect(quote.text).toMatch(/Energy: 100,000 for 1 h/);
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    await alice.press("✅ Confirm");
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
    const card = h.tg.view(CHAT).find((m) => m.messageId === quote.messageId)!;
    expect(card.text).toMatch(/^Order [0-9a-f]{24}\nStatus: pending/);
    await h.until(() => alice.botTexts().some((t) => t.startsWith("✅ Order")));
    const final = alice.last()!;
    expect(final.text).toContain(`energy delegated to ${BOB} 🏷 main wallet for 1 h`);
    // The notice replies to the card and leaves the buttons to it; only the time-zone offer (none picked yet) is its own.
    expect(final.replyTo).toBe(quote.messageId);
    expect(alice.lastButtons()).toEqual([["🕒 Set my time zone"]]);
    await h.until(() =>
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === quote.messageId)!
        .text.includes("Status: fulfilled"),
    );
    const finished = h.tg.view(CHAT).find((m) => m.messageId === quote.messageId)!;
    expect(finished.buttons.map((row) => row.map((b) => b.text))).toEqual([["🔄 Track", "🔁 Rent again"], ["⏰ Remind me"], ["🔎 Explorer"]]);
    const orderId = /Order ([0-9a-f]{24})/.exec(card.text)![1]!;
    await alice.press("🔁 Rent again");
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    expect(posts()).toHaveLength(1);
    expect(orderId).toHaveLength(24);
  });

  it("offers recent receivers with their labels as buttons, named in full in the message", async () => {
    await h.linkChat(CHAT);
    await h.flows.addressBook.add(CHAT, BOB, "Bob", Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order");
    expect(alice.lastButtons()[0]![0]).toMatch(/^Bob · TQCq78…S9pu$/);
    expect(alice.lastText()).toContain(`Recent receivers:\n• Bob: ${BOB}`);
    await alice.press(/^Bob/);
    expect(alice.lastText()).toContain("How much energy?");
  });

  it("refuses an address with a bad checksum and takes a saved label typed instead", async () => {
    await h.linkChat(CHAT);
    await h.flows.addressBook.add(CHAT, BOB, "Savings", Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order");
    const badChecksum = `${BOB.slice(0, -1)}${BOB.endsWith("v") ? "w" : "v"}`;
    await alice.send(badChecksum);
    expect(alice.lastText()).toContain("with a correct checksum");
    await alice.send("savings");
    expect(alice.lastText()).toContain("How much energy?");
    await alice.send("100k");
    await alice.press(/^5m ·/);
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
  });

  it("builds the duration buttons from the live tiers and shows unit price, total and the balance after", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 180 });
    h.deps.pricing.invalidate();
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    await alice.send("65,000");
    expect(alice.lastButtons().flat()).toContain("2h · 180 sun");
    await alice.press("2h · 180 sun");
    const quote = alice.lastText();
    expect(quote).toContain("Energy: 65,000 for 2 h\nUnit price: 180 sun");
    expect(quote).toContain("Total: 11.7 TRX");
    expect(quote).toContain("Balance: 100 TRX, after the order: 88.3 TRX");
  });

  it("jumps to the quote from a one-shot command and from the inline deep link", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 65,000 15m`);
    expect(alice.lastText()).toMatch(/Energy: 65,000 for 15 min/);
    await alice.send("/start order_100000_300");
    // The preset from the link is said once, above the receiver question, in the same message.
    expect(alice.lastText()).toMatch(/^Ordering 100,000 energy for 5 min, as quoted\. Now the receiver:\n\nWho receives the energy\?/);
    expect(alice.botTexts().filter((t) => t.includes("as quoted"))).toHaveLength(1);
    await alice.send(BOB);
    expect(alice.lastText()).toMatch(/Energy: 100,000 for 5 min/);
    // A hand-edited deep link with an amount out of range asks for the amount instead.
    await alice.send("/start order_10_300");
    expect(alice.lastText()).not.toContain("Ordering");
    expect(alice.lastText()).toMatch(
      /^The link asked for 10 energy, outside what can be ordered \(50,000 to 200,000\): tell me the amount below\.\n\nWho receives/,
    );
    await alice.send(BOB);
    expect(alice.lastText()).toContain("How much energy? From 50,000 to 200,000");
    await alice.send("/cancel");
    await alice.send(`/order ${BOB} 10 1h`);
    expect(alice.lastText()).toBe("The amount 10 is outside 50,000–200,000.");
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 180 });
    h.deps.pricing.invalidate();
    await h.deps.pricing.get();
    await h.until(() => h.deps.pricing.peek()?.tiers.some((t) => t.durationSec === 7200) === true);
    await alice.send(`/order ${BOB} 100k 2h`);
    expect(alice.lastText()).toMatch(/Energy: 100,000 for 2 h\nUnit price: 180 sun/);
    await alice.send("/order nonsense");
    expect(alice.lastText()).toContain("Usage: /order address amount duration");
    expect(posts()).toHaveLength(0);
  });

  it("charges once when Confirm is tapped twice", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    const first = h.tg.press(CHAT, "✅ Confirm");
    const second = h.tg.press(CHAT, "✅ Confirm");
    await Promise.all([h.send(first), h.send(second)]);
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
    expect(new Set(posts().map((p) => p.idempotencyKey)).size).toBe(1);
    expect(h.tg.answerOf(second)?.["text"] ?? h.tg.answerOf(first)?.["text"]).toContain("already placed");
  });

  it("after a 402 shows required vs available, how much to send and the deposit address, and Retry charges once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 16_000_000, depositAddress: TEST_KEYS.erin.address });
    const alice = h.user(CHAT);
    // Two quotes the balance covers one at a time: the second, confirmed after the first, gets the service's 402.
    h.sim.control.pauseLifecycles(true);
    await alice.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
    const first = alice.last()!.messageId;
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.press("✅ Confirm", { messageId: first });
    await alice.press("✅ Confirm");
    const refusal = alice.lastText();
    expect(refusal).toContain("Required: 15 TRX\nAvailable: 1 TRX\nShort by: 14 TRX");
    expect(refusal).toContain(`Send at least 14 TRX to your deposit address (tap to copy):\n${TEST_KEYS.erin.address}`);
    expect(alice.last()!.rawText).toContain(`<code>${TEST_KEYS.erin.address}</code>`);
    // Retry and "never charged twice" are said once, not once per paragraph.
    expect(refusal.match(/Retry/g)).toHaveLength(1);
    expect(refusal.match(/twice/g)).toHaveLength(1);
    expect(alice.lastButtons()).toEqual([["💳 Top up"], ["🔁 Retry", "Cancel"]]);
    h.sim.credit(account.accountId, 50_000_000);
    const retry = await alice.press("🔁 Retry");
    expect(h.textOf(CHAT, h.pressedMessage(retry))).toMatch(/^Order [0-9a-f]{24}\nStatus: pending/);
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000, 15_000_000]);
    expect(new Set(posts().map((p) => p.idempotencyKey)).size).toBe(2);
  });

  it("explains each guard of the service and retries an undeliverable receiver with the same key", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    // Orders stay pending: no notification lands between a reply and its check.
    h.sim.control.pauseLifecycles(true);
    h.sim.chain.setActivated(BOB, false);
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.press("✅ Confirm");
    expect(alice.lastButtons()).toEqual([["✏️ Change address", "🔁 Retry"], ["Cancel"]]);
    const undeliverable = alice.lastText();
    h.sim.chain.setActivated(BOB, true);
    await alice.press("🔁 Retry");
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
    expect(undeliverable.length).toBeGreaterThan(20);

    // 409 in_progress: waited out with the same key, charged once.
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "status", status: 409, code: "idempotency.in_progress", retryAfterSec: 0, times: 1 });
    await alice.send(`/order ${BOB} 100k 5m`);
    await alice.press("✅ Confirm");
    expect(alice.lastText()).toMatch(/^Order [0-9a-f]{24}/);
    expect(debitsOf(h, account.accountId)).toHaveLength(2);

    // 400 validation: the range moved between quote and Confirm.
    await alice.send(`/order ${BOB} 60000 5m`);
    h.sim.control.setPricing({ amountMin: 70_000 });
    await alice.press("✅ Confirm");
    expect(alice.lastText()).toContain("amount must be between 70000 and 200000");
    expect(alice.lastButtons()).toEqual([]);
    expect(debitsOf(h, account.accountId)).toHaveLength(2);
  });

  it("answers a Cancel, and a tap on a cancelled quote as cancelled", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    const quote = alice.last()!;
    const confirm = h.tg.press(CHAT, "✅ Confirm");
    await alice.press("Cancel");
    expect(h.tg.view(CHAT).find((m) => m.messageId === quote.messageId)!.text).toBe("Quote cancelled. Nothing was charged.");
    await h.send(confirm);
    expect(h.tg.answerOf(confirm)?.["text"]).toBe("This was cancelled, so nothing was charged. Start again to place it.");
    expect(posts()).toHaveLength(0);
  });

  it("answers a step button of a left flow as expired, and /cancel leaves the flow", async () => {
    await h.linkChat(CHAT);
    await h.flows.addressBook.remember(CHAT, BOB, Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order");
    const data = h.tg.press(CHAT, /TQCq78/).callback_query!.data!;
    await alice.send("/cancel");
    // /cancel took the question's buttons off; a client that still shows them can press them.
    const oldPrompt = h.tg.botMessages(CHAT).find((m) => m.text.startsWith("Who receives"))!;
    expect(oldPrompt.buttons.flat()).toEqual([]);
    const stale = h.tg.rawCallback(CHAT, oldPrompt.messageId, data);
    await h.send(stale);
    expect(h.tg.answerOf(stale)?.["text"]).toBe("This button has expired. Please start again.");
    await alice.send("/order");
    const oldFlow = h.tg.rawCallback(CHAT, oldPrompt.messageId, data);
    await h.send(oldFlow);
    expect(h.tg.answerOf(oldFlow)?.["text"]).toBe("This button has expired. Please start again.");
    await alice.press(/TQCq78/);
    expect(alice.lastText()).toContain("How much energy?");
  });

  it("asks an unlinked chat to link first", async () => {
    const alice = h.user(CHAT);
    // The deep link is kept and the welcome offers Connect (test/features/account/account.test.ts follows it through).
    await alice.send("/start order_100000_3600");
    expect(alice.lastText()).toContain("Connect your account and I will continue right there");
    expect(alice.lastButtons()).toEqual([["🔗 Connect"]]);
    await alice.send("/order");
    expect(alice.lastText()).toBe("This chat is not connected to an account yet. Send /link and paste your API key from the dashboard.");
  });

  it("after a lost answer, says it may have been placed, replays the same key and shows the same order on the same card, charged once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await alice.send(`/order ${BOB} 100k 1h`);
    // Applied, then every answer lost for the client's attempts of the first two sends.
    h.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true, times: 4 });
    const confirm = await alice.press("✅ Confirm");
    const cardId = h.pressedMessage(confirm)!;
    const drawn = h.tg
      .callsOf("editMessageText")
      .filter((c) => c.params["message_id"] === cardId)
      .map((c) => String(c.params["text"]));
    expect(drawn[0]).toContain("may have been placed");
    expect(drawn.some((t) => /try again/i.test(t))).toBe(false);
    const shown = h.textOf(CHAT, cardId);
    expect(shown).toMatch(/^Order [0-9a-f]{24}/);
    expect(shown).toContain("this is the same order, charged once");
    expect(debitsOf(h, account.accountId)).toHaveLength(1);
    expect(new Set(posts().map((p) => p.idempotencyKey)).size).toBe(1);
  });
});
