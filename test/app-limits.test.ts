/**
 * The spend limits as src/app.ts wires them: the zone from LIMITS_TIME_ZONE, a cap set in
 * /limits that survives a restart, and an order over it refused before anything is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

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
    w.front.enqueue(w.tg.press(CHAT, "Daily cap"));
    await prompt;
    await w.say(CHAT, "10", (m) => m.text.startsWith("✅ Saved."));
    await w.stopApp(first);

    await w.startApp(target, { LIMITS_TIME_ZONE: "Asia/Shanghai" });
    const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm", { messageId: quote.messageId }));
    const refusal = await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.startsWith("⛔")), "the refusal");
    expect(refusal.text).toContain("Cap: 10 TRX · spent today: 0 TRX · left: 10 TRX\nThis costs: 15 TRX");
    expect(w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit")).toEqual([]);
  });
});
