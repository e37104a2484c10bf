/**
 * The spend limits as src/app.ts wires them: the zone from LIMITS_TIME_ZONE, a cap set in
 * /limits that survives a restart, and an order over it refused on its quote, before any Confirm.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";

const CHAT = 4545;

describe("the app enforces a chat's spend limits", () => {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld({ balanceSun: 100_000_000 });
  });

  afterAll(async () => {
    await w.close();
    await target.cleanup();
  });

  it("keeps the cap across a restart and refuses the order that would cross it", async () => {
    const first = await w.startApp(target, { LIMITS_TIME_ZONE: "Asia/Shanghai" });
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const card = await w.say(CHAT, "/limits", (m) => m.text.startsWith("Spend limits"));
    expect(card.text).toContain("Days and months are counted in Asia/Shanghai, your chat's time zone");
    const prompt = w.tg.waitForBotMessage(CHAT, 20_000, (m) => m.text.includes("Send the daily cap"));
    // The card turns into the cap's choices; ✏️ Custom asks for the amount.
    w.front.enqueue(w.tg.press(CHAT, "Daily cap"));
    await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.buttons.flat().some((b) => b.text === "✏️ Custom")), "the cap's choices");
    w.front.enqueue(w.tg.press(CHAT, "✏️ Custom"));
    await prompt;
    await w.say(CHAT, "10", (m) => m.text.startsWith("✅ Saved."));
    await w.stopApp(first);

    await w.startApp(target, { LIMITS_TIME_ZONE: "Asia/Shanghai", ENERGY_BURN_PRICE_SUN: "200" });
    // Refused on the quote itself: no Confirm to tap, the cap's figures and the buttons that resolve it.
    const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
    expect(quote.text).toContain("cap 10 TRX, spent today 0 TRX, left 10 TRX, this order 15 TRX");
    expect(quote.buttons.map((row) => row.map((b) => b.text))).toEqual([["⚙️ Limits", "🔄 Check again"], ["Cancel"]]);
    // The saving against ENERGY_BURN_PRICE_SUN as configured: 100,000 × 200 sun = 20 TRX burnt against 15 TRX.
    expect(quote.text).toContain("Burning TRX for the same energy would cost 20 TRX (at 200 sun per unit): this order saves 5 TRX.");
    expect(w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders")).toEqual([]);
    expect(w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit")).toEqual([]);
  });
});
