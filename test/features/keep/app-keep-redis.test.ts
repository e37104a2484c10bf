/**
 * Two app processes over one Redis (one polls Telegram, one is a worker):
 * both run the plan scheduler, and each plan is served by the one holding
 * its lease, so a 1m plan still buys exactly one order per slot.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, redisTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";

const REDIS_URL = process.env["TEST_REDIS_URL"] || undefined;
if (!REDIS_URL) console.log("[app-keep-redis] skipped: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");

const FAST_KEEP = {
  KEEP_TICK_MS: "50",
  KEEP_RENEWAL_LEAD_MS: "60000",
  KEEP_LEAD_MAX_FRACTION: "0.99",
  KEEP_LEASE_TTL_MS: "2000",
  KEEP_BALANCE_RECHECK_MS: "50",
};
const CHAT = 7201;

describe.skipIf(!REDIS_URL)("keep-charged plans with two app instances on one Redis (TEST_REDIS_URL)", { timeout: 60_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = await redisTarget(REDIS_URL!);
    w = await startAppWorld();
    await w.startApp(target, FAST_KEEP);
    await w.startApp(target, { ...FAST_KEEP, BOT_MODE: "worker" });
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("buys each slot of a 1m plan once, whichever instance serves it", async () => {
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    await w.say(CHAT, `/keep ${RECEIVER} 100k 1m`, (m) => m.text.includes("Keep charged"));
    w.front.enqueue(w.tg.press(CHAT, "✅ Start"));
    const debits = () => w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit");
    await waitFor(() => debits().length >= 3, "three slots bought", 45_000);
    const list = await w.say(CHAT, "/keep", (m) => m.buttons.flat().some((b) => b.text === "⏹ Stop 1"));
    w.front.enqueue(w.tg.press(CHAT, "⏹ Stop 1", { messageId: list.messageId }));
    await waitFor(() => w.textOf(CHAT, list.messageId).includes("⏹ Stopped."), "the stopped plan");

    const answered = () => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders" && r.status === 201).length;
    await waitFor(() => debits().length === answered(), "every debit answered");
    const created = w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders" && r.status === 201 && r.idempotencyKey?.startsWith("keep-"));
    const keys = created.map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    const slots = keys.map((k) => Number(/-(\d+)$/.exec(k!)![1])).sort((a, b) => a - b);
    expect(slots).toEqual(slots.map((_, i) => i));
    expect(debits()).toHaveLength(keys.length);
  });
});
