/**
 * Sixty renewals of a 1-minute plan through the whole app, the strict fake Bot API and the
 * simulator: the chat gets no message for any of them. They are one card, the message the
 * proposal became at Start, edited with the digest (orders placed, the last order's status, the
 * spend). `npm test` runs the same with five renewals (test/features/keep/app-keep.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sunToTrx } from "../../../src/shared/money.js";
import { failOnLoggedErrors, RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";
import { debits, FAST_KEEP, linkedChat, planCardDone, startPlan } from "./app-keep-steps.js";

const RENEWALS = 60;

describe("a keep plan's renewals in the chat", () => {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    await w.startApp(target, FAST_KEEP);
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  failOnLoggedErrors(() => w?.logs);

  it(`adds no message for ${RENEWALS} renewals: the plan's card counts them`, { timeout: 300_000 }, async () => {
    const chat = 7401;
    const account = await linkedChat(w, chat, 100_000_000_000);
    const { cardId } = await startPlan(w, chat, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => /Last order [0-9a-f]{24}: fulfilled/.test(w.textOf(chat, cardId)), "the first order delivered on the card");
    const messagesBefore = w.tg.botMessages(chat).length;
    const ordersBefore = debits(w, account).length;
    await waitFor(() => debits(w, account).length >= ordersBefore + RENEWALS, `${RENEWALS} renewals`, 240_000);
    w.front.enqueue(w.tg.press(chat, "⏹ Stop", { messageId: cardId }));
    await waitFor(() => w.textOf(chat, cardId).includes("⏹ Stopped."), "the card of the stopped plan");
    const card = await planCardDone(w, chat, cardId, account);
    const charged = debits(w, account);
    expect(card).toContain(`Orders placed: ${charged.length}`);
    expect(card).toContain(`in total ${sunToTrx(charged.reduce((sum, d) => sum + d.amountSun, 0))} TRX`);
    expect(w.tg.botMessages(chat)).toHaveLength(messagesBefore);
  });
});
