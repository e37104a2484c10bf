/**
 * Two bot processes on one Redis: one takes Telegram's updates (polling), the
 * other is a worker. A batch of 5 orders confirmed through the first is
 * tracked by it; it is killed with -9 while the orders are pending, and the
 * worker takes the batch over: each order is charged once, the batch card
 * reaches "all fulfilled", and the one final message comes once. The leases
 * are shortened (TRACKING_LEASE_TTL_MS / TRACKING_SCAN_MS) so the run stays short.
 */
import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { waitFor } from "../app-harness.js";
import { placedQuote, useFrontAndWorker, type BotProcess } from "./kill-world.js";

const redisUrl = process.env["TEST_REDIS_URL"];
const CHAT = 6363;
const RECEIVERS = Object.values(TEST_KEYS)
  .slice(0, 5)
  .map((k) => k.address);
const FINAL = /All 5 orders of the batch are fulfilled/;

describe.skipIf(!redisUrl)("a batch taken over from a killed process on Redis", () => {
  const world = useFrontAndWorker(redisUrl!, CHAT, { TRACKING_LEASE_TTL_MS: "3000", TRACKING_SCAN_MS: "1000" });

  it("charges each order once, completes the batch card and sends the final message once, from the survivor", { timeout: 180_000 }, async () => {
    const { w, front, worker } = world;
    expect(new Set(RECEIVERS).size).toBe(5);
    w.sim.control.pauseLifecycles(true);
    const before = w.debits().length;
    await w.say(CHAT, "/order", (m) => m.text.includes("Who receives the energy"));
    const lines = RECEIVERS.map((address) => `${address} 100k 1h`).join("\n");
    const quoteMsg = await w.say(CHAT, lines, (m) => m.text.includes("Quote for 5 orders"));
    const quoteId = w.quoteIdOf(quoteMsg);
    await w.tap(CHAT, "✅ Confirm", quoteMsg.messageId);
    const quote = await placedQuote(w, quoteId, "the batch placed");
    const orderIds = (quote.orders ?? []).map((o) => o.orderId);
    expect(orderIds).toHaveLength(5);
    // The batch card drawn after Confirm: the front process tracks the batch from here.
    await waitFor(() => w.textOf(CHAT, quoteMsg.messageId).includes("Batch of 5 orders"), "the batch card", 40_000);

    await w.kill(front);
    const killedAt = Date.now();
    w.sim.control.pauseLifecycles(false);

    const finals = () => w.botTexts(CHAT, FINAL).length;
    await waitFor(() => w.textOf(CHAT, quoteMsg.messageId).includes("all fulfilled") && finals() > 0, "the batch completed by the survivor", 100_000).catch(
      async (error: unknown) => {
        const tail = (bot: BotProcess) => bot.output().split("\n").slice(-30).join("\n");
        const state = await w.diagnose(CHAT, orderIds, killedAt);
        throw new Error(`${String(error)}; killed at ${killedAt}\n${state}\nthe killed process said:\n${tail(front)}\nthe worker said:\n${tail(worker)}`);
      },
    );
    const tracked = async () => {
      let n = 0;
      for await (const _ of w.store.namespace("tracking").entries()) n += 1;
      return n;
    };
    // Nothing is announced again later: the leases and the shared announced-memory hold.
    await waitFor(async () => (await tracked()) === 0, "tracking to end", 40_000);

    expect(finals()).toBe(1);
    expect(w.botTexts(CHAT, /^✅ Order /)).toEqual([]);
    const charged = w
      .debits()
      .slice(before)
      .map((d) => d.ref);
    expect(charged.sort()).toEqual([...orderIds].sort());
  });
});
