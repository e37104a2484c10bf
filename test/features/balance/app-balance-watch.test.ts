/**
 * The balance watch as src/app.ts wires it, against the simulator: every
 * deposit told once (also across a restart, and merged into "credited" when a
 * short quote waits), the bot's own orders and refunds never called deposits,
 * the low-balance alert once per crossing, a charge made with the same key
 * behind the bot's back reported once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/app.js";
import { sunToTrx } from "../../../src/shared/money.js";
import { signTrc20Transfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { redisTarget, failOnLoggedErrors, postgresTarget, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";

const FAST = { BALANCE_WATCH_INTERVAL_MS: "60", BALANCE_WATCH_SETTLE_MS: "30", BALANCE_WATCH_MAX_BACKOFF_MS: "300" };
const DEPOSIT = /Deposit credited/;
const LOW = /Low balance/;
const FOREIGN = /did not spend/;

/** Resolves once the watch has read the balance `n` more times: whatever it was going to say about earlier events, it said. */
async function moreReads(w: AppWorld, n = 3): Promise<void> {
  const reads = () => w.sim.requests.filter((r) => r.method === "GET" && r.path === "/v1/balance").length;
  const from = reads();
  await waitFor(() => reads() >= from + n, `${n} more balance reads`);
}

async function linkAndBaseline(w: AppWorld, chatId: number): Promise<void> {
  await w.say(chatId, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
  await waitFor(() => w.logs.some((l) => l.msg === "balance watch baseline read" && l["chatId"] === chatId), "the baseline read");
}

// Each test walks several steps, each wait naming what it waits for within 20 s: the file's default 20 s for the
// whole test would end a slow walk on a loaded machine before the wait that is stuck could say which it is.
describe("the balance watch of a linked chat", { timeout: 90_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;
  let app: App;
  const CHAT = 5151;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld({ balanceSun: 100_000_000 });
    app = await w.startApp(target, FAST);
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("tells a deposit once, exactly, and again once for a deposit made while the bot was down", async () => {
    await linkAndBaseline(w, CHAT);
    w.sim.deposit(w.demo.accountId, 20_500_001);
    const notice = await waitFor(() => w.tg.botMessages(CHAT).find((m) => DEPOSIT.test(m.text)), "the deposit notice");
    expect(notice.text).toBe("💰 Deposit credited: +20.500001 TRX (balance now 120.500001 TRX).");
    await moreReads(w);
    expect(w.botTexts(CHAT, DEPOSIT)).toHaveLength(1);

    await w.stopApp(app);
    w.sim.deposit(w.demo.accountId, 10_000_000);
    app = await w.startApp(target, FAST);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length === 2, "the second deposit notice");
    await moreReads(w);
    expect(w.botTexts(CHAT, DEPOSIT)).toEqual([
      "💰 Deposit credited: +20.500001 TRX (balance now 120.500001 TRX).",
      "💰 Deposit credited: +10 TRX (balance now 130.500001 TRX).",
    ]);
  });

  it("says nothing of the bot's own order, nor of the refund of its failed broadcast", async () => {
    await w.placeOrder(CHAT);
    // The next deposit is told exactly: had the order been taken for a foreign charge, or the refund for a deposit, its amount would be off.
    w.sim.deposit(w.demo.accountId, 11_000_000);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length === 3, "the third deposit notice");
    expect(w.botTexts(CHAT, DEPOSIT)[2]).toBe(`💰 Deposit credited: +11 TRX (balance now ${sunToTrx(w.sim.balanceOf(w.demo.accountId))} TRX).`);
    const tx = signTrc20Transfer({
      privateKey: TEST_KEYS.alice.privateKey,
      to: TEST_KEYS.bob.address,
      amountAtomic: 1_000_000n,
      expirationMs: Date.now() + 600_000,
    });
    w.sim.control.setBroadcastOutcome(tx.txID, "failed", "test_failure");
    await w.say(CHAT, `/broadcast ${JSON.stringify(tx)}`, (m) => m.buttons.flat().some((b) => b.text === "✅ Confirm"));
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm"));
    // Told by its own notice, or on its card when it failed before the card was drawn (on a loaded machine the
    // simulator's 40-ms steps can outrun the card): the card then shows it, and the chat hears it once.
    const failureShown = (text: string) => /^❌ Broadcast \S+ failed/.test(text) || /^Broadcast \S+\nStatus: failed/.test(text);
    await waitFor(() => w.tg.botMessages(CHAT).some((m) => failureShown(m.text)), "the broadcast failed");
    await waitFor(() => w.sim.ledger(w.demo.accountId).some((e) => e.kind === "refund"), "the refund");
    w.sim.deposit(w.demo.accountId, 12_000_000);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length === 4, "the fourth deposit notice");
    expect(w.botTexts(CHAT, DEPOSIT)[3]).toBe(`💰 Deposit credited: +12 TRX (balance now ${sunToTrx(w.sim.balanceOf(w.demo.accountId))} TRX).`);
    await moreReads(w);
    expect(w.botTexts(CHAT, DEPOSIT)).toHaveLength(4);
    expect(w.botTexts(CHAT, FOREIGN)).toEqual([]);
  });

  it("reports a charge made with the same key behind the bot's back, once", async () => {
    const before = w.sim.balanceOf(w.demo.accountId);
    await w.orderBehindTheBotsBack("behind-the-back-1");
    const spent = before - w.sim.balanceOf(w.demo.accountId);
    const report = await waitFor(() => w.tg.botMessages(CHAT).find((m) => FOREIGN.test(m.text)), "the report");
    expect(report.text).toContain(`fell by ${sunToTrx(spent)} TRX that the bot did not spend`);
    await moreReads(w);
    expect(w.botTexts(CHAT, FOREIGN)).toHaveLength(1);
    expect(w.botTexts(CHAT, DEPOSIT)).toHaveLength(4);
  });

  it("alerts once per crossing of the threshold the user set", async () => {
    const balance = w.sim.balanceOf(w.demo.accountId);
    // 10 TRX under the balance: one order of 15 TRX crosses it.
    await w.say(CHAT, `/alerts threshold ${sunToTrx(balance - 10_000_000)}`, (m) => m.text.includes("threshold set"));
    await moreReads(w);
    expect(w.botTexts(CHAT, LOW)).toEqual([]);
    await w.placeOrder(CHAT);
    await waitFor(() => w.botTexts(CHAT, LOW).length === 1, "the low-balance alert");
    await w.placeOrder(CHAT);
    await moreReads(w);
    expect(w.botTexts(CHAT, LOW)).toHaveLength(1);
    w.sim.deposit(w.demo.accountId, 50_000_000);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length === 5, "the deposit notice");
    await w.placeOrder(CHAT);
    await w.placeOrder(CHAT);
    await w.placeOrder(CHAT);
    await waitFor(() => w.botTexts(CHAT, LOW).length === 2, "the second alert, after the balance was back above");
    expect(w.botTexts(CHAT, FOREIGN)).toHaveLength(1);
  });
});

describe("a deposit while a short quote waits for it", () => {
  let w: AppWorld;
  let target: StoreTarget;
  const CHAT = 5252;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld({ balanceSun: 1_000_000 });
    // The top-up watch reads far more often than the idle watch: the deposit is found by the former.
    await w.startApp(target, { ...FAST, BALANCE_WATCH_INTERVAL_MS: "1500" });
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("is told in one message: credited, with the deposit", async () => {
    await linkAndBaseline(w, CHAT);
    const quote = await w.say(CHAT, "/order TQCq78eKWLd98P5Eu155knhkacGPAhS9pu 100k 1h", (m) => m.text.includes("Your quote"));
    expect(quote.text).toContain("Send at least 14 TRX");
    w.sim.deposit(w.demo.accountId, 20_000_000);
    const credited = await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.startsWith("💰 Top-up credited")), "the credited message");
    expect(credited.text).toContain("Deposit: +20 TRX.");
    w.sim.deposit(w.demo.accountId, 10_000_000);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length > 0, "the next deposit's notice");
    expect(w.botTexts(CHAT, /credited/)).toEqual([credited.text, "💰 Deposit credited: +10 TRX (balance now 31 TRX)."]);
  });
});

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the balance watch on two processes: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");

describe.skipIf(!REDIS_URL)("two app processes over one Redis watching one chat (TEST_REDIS_URL)", () => {
  let w: AppWorld;
  let target: StoreTarget;
  const CHAT = 5353;

  beforeAll(async () => {
    target = await redisTarget(REDIS_URL!);
    w = await startAppWorld({ balanceSun: 100_000_000 });
    await w.startApp(target, FAST);
    await w.startApp(target, { ...FAST, BOT_MODE: "worker" });
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("tells a deposit once although both processes read the balance", async () => {
    await linkAndBaseline(w, CHAT);
    w.sim.deposit(w.demo.accountId, 10_000_000);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length > 0, "the deposit notice");
    await moreReads(w, 8);
    expect(w.botTexts(CHAT, DEPOSIT)).toEqual(["💰 Deposit credited: +10 TRX (balance now 110 TRX)."]);
  });
});

const POSTGRES_URL = process.env["TEST_POSTGRES_URL"];
if (!POSTGRES_URL)
  console.log("skipping the balance watch on Postgres: TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)");

describe.skipIf(!POSTGRES_URL)("the balance watch on Postgres (TEST_POSTGRES_URL)", () => {
  let w: AppWorld;
  let target: StoreTarget;
  let app: App;
  const CHAT = 5454;

  beforeAll(async () => {
    target = postgresTarget(POSTGRES_URL!);
    w = await startAppWorld({ balanceSun: 100_000_000 });
    app = await w.startApp(target, FAST);
  });
  failOnLoggedErrors(() => w?.logs);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("compares the first read after a restart with the stored balance", async () => {
    await linkAndBaseline(w, CHAT);
    await w.stopApp(app);
    w.sim.deposit(w.demo.accountId, 10_000_000);
    app = await w.startApp(target, FAST);
    await waitFor(() => w.botTexts(CHAT, DEPOSIT).length > 0, "the deposit notice");
    await moreReads(w);
    expect(w.botTexts(CHAT, DEPOSIT)).toEqual(["💰 Deposit credited: +10 TRX (balance now 110 TRX)."]);
  });
});
