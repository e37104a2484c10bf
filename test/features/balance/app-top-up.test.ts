/**
 * The balance watch as src/app.ts wires it: a quote short of money, a
 * deposit at the simulator, the "credited" message through the push queue,
 * and its Confirm charging once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";

const CHAT = 4444;

describe("the app watches the balance of a short quote", () => {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld({ balanceSun: 1_000_000 });
    await w.startApp(target);
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("offers Top up, announces the deposit in a new message, and its Confirm charges once", async () => {
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const quote = await w.say(CHAT, "/order TQCq78eKWLd98P5Eu155knhkacGPAhS9pu 100k 1h", (m) => m.text.includes("Your quote"));
    expect(quote.text).toContain("Send at least 14 TRX");
    expect(quote.buttons.flat().map((b) => b.text)).toEqual(["💳 Top up", "Cancel"]);
    w.sim.deposit(w.demo.accountId, 20_000_000);
    const credited = await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.startsWith("💰 Top-up credited")), "the credited message");
    expect(credited.messageId).not.toBe(quote.messageId);
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm"));
    await waitFor(() => /^Order [0-9a-f]{24}/.test(w.textOf(CHAT, credited.messageId)), "the order card");
    expect(
      w.sim
        .ledger(w.demo.accountId)
        .filter((e) => e.kind === "debit")
        .map((e) => e.amountSun),
    ).toEqual([15_000_000]);
  });
});
