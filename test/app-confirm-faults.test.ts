/**
 * Charged means tracked, through the whole app: whatever Telegram does
 * around a Confirm (a 429 on the card edit longer than an answer waits out,
 * MAX_PACED_RETRY_AFTER_SECONDS; an answer lost after it was
 * applied), an order or a broadcast the service accepted is announced to its
 * final status, once, and charged once (the simulator's ledger). The storms
 * (every answer lost, 5xx on every message) are in app-confirm-storms.slow.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signTrxTransfer, TEST_KEYS } from "../testkit/tron-sign.js";
import { waitFor, type AppWorld } from "./app-harness.js";
import { useConfirmFaultsWorld } from "./confirm-faults-world.js";

const CHAT = 5151;
const f = useConfirmFaultsWorld(CHAT);
let w: AppWorld;
beforeAll(() => {
  w = f.w;
});
const { debits, confirmedNotices, confirmOrderWith, expectOrderAnnounced } = f;

describe("Telegram faults around an order's Confirm", () => {
  it("announces the order as fulfilled when Telegram answers the card edit with 429 retry_after 90, longer than an answer waits", async () => {
    const { orderId, cardId } = await confirmOrderWith(() =>
      w.tg.injectFault({ method: "editMessageText", kind: "refuse", code: 429, description: "Too Many Requests: retry after 90", retryAfter: 90 }),
    );
    await expectOrderAnnounced(orderId, cardId);
    expect(w.tg.failedCalls().filter((c) => c.errorCode === 429)).toHaveLength(1);
  });

  it("announces the order when the answer to the button is lost after delivery and the retry is 'query is too old'", async () => {
    const { orderId, cardId } = await confirmOrderWith(() => w.tg.injectFault({ method: "answerCallbackQuery", kind: "lose_answer" }));
    await expectOrderAnnounced(orderId, cardId);
    expect(w.tg.calls.some((c) => c.method === "answerCallbackQuery" && c.answerLost)).toBe(true);
  });

  it("announces the order when both the answer and the edit are refused", async () => {
    const { orderId, cardId } = await confirmOrderWith(() => {
      w.tg.injectFault({
        method: "answerCallbackQuery",
        kind: "refuse",
        code: 400,
        description: "Bad Request: query is too old and response timeout expired or query ID is invalid",
      });
      w.tg.injectFault({ method: "editMessageText", kind: "refuse", code: 429, description: "Too Many Requests: retry after 90", retryAfter: 90 });
    });
    await expectOrderAnnounced(orderId, cardId);
  });

  it("says 'already placed' to a second tap on a quote whose card could not be drawn, and charges once", async () => {
    w.sim.control.pauseLifecycles(true);
    const { orderId, cardId } = await confirmOrderWith(() =>
      w.tg.injectFault({ method: "editMessageText", kind: "refuse", code: 429, description: "Too Many Requests: retry after 90", retryAfter: 90 }),
    );
    // The tracker draws the card through the push queue; a tap before that meets the stored outcome.
    const second = w.tg.rawCallback(CHAT, cardId, lastConfirmData(cardId));
    w.front.enqueue(second);
    await waitFor(() => w.tg.answerOf(second) !== undefined, "the answer to the second tap");
    expect(String(w.tg.answerOf(second)?.["text"])).toMatch(/already placed/i);
    w.sim.control.pauseLifecycles(false);
    await expectOrderAnnounced(orderId, cardId);
  });
});

/** The callback data of the Confirm button as first drawn on the quote message. */
function lastConfirmData(messageId: number): string {
  const sent = w.tg.calls.findLast((c) => c.method === "sendMessage" && JSON.stringify(c.params).includes("Your quote"));
  const markup = (typeof sent?.params["reply_markup"] === "string" ? JSON.parse(sent.params["reply_markup"]) : sent?.params["reply_markup"]) as
    { inline_keyboard: { text: string; callback_data?: string }[][] } | undefined;
  const data = markup?.inline_keyboard.flat().find((b) => b.text === "✅ Confirm")?.callback_data;
  if (!data) throw new Error(`no Confirm button was drawn for message ${messageId}`);
  return data;
}

describe("Telegram faults around a broadcast's Confirm", () => {
  const tx = () =>
    signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_000_000, expirationMs: Date.now() + 600_000 });

  async function confirmBroadcastWith(arm: () => void): Promise<{ broadcastId: string; cardId: number }> {
    const before = debits().length;
    const summary = await w.say(CHAT, `/broadcast ${JSON.stringify(tx())}`, (m) => m.text.includes("Check before sending"));
    arm();
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: summary.messageId }));
    const debit = await waitFor(() => debits().length > before && debits().at(-1), "the service charging the broadcast fee");
    return { broadcastId: debit.ref!, cardId: summary.messageId };
  }

  it("announces the broadcast as confirmed when the card edit after Confirm gets 429 retry_after 90, longer than an answer waits", async () => {
    const { broadcastId, cardId } = await confirmBroadcastWith(() =>
      w.tg.injectFault({ method: "editMessageText", kind: "refuse", code: 429, description: "Too Many Requests: retry after 90", retryAfter: 90 }),
    );
    await waitFor(() => confirmedNotices(broadcastId).length > 0, "the confirmed notification");
    await waitFor(() => w.textOf(CHAT, cardId).startsWith(`Broadcast ${broadcastId}`), "the summary turned into the broadcast's card");
    expect(confirmedNotices(broadcastId)).toHaveLength(1);
    expect(debits().filter((d) => d.ref === broadcastId)).toHaveLength(1);
  });

  it("announces the broadcast when the answer to Confirm is lost", async () => {
    const { broadcastId, cardId } = await confirmBroadcastWith(() => w.tg.injectFault({ method: "answerCallbackQuery", kind: "lose_answer" }));
    // The retried answer waits out auto-retry's backoff: by then the card itself may be drawn as confirmed.
    await waitFor(
      () => w.textOf(CHAT, cardId).startsWith(`Broadcast ${broadcastId}`) && w.textOf(CHAT, cardId).includes("Status: confirmed"),
      "the card showing confirmed",
    );
    expect(confirmedNotices(broadcastId).length).toBeLessThanOrEqual(1);
    expect(debits().filter((d) => d.ref === broadcastId)).toHaveLength(1);
  });

  // A broadcast whose answer the service lost is in app-unknown-outcome.test.ts.

  it("serves HTTP on its own port all along", () => {
    expect(f.app.httpPort).toBeGreaterThan(0);
  });
});
