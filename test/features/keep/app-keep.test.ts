/**
 * Keep-charged plans through the whole app (src/app.ts as wired), the fake
 * Bot API and the service simulator: a 1m plan buys one order per slot
 * (each slot's Idempotency-Key charged once) across a restart, its renewals
 * are a digest on the plan's card and never a message each, its daily cap
 * holds it exactly at the cap, a 402 pauses it until a deposit (one notice,
 * replying to the card), an undeliverable receiver stops it, and the opt-in
 * daily summary goes once per chat and day. The lead is set to buy the next
 * slot right after the current order is delivered, so a few slots take moments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/app.js";
import { sunToTrx } from "../../../src/shared/money.js";
import { RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";
import { debits, FAST_KEEP, linkedChat, planCardDone, slotPurchases, startPlan } from "./app-keep-steps.js";

const UNDELIVERABLE = "TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk";

/** Every slot bought once, slots 0..n-1 with no gap, and one debit per slot. */
async function expectOneOrderPerSlot(w: AppWorld, accountId: string): Promise<number> {
  // A slot bought just before the stop may still be on its way back: let its answer arrive.
  await waitFor(() => debits(w, accountId).length === [...slotPurchases(w).values()].reduce((a, b) => a + b, 0), "every debit answered");
  const bought = slotPurchases(w);
  const slots = [...bought.keys()].map((k) => Number(/-(\d+)$/.exec(k)![1])).sort((a, b) => a - b);
  expect([...bought.values()].every((n) => n === 1)).toBe(true);
  expect(slots).toEqual(slots.map((_, i) => i));
  expect(debits(w, accountId)).toHaveLength(slots.length);
  return slots.length;
}

describe("keep-charged plans in the app", { timeout: 60_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;
  let oneSlotSun: number;
  let app: App;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    app = await w.startApp(target, FAST_KEEP);
    const pricing = (await (await fetch(`${w.sim.baseUrl}/v1/public/pricing`)).json()) as { tiers: { durationSec: number; unitPriceSun: number }[] };
    oneSlotSun = 100_000 * pricing.tiers.find((t) => t.durationSec === 60)!.unitPriceSun;
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  /** Stopped from the /keep list (the card's own Stop is the digest test's). */
  async function stopPlan(chatId: number): Promise<void> {
    const list = await w.say(chatId, "/keep", (m) => m.text.includes("Your plans") && m.buttons.flat().some((b) => b.text === "⏹ Stop 1"));
    w.front.enqueue(w.tg.press(chatId, "⏹ Stop 1", { messageId: list.messageId }));
    await waitFor(() => w.textOf(chatId, list.messageId).includes("⏹ Stopped."), "the stopped plan");
  }

  it("takes a saved label, in any case, in place of the receiver", async () => {
    const chat = 9460;
    await linkedChat(w, chat, 100_000_000);
    await w.say(chat, `/addresses add ${RECEIVER} Shop Wallet`, (m) => m.text.includes("Saved: Shop Wallet"));
    const { text } = await w.say(chat, "/keep shop WALLET 100k 1m", (m) => m.text.includes("Keep charged"));
    expect(text).toContain(RECEIVER);
  });

  it("renews a 1m plan slot after slot, one order per slot, through a restart between slots", async () => {
    const chat = 7101;
    const account = await linkedChat(w, chat, 1_000_000_000);
    const { cardId } = await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => debits(w, account).length >= 1, "the first order", 45_000);
    // The next process takes over from the store, whatever slot the first one was in.
    await w.stopApp(app);
    app = await w.startApp(target, FAST_KEEP);
    await waitFor(() => debits(w, account).length >= 3, "three slots bought", 45_000);
    await stopPlan(chat);
    const slots = await expectOneOrderPerSlot(w, account);
    expect(slots).toBeGreaterThanOrEqual(3);
    // The restarted process goes on drawing the same card: every slot counted, the last one's delivery shown.
    const card = await planCardDone(w, chat, cardId, account);
    expect(card).toContain(`Orders placed: ${slots}`);
    expect(w.botTexts(chat, /^✅ Order [0-9a-f]{24} is fulfilled/)).toEqual([]);
  });

  it("stops buying exactly at the plan's daily cap", async () => {
    const chat = 7102;
    const account = await linkedChat(w, chat, 1_000_000_000);
    const { proposal } = await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m cap=${sunToTrx(2 * oneSlotSun)}`);
    // The proposal says what the cap really lets through: two of the day's 1,440 orders, then it waits for the next day.
    expect(proposal).toContain(
      `The cap of ${sunToTrx(2 * oneSlotSun)} TRX lets 2 of the 1,440 orders of a day through: at most ${sunToTrx(2 * oneSlotSun)} TRX per day, energy for 2 min of the day`,
    );
    await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.includes("reached its cap")), "the cap notice", 45_000);
    expect(debits(w, account).map((d) => d.amountSun)).toEqual([oneSlotSun, oneSlotSun]);
    await stopPlan(chat);
  });

  it("pauses on a 402 with the top-up advice and resumes once a deposit is credited", async () => {
    const chat = 7103;
    const account = await linkedChat(w, chat, oneSlotSun + oneSlotSun / 2);
    const { cardId } = await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m`);
    const paused = await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.includes("is paused: the balance")), "the pause notice", 45_000);
    expect(paused.text).toContain("Send at least 10 TRX");
    // The notice is what makes the phone ring, replying to the card; the card itself says why the plan waits.
    expect(paused.replyTo).toBe(cardId);
    await waitFor(() => w.textOf(chat, cardId).includes("Paused: the balance is too low"), "the paused card");
    expect(debits(w, account)).toHaveLength(1);
    w.sim.deposit(account, 20_000_000);
    await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.includes("Top-up credited") && m.text.includes("goes on")), "the resumed notice");
    await waitFor(() => debits(w, account).length >= 2, "the renewal after the top-up", 45_000);
    await stopPlan(chat);
    expect(w.tg.botMessages(chat).filter((m) => m.text.includes("is paused: the balance"))).toHaveLength(1);
    await planCardDone(w, chat, cardId, account);
    // Besides the proposal (now the card), the chat holds the link, the pause and resume notices and the lists it asked for.
    expect(w.botTexts(chat, /^✅ Order/)).toEqual([]);
  });

  it("draws a plan's renewals as a digest on its card: five renewals add no message", async () => {
    const chat = 7109;
    const account = await linkedChat(w, chat, 1_000_000_000);
    const { cardId } = await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => /Last order [0-9a-f]{24}: fulfilled/.test(w.textOf(chat, cardId)), "the first order delivered on the card", 45_000);
    const messagesBefore = w.tg.botMessages(chat).length;
    const slotsBefore = debits(w, account).length;
    await waitFor(() => debits(w, account).length >= slotsBefore + 5, "five renewals", 45_000);
    w.front.enqueue(w.tg.press(chat, "⏹ Stop", { messageId: cardId }));
    await waitFor(() => w.textOf(chat, cardId).includes("⏹ Stopped."), "the card of the stopped plan");
    const card = await planCardDone(w, chat, cardId, account);
    const bought = debits(w, account).length;
    expect(card).toContain(`Orders placed: ${bought}`);
    expect(card).toContain(`in total ${sunToTrx(bought * oneSlotSun)} TRX`);
    // The stopped card keeps only its Refresh.
    expect(
      w.tg
        .botMessages(chat)
        .find((m) => m.messageId === cardId)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Refresh"]);
    expect(w.tg.botMessages(chat)).toHaveLength(messagesBefore);
  });

  it("stops with the reason when the service refuses the receiver as undeliverable", async () => {
    const chat = 7104;
    const account = await linkedChat(w, chat, 1_000_000_000);
    w.sim.chain.setActivated(UNDELIVERABLE, false);
    await startPlan(w, chat, `/keep ${UNDELIVERABLE} 100k 1m`);
    const stopped = await waitFor(() => w.tg.botMessages(chat).find((m) => m.text.includes("cannot deliver energy")), "the stop notice");
    expect(stopped.text).toContain("order.receiver_undeliverable");
    expect(debits(w, account)).toHaveLength(0);
  });

  it("guides a new plan step by step: receiver, amount, tier button, no limits, then the priced proposal", async () => {
    const chat = 7105;
    await linkedChat(w, chat, 1_000_000_000);
    await w.say(chat, "/keep", (m) => m.text.includes("You have no plans"));
    const asked = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.startsWith("Who receives"));
    w.front.enqueue(w.tg.press(chat, "➕ New plan"));
    await asked;
    await w.say(chat, RECEIVER);
    const tiers = await w.say(chat, "100k", (m) => m.buttons.flat().some((b) => b.text.startsWith("1m")));
    const options = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.includes("Any limits?"));
    w.front.enqueue(w.tg.press(chat, /^1m/, { messageId: tiers.messageId }));
    await options;
    const proposal = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.includes("Keep charged"));
    w.front.enqueue(w.tg.press(chat, "Until I stop it, no limits"));
    const shown = await proposal;
    expect(shown.text).toContain(`100,000 energy for 1 min at a time to ${RECEIVER}`);
    expect(shown.text).toContain("Runs until you stop it.");
    expect(shown.buttons.flat().map((b) => b.text)).toEqual(["✅ Start", "Cancel"]);
    w.front.enqueue(w.tg.press(chat, "Cancel", { messageId: shown.messageId }));
    await waitFor(() => w.textOf(chat, shown.messageId).includes("not started"), "the dropped proposal");
  });

  it("proposes a plan for an order's receiver, amount and duration from the keep-order button", async () => {
    const chat = 7106;
    await linkedChat(w, chat, 1_000_000_000);
    const { orderId, cardId } = await w.placeOrder(chat);
    const proposal = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.includes("Keep charged"));
    w.front.enqueue(w.tg.rawCallback(chat, cardId, `keep-order:${orderId}`));
    expect((await proposal).text).toContain(`100,000 energy for 1 h at a time to ${RECEIVER}`);
  });
  it("stops the chat's plans at once on /freeze: no order is sent after the freeze is confirmed", async () => {
    const chat = 7107;
    const other = 7108;
    const account = await linkedChat(w, chat, 1_000_000_000);
    const otherAccount = await linkedChat(w, other, 1_000_000_000);
    await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => debits(w, account).length >= 2, "two slots bought", 45_000);
    const planKeys = new Set([...slotPurchases(w).keys()]);
    const prefix = /^(keep-.+-)\d+$/.exec([...planKeys][0]!)![1]!;
    const frozen = await w.say(chat, "/freeze", (m) => m.text.includes("Frozen."));
    // The freeze's own answer says the plans are stopped: no second message for it.
    expect(frozen.text).toContain("Plans that keep addresses charged are stopped.");
    // The freeze waits for a charge it let through: everything of this plan is answered by now.
    const frozenAt = w.sim.requests.length;
    const list = await w.say(chat, "/keep", (m) => m.text.includes("Your plans"));
    expect(list.text).toContain("Stopped: spending is frozen");
    // Plans go on being served meanwhile: another chat's plan buys three slots.
    await startPlan(w, other, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => debits(w, otherAccount).length >= 3, "the other chat's slots", 45_000);
    const afterFreeze = w.sim.requests.slice(frozenAt).filter((r) => r.method === "POST" && r.path === "/v1/orders" && r.idempotencyKey?.startsWith(prefix));
    expect(afterFreeze).toEqual([]);
    expect(w.tg.botMessages(chat).filter((m) => m.text.includes("is stopped: spending is frozen"))).toEqual([]);
    // While frozen, a new plan is refused at its Start button rather than left waiting to buy.
    await w.say(chat, `/keep ${RECEIVER} 100k 1m`, (m) => m.text.includes("Keep charged"));
    const refused = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.includes("is frozen, so no plan starts"));
    w.front.enqueue(w.tg.press(chat, "✅ Start"));
    // The refusal carries the button that resolves it.
    expect((await refused).buttons.flat().map((b) => b.text)).toEqual(["▶️ Unfreeze"]);
    expect((await w.say(chat, "/keep", (m) => m.text.includes("Your plans"))).text).not.toContain("2. ");
    await stopPlan(other);
  });
});
