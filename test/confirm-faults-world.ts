/**
 * The one app the Confirm fault files share the shape of: SQLite, a linked
 * chat, faults cleared after each test, and the checks every case ends with
 * (announced once, charged once: the simulator's ledger).
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { App } from "../src/app.js";
import { failOnLoggedErrors, RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

export interface ConfirmFaultsWorld {
  readonly w: AppWorld;
  readonly app: App;
  debits(): ReturnType<AppWorld["sim"]["ledger"]>;
  fulfilledNotices(orderId: string): string[];
  confirmedNotices(broadcastId: string): string[];
  /** /order → quote; then Confirm is pressed with `arm`'s fault armed. Returns the order id once the service made it. */
  confirmOrderWith(arm: () => void): Promise<{ orderId: string; cardId: number }>;
  expectOrderAnnounced(orderId: string, cardId: number): Promise<void>;
  /** Stops the app and starts it again on the same store: what the journal holds is resolved at start-up. */
  restart(): Promise<void>;
}

export function useConfirmFaultsWorld(chat: number): ConfirmFaultsWorld {
  let target: StoreTarget;
  let w: AppWorld;
  let app: App;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    app = await w.startApp(target);
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
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

  const debits = () => w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit");
  const fulfilledNotices = (orderId: string) => w.botTexts(chat, new RegExp(`^✅ Order ${orderId} is fulfilled`));

  return {
    get w() {
      return w;
    },
    get app() {
      return app;
    },
    async restart() {
      await w.stopApp(app);
      app = await w.startApp(target.url);
    },
    debits,
    fulfilledNotices,
    confirmedNotices: (broadcastId) => w.botTexts(chat, new RegExp(`^✅ Broadcast ${broadcastId} is confirmed`)),
    async confirmOrderWith(arm) {
      const before = debits().length;
      const quote = await w.say(chat, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
      arm();
      w.front.enqueue(w.tg.press(chat, "✅ Confirm", { messageId: quote.messageId }));
      const debit = await waitFor(() => debits().length > before && debits().at(-1), "the service charging the order");
      return { orderId: debit.ref!, cardId: quote.messageId };
    },
    async expectOrderAnnounced(orderId, cardId) {
      await waitFor(() => fulfilledNotices(orderId).length > 0, "the final notification", 40_000);
      await waitFor(
        () => w.textOf(chat, cardId).startsWith(`Order ${orderId}`) && w.textOf(chat, cardId).includes("Status: fulfilled"),
        "the card showing fulfilled",
      );
      expect(fulfilledNotices(orderId)).toHaveLength(1);
      expect(debits().filter((d) => d.ref === orderId)).toHaveLength(1);
      // The quote is gone from the card: nothing left to tap twice.
      expect(
        w.tg
          .view(chat)
          .find((m) => m.messageId === cardId)
          ?.buttons.flat()
          .some((b) => b.text === "✅ Confirm"),
      ).toBe(false);
    },
  };
}
