/**
 * /order's details: keyboards without empty rows, the no-wallet account, the 402 text, one-shot wording and labels with
 * spaces, and prompts that keep their buttons after the flow moved on.
 */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5151;
const BOB = TEST_KEYS.bob.address;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");
/** Button rows of one message as it is now. */
const rowsOf = (messageId: number | undefined) => (h.tg.view(CHAT).find((m) => m.messageId === messageId)?.buttons ?? []).map((r) => r.map((b) => b.text));

describe("/order keyboards", () => {
  it("lays the duration picker out without an empty row before Cancel", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    await alice.send("100k");
    expect(alice.lastButtons()).toEqual([["1m · 100 sun", "5m · 100 sun"], ["15m · 110 sun", "1h · 150 sun"], ["Cancel"]]);
  });

  it("lays an odd number of tiers and the recent receivers out without empty rows", async () => {
    await h.linkChat(CHAT);
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 180 });
    h.deps.pricing.invalidate();
    await h.flows.addressBook.add(CHAT, BOB, "Bob", Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order");
    expect(alice.lastButtons()).toEqual([["Bob · TQCq78…S9pu"], ["Cancel"]]);
    await alice.press(/^Bob/);
    await alice.send("100k");
    expect(alice.lastButtons()).toEqual([["1m · 100 sun", "5m · 100 sun"], ["15m · 110 sun", "1h · 150 sun"], ["2h · 180 sun"], ["Cancel"]]);
  });
});

describe("an account without a wallet", () => {
  it("says so in the quote, which offers no Confirm but Check again, and Confirm comes once the wallet exists", async () => {
    const account = await h.linkChat(CHAT, { hasWallet: false });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    const quote = alice.last()!;
    expect(quote.text).toContain("Your account has no wallet yet");
    expect(quote.text).toContain("deposit address appears once the dashboard creates the wallet");
    expect(quote.text).toContain("⛔ It cannot be confirmed before the account has a wallet. Tap 🔄 Check again once the dashboard has created it.");
    expect(quote.text).not.toContain("could not be read");
    expect(alice.lastButtons()).toEqual([["🔄 Check again"], ["Cancel"]]);
    const messages = h.tg.botMessages(CHAT).length;
    // Nothing changed: the tap says so and the same card stays.
    const same = await alice.press("🔄 Check again");
    expect(h.tg.answerOf(same)?.["text"]).toBe("Still not possible: the quote says why.");
    expect(h.tg.botMessages(CHAT)).toHaveLength(messages);
    h.sim.credit(account.accountId, 50_000_000);
    await alice.press("🔄 Check again");
    expect(h.tg.botMessages(CHAT)).toHaveLength(messages);
    expect(alice.lastText()).toContain("Balance: 50 TRX, after the order: 35 TRX");
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    await alice.press("✅ Confirm");
    expect(alice.lastText()).toMatch(/^Order [0-9a-f]{24}/);
  });
});

describe("one-shot /order", () => {
  it("names an unknown duration with the available ones, in single-order words", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 80k 2h`);
    expect(alice.lastText()).toBe("Unknown duration 2h. Available: 1m, 5m, 15m, or 1h.");
    await alice.send(`/order ${BOB} lots 1h`);
    expect(alice.lastText()).toContain("“lots” is not an amount");
    await alice.send(`/order ${BOB.slice(0, -1)}x 80k 1h`);
    expect(alice.lastText()).toContain("is not a valid TRON address or one of your saved labels");
    for (const text of alice.botTexts()) expect(text).not.toMatch(/Line 1|whole list/);
    expect(posts()).toHaveLength(0);
  });

  it("takes a saved label with spaces in place of the address, with or without a duration", async () => {
    await h.linkChat(CHAT);
    await h.flows.addressBook.add(CHAT, BOB, "bob wallet", Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order bob wallet 80k 15m");
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
    expect(alice.lastText()).toMatch(/Energy: 80,000 for 15 min/);
    await alice.send("/order Bob Wallet 70 000 1h");
    expect(alice.lastText()).toMatch(/Energy: 70,000 for 1 h/);
    await alice.send("/order bob wallet 90k");
    expect(alice.lastText()).toContain("For how long?");
    await alice.press(/^5m ·/);
    expect(alice.lastText()).toMatch(/Energy: 90,000 for 5 min/);
    expect(alice.lastText()).toContain(`Receiver: ${BOB}`);
  });
});

describe("stale step buttons", () => {
  it("takes the buttons off each prompt once its step is answered", async () => {
    await h.linkChat(CHAT);
    await h.flows.addressBook.remember(CHAT, BOB, Date.now());
    const alice = h.user(CHAT);
    await alice.send("/order");
    const receiverPrompt = alice.last()!.messageId;
    await alice.send("not an address");
    const invalid = alice.last()!.messageId;
    expect(rowsOf(invalid)).toEqual([["Cancel"]]);
    await alice.press(/TQCq78/);
    expect(rowsOf(receiverPrompt)).toEqual([]);
    expect(rowsOf(invalid)).toEqual([]);
    const amountPrompt = alice.last()!.messageId;
    expect(rowsOf(amountPrompt)).toEqual([["65k · one USDT transfer", "131k · to a new recipient", "200k"], ["Cancel"]]);
    await alice.send("100k");
    expect(rowsOf(amountPrompt)).toEqual([]);
    const durationPrompt = alice.last()!.messageId;
    await alice.send("2h");
    const secondPicker = alice.last()!.messageId;
    expect(rowsOf(secondPicker).flat()).toContain("Cancel");
    // One picker at a time: the reminder's buttons replace the first ones.
    expect(rowsOf(durationPrompt)).toEqual([]);
    await alice.send("1h");
    expect(rowsOf(durationPrompt)).toEqual([]);
    expect(rowsOf(secondPicker)).toEqual([]);
    // Only the quote still has buttons.
    expect(
      h.tg
        .view(CHAT)
        .filter((m) => m.from === "bot" && m.buttons.length > 0)
        .map((m) => m.buttons.flat().map((b) => b.text)),
    ).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("takes Cancel off the /batch prompt once the lines are read", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/batch");
    const prompt = alice.last()!.messageId;
    expect(rowsOf(prompt)).toEqual([["Cancel"]]);
    await alice.send(`${BOB} 100k 1h\n${TEST_KEYS.carol.address} 60k 5m`);
    expect(rowsOf(prompt)).toEqual([]);
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("offers recent receivers in the question only when there are some", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    expect(alice.lastText()).toContain("like TXYZ… main wallet.\n");
    expect(alice.lastText()).not.toContain("recent receiver");
    await alice.send("/cancel");
    await h.flows.addressBook.remember(CHAT, BOB, Date.now());
    await alice.send("/order");
    expect(alice.lastText()).toContain("like TXYZ… main wallet, or tap a recent receiver.");
    expect(alice.lastText()).toContain("Recent receivers:");
  });

  it("gives the amount example in Russian number style", async () => {
    await h.linkChat(CHAT + 1);
    const ru = h.user(CHAT + 1, { languageCode: "ru" });
    await ru.send("/order");
    await ru.send(BOB);
    expect(ru.lastText()).toContain("например 100 тыс или 65 000.");
    expect(ru.lastText()).not.toContain("65,000");
  });
});
