/**
 * Storms around an order's Confirm, through the whole app: every answer lost
 * after the service applied the order, a 503 storm and a 429 from the
 * service, and Telegram answering 5xx to every message. The order is placed
 * once, charged once and announced once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, waitFor, type AppWorld } from "./app-harness.js";
import { useConfirmFaultsWorld } from "./confirm-faults-world.js";

const CHAT = 5152;
const f = useConfirmFaultsWorld(CHAT);
let w: AppWorld;
beforeAll(() => {
  w = f.w;
});
const { debits, expectOrderAnnounced } = f;

describe("service and Telegram storms around an order's Confirm", () => {
  it(
    "says the order may have been placed while every answer is lost, and after a restart the same card becomes the order, charged once",
    { timeout: 60_000 },
    async () => {
      const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
      const before = debits().length;
      w.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true });
      w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: quote.messageId }));
      await waitFor(
        () => w.textOf(CHAT, quote.messageId).includes("I keep checking in the background"),
        "the card saying the outcome is still unknown",
        40_000,
      );
      expect(w.textOf(CHAT, quote.messageId)).not.toMatch(/try again/i);
      expect(debits().length).toBe(before + 1);
      w.sim.faults.clear();
      await f.restart();
      const orderId = debits().at(-1)!.ref!;
      await expectOrderAnnounced(orderId, quote.messageId);
      expect(debits().length).toBe(before + 1);
    },
  );

  it("places once through a 503 storm and a 429 from the service", async () => {
    const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
    const before = debits().length;
    w.sim.faults.inject({ method: "POST", path: "/v1/orders", times: 1, kind: "status", status: 429, code: "rate_limited", retryAfterSec: 1 });
    w.sim.faults.inject({ method: "POST", path: "/v1/orders", times: 2, kind: "status", status: 503, code: "service_unavailable" });
    const { orderId, cardId } = await (async () => {
      w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: quote.messageId }));
      const debit = await waitFor(() => debits().length > before && debits().at(-1), "the order charged after the storm");
      return { orderId: debit.ref!, cardId: quote.messageId };
    })();
    await expectOrderAnnounced(orderId, cardId);
  });

  // The push queue backs off 1 s, 2 s, 4 s… between attempts: the storm is waited out, not raced.
  it("delivers the order's announcements after a Telegram 5xx storm on every message it sends", { timeout: 60_000 }, async () => {
    const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
    const storm = { kind: "refuse" as const, code: 502, description: "Bad Gateway", times: 2 };
    const { orderId } = await confirmOrderWithoutSay(quote.messageId, () => {
      w.tg.injectFault({ method: "editMessageText", ...storm });
      w.tg.injectFault({ method: "sendMessage", ...storm });
    });
    await expectOrderAnnounced(orderId, quote.messageId);
  });
});

async function confirmOrderWithoutSay(messageId: number, arm: () => void): Promise<{ orderId: string }> {
  const before = debits().length;
  arm();
  w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId }));
  const debit = await waitFor(() => debits().length > before && debits().at(-1), "the service charging the order");
  return { orderId: debit.ref! };
}
