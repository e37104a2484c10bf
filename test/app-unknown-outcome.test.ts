/**
 * A Confirm whose answer was lost, through the whole app: the service may
 * have accepted it, so the chat is told exactly that ("do not sign it
 * again") on the same card, and the bot learns the real outcome itself by
 * sending the same signed transaction (deduplicated by txId) or the same
 * order key again. The card becomes the tracked broadcast or order, or the
 * service's real refusal; never "try again"; charged once. A restart while
 * the outcome is still unknown resolves it the same way, on the same card.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../testkit/tron-sign.js";
import { failOnLoggedErrors, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";
import type { App } from "../src/app.js";

const CHAT = 6161;
let target: StoreTarget;
let w: AppWorld;
let app: App;

beforeAll(async () => {
  target = sqliteTarget();
  w = await startAppWorld();
  app = await w.startApp(target.url);
  await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
});
afterAll(async () => {
  await w?.close();
  await target?.cleanup();
});
afterEach(() => {
  w.tg.clearFaults();
  w.sim.faults.clear();
});
failOnLoggedErrors(() => w?.logs);

const tx = () =>
  signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });
const debits = () => w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit");
const broadcastPosts = () => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts").length;

/** Every text the bot sent or drew on a message in the chat since call `from`, edits included. */
function textsSince(from: number): string[] {
  return w.tg.calls
    .slice(from)
    .filter((c) => (c.method === "sendMessage" || c.method === "editMessageText") && Number(c.params["chat_id"]) === CHAT)
    .map((c) => String(c.params["text"]));
}

/** The texts drawn on one message since call `from`, in order. */
function cardTextsSince(from: number, messageId: number): string[] {
  return w.tg.calls
    .slice(from)
    .filter((c) => c.method === "editMessageText" && Number(c.params["chat_id"]) === CHAT && Number(c.params["message_id"]) === messageId)
    .map((c) => String(c.params["text"]));
}

async function summaryOf(signed: ReturnType<typeof tx>) {
  return w.say(CHAT, `/broadcast ${JSON.stringify(signed)}`, (m) => m.text.includes("Check before sending"));
}

describe("a broadcast whose answer was lost", () => {
  it(
    "says it may have been accepted, then the same card becomes the tracked broadcast: one broadcast, charged once, no 'try again'",
    { timeout: 60_000 },
    async () => {
      const signed = tx();
      const summary = await summaryOf(signed);
      const from = w.tg.calls.length;
      const [before, postsBefore] = [debits().length, broadcastPosts()];
      // Accepted by the service, then the connection is reset: the bot cannot know it was accepted.
      w.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", times: 1, kind: "reset", afterProcessing: true });
      w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: summary.messageId }));
      const debit = await waitFor(() => debits().length > before && debits().at(-1), "the fee of the accepted broadcast");
      const id = debit.ref!;
      await waitFor(
        () => w.textOf(CHAT, summary.messageId).startsWith(`Broadcast ${id}`) && w.textOf(CHAT, summary.messageId).includes("Status: confirmed"),
        "the card showing the broadcast confirmed",
      );
      const drawn = cardTextsSince(from, summary.messageId);
      expect(drawn[0]).toContain("may have been accepted");
      expect(drawn[0]).toContain("Do not sign or send this transfer again");
      expect(drawn[0]).toContain(signed.txID);
      // Confirmed before the check's answer arrived: the card itself says so, and no second notice repeats it.
      expect(w.botTexts(CHAT, new RegExp(`^✅ Broadcast ${id} is confirmed`)).length).toBeLessThanOrEqual(1);
      // The check sent the same transaction again; the service deduplicated it: one broadcast, one fee.
      expect(broadcastPosts() - postsBefore).toBe(2);
      expect(
        debits()
          .slice(before)
          .map((d) => d.ref),
      ).toEqual([id]);
      expect(textsSince(from).filter((t) => /try again/i.test(t))).toEqual([]);
      // The transaction is in the chat's history under that one broadcast.
      const orders = await w.say(CHAT, "/orders", (m) => m.text.includes(id));
      expect(orders.text).toContain(id);
    },
  );

  it("tells the service's real refusal on the same card when the check finds it was never accepted, charging nothing", { timeout: 60_000 }, async () => {
    const signed = tx();
    const summary = await summaryOf(signed);
    const from = w.tg.calls.length;
    const before = debits().length;
    // Reset before the service read it, then the same transaction is refused on its own merits.
    w.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", times: 1, kind: "reset" });
    w.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", times: 1, kind: "status", status: 422, code: "broadcast.tx_would_revert" });
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: summary.messageId }));
    await waitFor(() => w.textOf(CHAT, summary.messageId).includes("was not accepted"), "the refusal on the card");
    const card = w.textOf(CHAT, summary.messageId);
    expect(card).toContain(`Transaction ${signed.txID} was not accepted, and nothing was charged for it`);
    expect(cardTextsSince(from, summary.messageId)[0]).toContain("may have been accepted");
    expect(debits().length).toBe(before);
    expect(textsSince(from).filter((t) => /try again/i.test(t))).toEqual([]);
  });

  it("is resolved after a restart on the same card when the checks never got an answer", { timeout: 90_000 }, async () => {
    const signed = tx();
    const summary = await summaryOf(signed);
    const from = w.tg.calls.length;
    const before = debits().length;
    // Every answer lost (applied the first time, deduplicated after): the checks end without knowing.
    w.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "reset", afterProcessing: true });
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: summary.messageId }));
    await waitFor(
      () => w.textOf(CHAT, summary.messageId).includes("I keep checking in the background"),
      "the card saying the outcome is still unknown",
      40_000,
    );
    const debit = await waitFor(() => debits().length > before && debits().at(-1), "the fee of the accepted broadcast");
    await w.stopApp(app);
    w.sim.faults.clear();
    app = await w.startApp(target.url);
    const id = debit.ref!;
    await waitFor(() => w.textOf(CHAT, summary.messageId).startsWith(`Broadcast ${id}`), "the card turned into the broadcast after the restart");
    await waitFor(() => w.botTexts(CHAT, new RegExp(`^✅ Broadcast ${id} is confirmed`)).length > 0, "the confirmed notification");
    expect(
      debits()
        .slice(before)
        .map((d) => d.ref),
    ).toEqual([id]);
    expect(textsSince(from).filter((t) => /try again/i.test(t))).toEqual([]);
  });
});

describe("an order whose answer was lost", () => {
  it("says it may have been placed, then the same card becomes the order, charged once, no 'try again'", { timeout: 60_000 }, async () => {
    const quote = await w.say(CHAT, `/order ${TEST_KEYS.carol.address} 100k 1h`, (m) => m.text.includes("Your quote"));
    const from = w.tg.calls.length;
    const before = debits().length;
    // Every attempt of the client's first send is applied (the first) or replayed, and its answer lost.
    w.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true, times: 4 });
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: quote.messageId }));
    const card = await waitFor(() => /^Order ([0-9a-f]{24})/.exec(w.textOf(CHAT, quote.messageId)) ?? undefined, "the order card");
    expect(cardTextsSince(from, quote.messageId)[0]).toContain("may have been placed");
    await waitFor(() => w.botTexts(CHAT, new RegExp(`^✅ Order ${card[1]} is fulfilled`)).length > 0, "the fulfilled notification", 40_000);
    expect(
      debits()
        .slice(before)
        .map((d) => d.ref),
    ).toEqual([card[1]]);
    expect(textsSince(from).filter((t) => /try again/i.test(t))).toEqual([]);
  });
});
