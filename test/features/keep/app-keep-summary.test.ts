/**
 * The keep plans' daily summary through the whole app: off by default, turned on in /settings, sent
 * once after the chat's midnight with each plan's orders and spend of the day, never to a chat that
 * left it off, and not again after a restart or on a day without renewals. The app's summary clock
 * (`keepSummaryNow`) is moved past midnight; plans, tracking and the simulator keep the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/app.js";
import { sunToTrx } from "../../../src/shared/money.js";
import { failOnLoggedErrors, RECEIVER, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "../../app-harness.js";
import { debits, FAST_KEEP, linkedChat, planCardDone, startPlan } from "./app-keep-steps.js";

const DAY_MS = 86_400_000;
const utcDay = (atMs: number) => new Date(atMs).toISOString().slice(0, 10);

describe("keep plans' daily summary", { timeout: 120_000 }, () => {
  let w: AppWorld;
  let target: StoreTarget;
  let app: App;
  /** How far the summaries' clock runs ahead of the real one. */
  let shiftMs = 0;
  const summaryNow = () => Date.now() + shiftMs;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startAppWorld();
    app = await w.startApp(target, FAST_KEEP, { keepSummaryNow: summaryNow });
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  failOnLoggedErrors(() => w?.logs);

  /** The summaries' look at the chat's day (UTC: no zone was chosen) is in the log, whether it sent anything or not. */
  const dayClosed = (chatId: number, day: string) =>
    w.logs.find((l) => l.msg === "keep plans' day closed" && l["chatId"] === chatId && l["day"] === day) as { enabled?: boolean; plans?: number } | undefined;

  const summaries = (chatId: number) => w.botTexts(chatId, /^🔁 Your plans on /);

  /** A plan that buys three orders and is stopped from its card, its last order delivered. */
  async function threeOrders(chatId: number, accountId: string): Promise<void> {
    const before = debits(w, accountId).length;
    const { cardId } = await startPlan(w, chatId, `/keep ${RECEIVER} 100k 1m`);
    await waitFor(() => debits(w, accountId).length >= before + 3, "three orders", 45_000);
    w.front.enqueue(w.tg.press(chatId, "⏹ Stop", { messageId: cardId }));
    await waitFor(() => w.textOf(chatId, cardId).includes("⏹ Stopped."), "the stopped card");
    await planCardDone(w, chatId, cardId, accountId, before);
  }

  const chats = { on: 7301, off: 7302 };
  const accounts = { on: "", off: "" };

  it("sends the day's summary once to the chat that turned it on, and nothing to the chat that did not", async () => {
    const { on, off } = chats;
    const onAccount = (accounts.on = await linkedChat(w, on, 1_000_000_000));
    const offAccount = (accounts.off = await linkedChat(w, off, 1_000_000_000));
    const settings = await w.say(on, "/settings", (m) => m.buttons.flat().some((b) => b.text === "🔕 Keep plans: daily summary off"));
    w.front.enqueue(w.tg.press(on, "🔕 Keep plans: daily summary off", { messageId: settings.messageId }));
    await waitFor(
      () =>
        w.tg
          .view(on)
          .find((m) => m.messageId === settings.messageId)
          ?.buttons.flat()
          .some((b) => b.text === "📊 Keep plans: daily summary on"),
      "the switch on",
    );

    await threeOrders(on, onAccount);
    await threeOrders(off, offAccount);
    const today = utcDay(Date.now());
    const yesterday = utcDay(Date.now() - DAY_MS);
    // The summaries met both chats today: their first summary is of today.
    await waitFor(() => dayClosed(on, yesterday) && dayClosed(off, yesterday), "both chats seen by the summaries");
    expect(summaries(on)).toEqual([]);

    const messagesBefore = w.tg.botMessages(on).length;
    const nextMidnight = (Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS;
    shiftMs = nextMidnight + 60_000 - Date.now();
    const [summary] = await waitFor(() => summaries(on).length > 0 && summaries(on), "the summary");
    await waitFor(() => dayClosed(off, today), "the other chat's day closed");

    const charged = debits(w, onAccount);
    const spentTrx = sunToTrx(charged.reduce((sum, d) => sum + d.amountSun, 0));
    const date = new Intl.DateTimeFormat("en", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(Date.parse(`${today}T12:00:00Z`));
    expect(summary).toBe(
      `🔁 Your plans on ${date}\n${RECEIVER}: ${charged.length} orders, ${spentTrx} TRX\nIn total: ${charged.length} orders, ${spentTrx} TRX.`,
    );
    expect(w.tg.botMessages(on)).toHaveLength(messagesBefore + 1);
    expect(dayClosed(on, today)).toMatchObject({ enabled: true, plans: 1 });
    expect(dayClosed(off, today)).toMatchObject({ enabled: false, plans: 0 });
    expect(summaries(off)).toEqual([]);
  });

  it("sends it no second time after a restart, nor for a day without renewals", async () => {
    const today = utcDay(Date.now());
    // A new process has no memory of its looks: only the stored mark keeps it from summing the day up again.
    await w.stopApp(app);
    app = await w.startApp(target, FAST_KEEP, { keepSummaryNow: summaryNow });
    // Its ticks run meanwhile, each ending with the summaries' look: a plan of the other chat buys three orders.
    await threeOrders(chats.off, accounts.off);
    expect(summaries(chats.on)).toHaveLength(1);

    shiftMs += DAY_MS;
    const nextDay = utcDay(Date.parse(`${today}T12:00:00Z`) + DAY_MS);
    await waitFor(() => dayClosed(chats.on, nextDay) && dayClosed(chats.off, nextDay), "the next day closed");
    expect(dayClosed(chats.on, nextDay)).toMatchObject({ enabled: true, plans: 0 });
    expect(summaries(chats.on)).toHaveLength(1);
    expect(summaries(chats.off)).toEqual([]);
  });
});
