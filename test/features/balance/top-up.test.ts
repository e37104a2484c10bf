/**
 * Top-up advice and the balance watch, through the bot: every "top up" says
 * how much to send (never under the 10 TRX minimum deposit, exact to the sun)
 * with the deposit address and its QR code; a short quote offers Top up, not
 * a Confirm certain to fail; the credited top-up is announced once, in a new
 * message whose button sends the same quote under the same key.
 */
import { describe, expect, it } from "vitest";
import { signTrc20Transfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { closeChecked, debitsOf, startOrderHarness, type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5301;
const BOB = TEST_KEYS.bob.address;
const DEPOSIT = TEST_KEYS.erin.address;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");
const credited = (texts: string[]) => texts.filter((t) => t.startsWith("💰 Top-up credited"));
/** Every "credited" message ever sent to the chat (a pressed one becomes the order's card). */
const creditedSends = (harness: OrderHarness, chatId: number) =>
  harness.tg.callsOf("sendMessage").filter((c) => Number(c.params["chat_id"]) === chatId && String(c.params["text"]).startsWith("💰 Top-up credited"));
/** Stored watches, whatever their clock says. */
async function storedWatches(harness: OrderHarness): Promise<number> {
  let n = 0;
  for await (const _ of harness.deps.store.namespace("balance-watches").entries()) n += 1;
  return n;
}

describe("a quote the balance cannot cover", () => {
  it("asks for the 10 TRX minimum when less is missing, with Top up instead of Confirm, and the QR code behind Top up", async () => {
    await h.linkChat(CHAT, { balanceSun: 10_000_000, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    const quote = alice.last()!;
    expect(quote.text).toContain("Balance: 10 TRX, which is 5 TRX short.");
    expect(quote.text).toContain(`Send at least 10 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(quote.text).toContain("Transfers under 10 TRX are not credited automatically, so send at least 10 TRX even though only 5 TRX are missing");
    expect(quote.rawText).toContain(`<code>${DEPOSIT}</code>`);
    expect(alice.lastButtons()).toEqual([["💳 Top up", "Cancel"]]);
    await alice.press("💳 Top up");
    const photo = h.tg.botMessages(CHAT).at(-1)!;
    expect(photo.photo?.bytes?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(photo.text).toContain(`Send at least 10 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(photo.text).toContain("I will tell you here as soon as it arrives.");
    expect(posts()).toHaveLength(0);
  });

  it("asks for the exact shortfall when more than 10 TRX is missing, for a batch too", async () => {
    await h.linkChat(CHAT, { balanceSun: 1_500_001, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    expect(alice.lastText()).toContain(`Send at least 13.499999 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(alice.lastText()).not.toContain("not credited automatically");
    expect(alice.lastButtons()).toEqual([["💳 Top up", "Cancel"]]);
    await alice.send("/batch");
    await alice.send(`${BOB} 100k 1h\n${TEST_KEYS.carol.address} 100k 1h`);
    expect(alice.lastText()).toContain("Total: 30 TRX");
    expect(alice.lastText()).toContain("Send at least 28.499999 TRX");
    expect(alice.lastButtons()).toEqual([["💳 Top up", "Cancel"]]);
  });

  it("announces the credited top-up once, in a new message whose Confirm charges exactly once under the quote's key", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 10_000_000, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    const quoteMessage = alice.last()!.messageId;
    // 5 TRX would cover the shortfall but is below the minimum deposit: nothing is credited, nothing announced.
    expect(h.sim.deposit(account.accountId, 5_000_000)).toBe(false);
    expect(h.sim.deposit(account.accountId, 10_000_000)).toBe(true);
    await h.until(() => credited(alice.botTexts()).length > 0);
    const announcement = alice.last()!;
    expect(announcement.messageId).not.toBe(quoteMessage);
    expect(announcement.text).toBe("💰 Top-up credited: your balance is 20 TRX, enough for this order (15 TRX). Tap Confirm to place it.");
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    const confirm = await alice.press("✅ Confirm");
    expect(h.textOf(CHAT, h.pressedMessage(confirm))).toMatch(/^Order [0-9a-f]{24}\nStatus: pending/);
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000]);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.idempotencyKey).toMatch(new RegExp(`^tg-${CHAT}-`));
    await h.until(async () => (await storedWatches(h)) === 0 && (await h.pushSize()) === 0);
    expect(creditedSends(h, CHAT)).toHaveLength(1);
  });

  it("stops watching a cancelled quote", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 1_000_000, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    expect(await storedWatches(h)).toBe(1);
    await alice.press("Cancel");
    expect(alice.lastText()).toContain("Quote cancelled");
    expect(await storedWatches(h)).toBe(0);
    h.sim.credit(account.accountId, 50_000_000);
    // Nothing left that could announce: the only watch is gone and no message is queued.
    expect(await h.pushSize()).toBe(0);
    expect(credited(alice.botTexts())).toHaveLength(0);
  });

  it("keeps watching across a restart and announces once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 1_000_000, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    await h.restart();
    expect(await storedWatches(h)).toBe(1);
    h.sim.credit(account.accountId, 20_000_000);
    await h.until(() => credited(alice.botTexts()).length > 0);
    await h.until(async () => (await storedWatches(h)) === 0 && (await h.pushSize()) === 0);
    expect(creditedSends(h, CHAT)).toHaveLength(1);
    await alice.press("✅ Confirm");
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000]);
  });
});

describe("in Russian and Chinese", () => {
  it("gives the advice, the button and the credited message in the user's language", async () => {
    for (const [chatId, languageCode, send, button, creditedText] of [
      [5311, "ru", "Отправьте не меньше <b>10 TRX</b>", "💳 Пополнить", "💰 Пополнение зачислено"],
      [5312, "zh", "请向您的充值地址转入至少 <b>10 TRX</b>", "💳 充值", "💰 充值已到账"],
    ] as const) {
      const account = await h.linkChat(chatId, { balanceSun: 10_000_000, depositAddress: DEPOSIT });
      const user = h.user(chatId, { languageCode });
      await user.send(`/order ${BOB} 100k 1h`);
      expect(user.last()!.rawText).toContain(send);
      expect(user.lastButtons()[0]![0]).toBe(button);
      h.sim.credit(account.accountId, 10_000_000);
      await h.until(() => user.lastText().startsWith(creditedText));
    }
  });
});

describe("a 402", () => {
  it("says how much to send, offers Top up, and after the deposit says credited with a Retry that charges once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 22_000_000, depositAddress: DEPOSIT });
    h.sim.control.pauseLifecycles(true);
    const alice = h.user(CHAT);
    // Two quotes the balance covers one at a time: the second is refused once the first is paid.
    await alice.send(`/order ${BOB} 100k 1h`);
    const first = alice.last()!.messageId;
    await alice.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
    await alice.press("✅ Confirm", { messageId: first });
    await alice.press("✅ Confirm");
    const refusal = alice.lastText();
    expect(refusal).toContain("Required: 15 TRX\nAvailable: 7 TRX\nShort by: 8 TRX");
    expect(refusal).toContain(`Send at least 10 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(refusal).toContain("only 8 TRX are missing");
    expect(alice.lastButtons()).toEqual([["💳 Top up"], ["🔁 Retry", "Cancel"]]);
    const refusedKey = posts().at(-1)!.idempotencyKey;
    h.sim.deposit(account.accountId, 10_000_000);
    await h.until(() => credited(alice.botTexts()).length > 0);
    expect(alice.lastText()).toBe(
      "💰 Top-up credited: your balance is 17 TRX, enough for this order (15 TRX). Tap Retry: it sends the same order with the same key, so you are never charged twice.",
    );
    expect(alice.lastButtons()).toEqual([["🔁 Retry", "Cancel"]]);
    const retry = await alice.press("🔁 Retry");
    expect(h.textOf(CHAT, h.pressedMessage(retry))).toMatch(/^Order [0-9a-f]{24}/);
    expect(debitsOf(h, account.accountId)).toEqual([15_000_000, 15_000_000]);
    expect(posts().filter((p) => p.idempotencyKey === refusedKey)).toHaveLength(2);
    await h.until(async () => (await storedWatches(h)) === 0 && (await h.pushSize()) === 0);
    expect(creditedSends(h, CHAT)).toHaveLength(1);
  });
});

describe("a broadcast refused for its fee (402)", () => {
  it("says how much to send, offers Top up, and after the deposit says credited with a Retry that submits once", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 5_000_000, depositAddress: DEPOSIT });
    h.sim.control.pauseLifecycles(true);
    const user = h.user(CHAT);
    const tx = signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: BOB, amountAtomic: 1_000_000n, expirationMs: Date.now() + 600_000 });
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    await user.press("✅ Confirm");
    const refusal = user.lastText();
    expect(refusal).toContain("13 TRX are needed");
    expect(refusal).toContain(`Send at least 10 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(refusal).toContain("only 8 TRX are missing");
    expect(user.lastButtons()).toEqual([["💳 Top up"], ["🔁 Retry", "Cancel"]]);
    await user.press("💳 Top up");
    expect(h.tg.botMessages(CHAT).at(-1)!.photo?.bytes?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    h.sim.deposit(account.accountId, 10_000_000);
    await h.until(() => credited(user.botTexts()).length > 0);
    expect(user.lastText()).toContain("enough for this broadcast (13 TRX)");
    expect(user.lastButtons()).toEqual([["🔁 Retry", "Cancel"]]);
    const retry = await user.press("🔁 Retry");
    expect(h.textOf(CHAT, h.pressedMessage(retry))).toMatch(/^Broadcast [0-9a-f]{24}/);
    expect(debitsOf(h, account.accountId)).toEqual([13_000_000]);
    await h.until(async () => (await storedWatches(h)) === 0 && (await h.pushSize()) === 0);
    expect(creditedSends(h, CHAT)).toHaveLength(1);
  });
});

describe("/balance", () => {
  it("sizes the advice for a waiting quote, and names the minimum otherwise", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 1_500_000, depositAddress: DEPOSIT });
    const alice = h.user(CHAT);
    await alice.send("/balance");
    const plain = h.tg.botMessages(CHAT).at(-1)!.text;
    expect(plain).toContain("Send at least 10 TRX per transfer: smaller deposits are not credited automatically.");
    expect(h.tg.botMessages(CHAT).at(-1)!.photo?.bytes?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.send("/balance");
    const sized = h.tg.botMessages(CHAT).at(-1)!.text;
    expect(sized).toContain(DEPOSIT);
    expect(sized).toContain("A waiting confirmation needs 13.5 TRX more: send at least 13.5 TRX (deposits below 10 TRX are not credited automatically).");
    expect(h.tg.botMessages(CHAT).at(-1)!.photo).toBeDefined();
    expect(account.accountId).toBeTruthy();
  });
});

describe("inline quotes", () => {
  it("tell a linked user short of money how much to send, privately, with a button into the chat that shows the address and QR", async () => {
    await h.linkChat(CHAT, { balanceSun: 1_000_000, depositAddress: DEPOSIT });
    const update = h.tg.inlineQuery(CHAT, "100k");
    await h.send(update);
    const answer = h.tg.answerOf(update)!;
    const results = answer["results"] as { id: string; description: string; input_message_content: { message_text: string } }[];
    const oneMinute = results.find((r) => r.id === "q_100000_60")!;
    const oneHour = results.find((r) => r.id === "q_100000_3600")!;
    // 10 TRX needed, 9 missing: the minimum deposit. 15 needed, 14 missing: exactly that.
    expect(oneMinute.description).toBe("Your balance is 1 TRX: top up at least 10 TRX first");
    expect(oneHour.description).toBe("Your balance is 1 TRX: top up at least 14 TRX first");
    for (const r of results) expect(r.input_message_content.message_text).not.toContain("balance");
    expect(answer["button"]).toEqual({ text: "💳 Top up at least 14 TRX", start_parameter: "topup_15000000" });
    const alice = h.user(CHAT);
    const before = h.tg.botMessages(CHAT).length;
    await alice.send("/start topup_15000000");
    // One message: the QR code, with what to send as its caption and the balance card's buttons.
    expect(h.tg.botMessages(CHAT).length - before).toBe(1);
    const card = h.tg.botMessages(CHAT).at(-1)!;
    expect(card.text).toContain(`Send at least 14 TRX to your deposit address (tap to copy):\n${DEPOSIT}`);
    expect(card.photo?.bytes?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(card.buttons.flat().map((b) => b.text)).toContain("🔄 Refresh");
  });
});

describe("a quote that expires", () => {
  it("ends its watch without a word", async () => {
    let offsetMs = 0;
    const clocked = await startOrderHarness({ now: () => Date.now() + offsetMs });
    try {
      const account = await clocked.linkChat(CHAT, { balanceSun: 1_000_000, depositAddress: DEPOSIT });
      const alice = clocked.user(CHAT);
      await alice.send(`/order ${BOB} 100k 1h`);
      expect(await storedWatches(clocked)).toBe(1);
      offsetMs = 11 * 60_000;
      clocked.sim.credit(account.accountId, 50_000_000);
      await clocked.until(async () => (await storedWatches(clocked)) === 0);
      expect(await clocked.pushSize()).toBe(0);
      expect(credited(alice.botTexts())).toHaveLength(0);
    } finally {
      await closeChecked(clocked);
    }
  });
});
