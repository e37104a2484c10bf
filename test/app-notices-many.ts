/**
 * Many orders finished at once under Telegram's limits (docs/bot.md, "Cards and notices"): every chat's
 * notice goes out before any card is redrawn. Telegram asks the bot to wait at the first notice, so
 * every order's sends are queued when sending resumes; the wait is long enough for the app to
 * announce all of them on a loaded machine.
 */
import { describe, expect, it } from "vitest";
import { TELEGRAM_LIMITS } from "../src/platform/push/index.js";
import type { RecordedCall } from "../testkit/fake-telegram/fake-telegram.js";
import { useSqliteAppWorld, waitFor } from "./app-harness.js";

/** The card at its end, as sent (HTML). */
const FINAL = /Status: (?:<b>)?fulfilled/;

export function finishedTogether(count: number, retryAfterSeconds: number): void {
  describe(`${count} orders finished at once`, () => {
    const world = useSqliteAppWorld();

    const sent = (from: number): RecordedCall[] =>
      world.w.tg.calls.slice(from).filter((c) => c.ok && (c.method === "sendMessage" || c.method === "editMessageText"));

    it(`${count} orders fulfilled at once, Telegram's limits enforced: every notice goes out before any card is redrawn`, async () => {
      const { w, target } = world;
      const chats = Array.from({ length: count }, (_, i) => 7400 + i);
      await w.startApp(target, {}, { pushLimits: TELEGRAM_LIMITS });
      w.sim.control.pauseLifecycles(true);
      const orders = new Map<number, { orderId: string; cardId: number }>();
      // Each chat its own account: a shared one would tell every chat of every order.
      const place = async (chat: number) => {
        const account = w.sim.createAccount({ balanceSun: 1_000_000_000 });
        await w.say(chat, `/link ${account.apiKey} ${account.webhookSecret}`, (m) => /connected/i.test(m.text));
        orders.set(chat, await w.placeOrder(chat));
      };
      for (let i = 0; i < chats.length; i += 10) await Promise.all(chats.slice(i, i + 10).map(place));
      w.tg.setRateLimits(true);
      const from = w.tg.calls.length;
      w.tg.injectFault({
        method: "sendMessage",
        kind: "refuse",
        code: 429,
        description: `Too Many Requests: retry after ${retryAfterSeconds}`,
        retryAfter: retryAfterSeconds,
      });
      for (const { orderId } of orders.values()) w.sim.control.setOrderStatus(orderId, "fulfilled");

      await waitFor(
        () => chats.every((chat) => FINAL.test(w.textOf(chat, orders.get(chat)!.cardId)) && w.tg.botMessages(chat).some((m) => m.text.startsWith("✅ Order"))),
        "every card and notice",
        120_000,
      );
      const calls = sent(from);
      const lastNotice = calls.findLastIndex((c) => c.method === "sendMessage");
      const firstRefresh = calls.findIndex((c) => c.method === "editMessageText");
      expect(calls.filter((c) => c.method === "sendMessage")).toHaveLength(chats.length);
      expect(calls.filter((c) => c.method === "editMessageText")).toHaveLength(chats.length);
      expect(lastNotice).toBeLessThan(firstRefresh);
      for (const chat of chats) {
        const notice = w.tg.botMessages(chat).find((m) => m.text.startsWith("✅ Order"))!;
        expect(notice.replyTo).toBe(orders.get(chat)!.cardId);
      }
      expect(w.tg.failedCalls().map((c) => c.errorCode)).toEqual([429]);
    }, 240_000);
  });
}
