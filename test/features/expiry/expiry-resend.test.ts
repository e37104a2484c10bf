/**
 * Resend after a failed broadcast (docs/expiry.md, API section 3 rule 2):
 * offered while the signed transaction has at least 75 s left, it sends the
 * same transaction again, is charged as the service charges, and a double
 * tap sends once; after `expired` the chat is told to sign a new one.
 */
import { describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5501;
const { bob, carol } = TEST_KEYS;
let h: OrderHarness;
/** Added to the bot's clock (not the simulator's): lets a press come "later" without waiting. */
let skewMs = 0;

useOrderHarness((started) => ((h = started), (skewMs = 0)), { now: () => Date.now() + skewMs });

const trx = (leftMs = 600_000) => signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: Date.now() + leftMs });
const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts");
const answers = () => h.tg.callsOf("answerCallbackQuery").map((c) => (typeof c.params["text"] === "string" ? c.params["text"] : ""));

/** Links, submits `tx` with the given outcome and waits for the final notice starting with `mark` and the card's final buttons. */
async function submitted(tx: ReturnType<typeof trx>, outcome: "failed" | "expired", mark: string) {
  const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
  const user = h.user(CHAT);
  h.sim.control.setBroadcastOutcome(tx.txID, outcome, outcome === "failed" ? "node_rejected" : undefined);
  await user.send(`/broadcast ${JSON.stringify(tx)}`);
  const confirm = await user.press("✅ Confirm");
  await h.until(() => user.botTexts().some((t) => t.startsWith(mark)));
  const cardId = h.pressedMessage(confirm)!;
  // The notice goes first; the card's edit to its end follows.
  await h.until(() => h.tg.botMessages(CHAT).some((m) => m.messageId === cardId && m.buttons.flat().some((b) => b.text === "🔄 Track")));
  return { account, user, cardId };
}

describe("Resend after a failed broadcast", () => {
  it("sends the same signed transaction again once, however often it is tapped, charged like a new broadcast", async () => {
    const tx = trx();
    const { account, user, cardId } = await submitted(tx, "failed", "❌ Broadcast");
    const failedId = /Broadcast ([0-9a-f]{24})/.exec(user.lastText())![1]!;
    // The notice replies to the card and leaves Track, Resend and Explorer to it.
    const notice = user.last()!;
    expect(notice.replyTo).toBe(cardId);
    expect(notice.buttons).toEqual([]);
    expect(h.textOf(CHAT, cardId)).toMatch(/can be sent again with Resend until (?:[A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2} UTC/);
    expect(
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === cardId)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "📤 Resend", "🔎 Explorer"]);
    await user.send(`/track ${failedId}`);
    expect(user.lastText()).toMatch(/can be sent again with Resend until/);
    expect(user.lastButtons()).toEqual([["🔄 Track", "📤 Resend"], ["🔎 Explorer"]]);

    // This time it lands; two taps arrive together.
    h.sim.control.setBroadcastOutcome(tx.txID, "confirmed");
    await Promise.all([user.press("📤 Resend", { messageId: cardId }), user.press("📤 Resend", { messageId: cardId })]);
    expect(posts()).toHaveLength(2);
    const resent = user.botTexts().find((t) => t.startsWith("📤 Sent again"))!;
    expect(resent).toContain(`Transaction id: ${tx.txID}`);
    const newId = /broadcast ([0-9a-f]{24})/.exec(resent)![1]!;
    expect(newId).not.toBe(failedId);
    expect(answers()).toContain(`This transaction was already sent again: broadcast ${newId}.`);
    await h.until(() => user.botTexts().some((t) => t.startsWith(`✅ Broadcast ${newId}`)));

    // The service saw the very same transaction, and charged it as it charges: debit, refund, debit.
    const read = await h.deps.service.getBroadcast(account.apiKey, newId);
    expect(read.txId).toBe(tx.txID);
    const ledger = h.sim.ledger(account.accountId).filter((e) => e.ref === failedId || e.ref === newId);
    expect(ledger.map((e) => [e.kind, e.ref])).toEqual([
      ["debit", failedId],
      ["refund", failedId],
      ["debit", newId],
    ]);

    // The card's button went with the first tap; a later tap on the /track card's sends nothing more.
    expect(h.tg.view(CHAT).find((m) => m.messageId === cardId)?.buttons).toEqual([]);
    await user.press("📤 Resend");
    expect(posts()).toHaveLength(2);
    expect(answers().filter((a) => a.startsWith("This transaction was already sent again"))).toHaveLength(2);
  });

  it("after a Resend's lost answer, says it may have been accepted, then that message becomes the new broadcast's card, charged once", async () => {
    const tx = trx();
    const { account, user, cardId } = await submitted(tx, "failed", "❌ Broadcast");
    const failedId = /Broadcast ([0-9a-f]{24})/.exec(user.lastText())![1]!;
    h.sim.control.setBroadcastOutcome(tx.txID, "confirmed");
    // Accepted by the service, then the connection is reset: the same transaction is sent again to learn it.
    h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", times: 1, kind: "reset", afterProcessing: true });
    await user.press("📤 Resend", { messageId: cardId });
    const checking = h.tg.callsOf("sendMessage").find((c) => String(c.params["text"]).includes("may have been accepted"));
    expect(String(checking?.params["text"])).toContain("Do not sign or send this transfer again");
    const newId = h.sim
      .ledger(account.accountId)
      .filter((e) => e.kind === "debit" && e.ref !== failedId)
      .map((e) => e.ref);
    expect(newId).toHaveLength(1);
    await h.until(() => user.botTexts().some((t) => t.startsWith(`📤 Sent again as broadcast ${newId[0]}`)));
    // The "checking" message itself became the card: none still says it.
    expect(user.botTexts().some((t) => t.includes("may have been accepted"))).toBe(false);
    expect(posts()).toHaveLength(3);
    expect(user.botTexts().filter((t) => /try again/i.test(t))).toEqual([]);
  });

  it("asks the chat's limits first: a frozen chat's Resend sends nothing and says why", async () => {
    const tx = trx();
    const { user, cardId } = await submitted(tx, "failed", "❌ Broadcast");
    await user.send("/freeze");
    await user.press("📤 Resend", { messageId: cardId });
    expect(user.lastText()).toContain("spending from this account is frozen");
    expect(posts()).toHaveLength(1);
    // The button stays: after Unfreeze the same press goes through.
    expect(
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === cardId)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "📤 Resend", "🔎 Explorer"]);
  });

  it("asks for a freshly signed transaction when the press comes with under 75 s left", async () => {
    const tx = trx();
    const { user, cardId } = await submitted(tx, "failed", "❌ Broadcast");
    skewMs = 600_000 - 74_000;
    await user.press("📤 Resend", { messageId: cardId });
    expect(user.lastText()).toContain("too close to its expiration (under 75 seconds left)");
    expect(posts()).toHaveLength(1);
  });

  it("offers no Resend after expired and says a freshly signed transaction is needed", async () => {
    const tx = trx();
    const { user, cardId } = await submitted(tx, "expired", "⌛ Broadcast");
    expect(user.last()!.replyTo).toBe(cardId);
    expect(user.lastButtons()).toEqual([]);
    expect(user.lastText()).toContain("sign a new one with about 600 seconds of expiration");
    await h.until(() => /A freshly signed transaction is needed/.test(h.textOf(CHAT, cardId)));
    expect(
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === cardId)
        ?.buttons.flat()
        .map((b) => b.text),
    ).toEqual(["🔄 Track", "🔎 Explorer"]);
  });
});
