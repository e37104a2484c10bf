/**
 * Two bot processes on one Redis: one takes Telegram's updates (polling), the
 * other is a worker. Orders confirmed through the first are tracked by it;
 * it is killed with -9 while they are still pending, and the worker takes
 * them over once their leases run out: every order is announced fulfilled
 * exactly once, none is charged twice. The leases are shortened here
 * (TRACKING_LEASE_TTL_MS / TRACKING_SCAN_MS) so the run stays short; the wait
 * allows the production bound (docs/tracking.md: 20 s + the spread).
 */
import { describe, expect, it } from "vitest";
import { RECEIVER, waitFor } from "../app-harness.js";
import { placedQuote, useFrontAndWorker, type BotProcess } from "./kill-world.js";

const redisUrl = process.env["TEST_REDIS_URL"];
const CHAT = 6262;
const ORDERS = 3;
const LEASE_TTL_MS = 3_000;
const SCAN_MS = 1_000;

describe.skipIf(!redisUrl)("tracking taken over from a killed process on Redis", () => {
  const world = useFrontAndWorker(redisUrl!, CHAT, { TRACKING_LEASE_TTL_MS: String(LEASE_TTL_MS), TRACKING_SCAN_MS: String(SCAN_MS) });

  it("announces each order of the dead process once, from the survivor, charged once", { timeout: 180_000 }, async () => {
    const { w, front, worker } = world;
    w.sim.control.pauseLifecycles(true);
    const before = w.debits().length;
    const cards: { orderId: string; messageId: number }[] = [];
    for (let i = 0; i < ORDERS; i += 1) {
      const quoteMsg = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
      const quoteId = w.quoteIdOf(quoteMsg);
      await w.tap(CHAT, "✅ Confirm", quoteMsg.messageId);
      const quote = await placedQuote(w, quoteId, "the order placed");
      const orderId = quote.orders?.[0]?.orderId ?? "";
      // The card drawn after Confirm: the front process tracks the order from here.
      await waitFor(() => w.textOf(CHAT, quoteMsg.messageId).startsWith(`Order ${orderId}`), "the order's card", 40_000);
      cards.push({ orderId, messageId: quoteMsg.messageId });
    }
    const tracked = async () => {
      let n = 0;
      for await (const _ of w.store.namespace("tracking").entries()) n += 1;
      return n;
    };
    await waitFor(async () => (await tracked()) === ORDERS, "every order tracked", 40_000);

    await w.kill(front);
    const killedAt = Date.now();
    w.sim.control.pauseLifecycles(false);

    const notices = (id: string) => w.botTexts(CHAT, new RegExp(`^✅ Order ${id} is fulfilled`)).length;
    const cardSays = (c: (typeof cards)[number]) => w.textOf(CHAT, c.messageId).includes("Status: fulfilled");
    await waitFor(() => cards.every((c) => notices(c.orderId) > 0 && cardSays(c)), "every order announced by the survivor", 100_000).catch(
      async (error: unknown) => {
        const tail = (bot: BotProcess) => bot.output().split("\n").slice(-30).join("\n");
        const state = await w.diagnose(
          CHAT,
          cards.map((c) => c.orderId),
          killedAt,
        );
        throw new Error(`${String(error)}; killed at ${killedAt}\n${state}\nthe killed process said:\n${tail(front)}\nthe worker said:\n${tail(worker)}`);
      },
    );
    const announcedMs = Date.now() - killedAt;
    // When the survivor claimed the dead process's items (its log line's time).
    const pickedUp = worker
      .output()
      .split("\n")
      .find((line) => line.includes("tracked items picked up"));
    const adoptedMs = pickedUp === undefined ? undefined : (JSON.parse(pickedUp) as { time: number }).time - killedAt;
    process.stdout.write(
      `tracking takeover: ${JSON.stringify({ backend: "redis", orders: ORDERS, leaseTtlMs: LEASE_TTL_MS, scanMs: SCAN_MS, adoptedMs, announcedMs })}\n`,
    );

    // Nothing is announced again later: the leases and the shared announced-memory hold.
    await waitFor(async () => (await tracked()) === 0, "tracking to end", 40_000);
    expect(cards.map((c) => notices(c.orderId))).toEqual(cards.map(() => 1));
    expect(w.debits().length - before).toBe(ORDERS);
  });
});
