/**
 * Expiry as src/app.ts wires it (docs/expiry.md): a fulfilled order says when
 * its delegation ends on its card, its notification, /orders and /track; an
 * opted-in chat is reminded before the end, once, across restarts, and
 * Extend quotes the same order afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  redisTarget,
  failOnLoggedErrors,
  postgresTarget,
  RECEIVER,
  sqliteTarget,
  startAppWorld,
  waitFor,
  type AppWorld,
  type StoreTarget,
} from "./app-harness.js";

const CHAT = 4646;
const UNTIL = /Energy delegated until (?:[A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2} UTC \(ends in (1 min|under a minute)\)/;
/** The first app reminds one second before the end (never within this test); the next ones almost at once. */
const FAR = { EXPIRY_REMINDER_LEAD_SECONDS: "1" };
/** Only a safety net for a loaded machine: every wait ends as soon as its state is there. */
const SAFETY_MS = 55_000;
const SOON = { EXPIRY_REMINDER_LEAD_SECONDS: "58", EXPIRY_REMINDER_MAX_LEAD_PERCENT: "99", EXPIRY_REMINDER_RESCAN_SECONDS: "1" };

const REDIS_URL = process.env["TEST_REDIS_URL"];
const POSTGRES_URL = process.env["TEST_POSTGRES_URL"];
if (!REDIS_URL || !POSTGRES_URL)
  console.log("app-expiry: the Redis/Postgres runs need TEST_REDIS_URL and TEST_POSTGRES_URL; running on SQLite only where absent");

/** Every store keeps the schedule: the embedded one always, the shared ones when their servers are given. */
const stores: [string, () => Promise<StoreTarget>][] = [
  ["SQLite", () => Promise.resolve(sqliteTarget())],
  ...(REDIS_URL ? [["Redis", () => redisTarget(REDIS_URL)] as [string, () => Promise<StoreTarget>]] : []),
  ...(POSTGRES_URL ? [["Postgres", () => Promise.resolve(postgresTarget(POSTGRES_URL))] as [string, () => Promise<StoreTarget>]] : []),
];

describe.each(stores)("on %s, the app tells when energy runs out and reminds before it does", (_name, makeTarget) => {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = await makeTarget();
    w = await startAppWorld();
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  failOnLoggedErrors(() => w?.logs);

  const reminders = () => w.botTexts(CHAT, /^⏰ Energy for/);

  it("shows the end after fulfilment, reminds once across restarts, and Extend quotes the same order", async () => {
    const first = await w.startApp(target, FAR);
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    const settings = await w.say(CHAT, "/settings", (m) => m.buttons.flat().some((b) => b.text.includes("Expiry reminders")));
    expect(settings.buttons.flat().map((b) => b.text)).toContain("🔕 Expiry reminders: off");
    w.front.enqueue(w.tg.press(CHAT, "🔕 Expiry reminders: off"));
    await waitFor(
      () => w.tg.botMessages(CHAT).some((m) => m.buttons.flat().some((b) => b.text === "⏰ Expiry reminders: on")),
      "the switch turned on",
      SAFETY_MS,
    );

    const quote = await w.say(CHAT, `/order ${RECEIVER} 100k 1m`, (m) => m.text.includes("Your quote"));
    expect(quote.text).not.toMatch(/delegated until/);
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm"));
    // The card and the notification, once the bot has seen the order fulfilled.
    await waitFor(() => UNTIL.test(w.textOf(CHAT, quote.messageId)), "the card's end", SAFETY_MS);
    const fulfilled = await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.startsWith("✅ Order")), "the fulfilled notification", SAFETY_MS);
    expect(fulfilled.text).toMatch(UNTIL);
    // The notice replies to the card; no zone picked yet, so the time zone is offered on it, and nothing else.
    expect(fulfilled.replyTo).toBe(quote.messageId);
    expect(fulfilled.buttons.flat().map((b) => b.text)).toEqual(["🕒 Set my time zone"]);
    // The chat opted in: the reminder is scheduled, and the card's switch offers to drop it.
    const card = w.tg.view(CHAT).find((m) => m.messageId === quote.messageId)!;
    expect(card.buttons.flat().map((b) => b.text)).toEqual(["🔄 Track", "🔁 Rent again", "🔕 No reminder", "🔎 Explorer"]);
    const orderId = /Order ([0-9a-f]{24})/.exec(fulfilled.text)![1]!;

    const rows = await w.say(CHAT, "/orders", (m) => m.text.includes(orderId));
    expect(rows.text).toMatch(/⏳ energy until (?:[A-Z][a-z]{2} \d{1,2}, )?\d{2}:\d{2}/);
    expect(rows.text).toContain("Times in UTC");
    const tracked = await w.say(CHAT, `/track ${orderId}`, (m) => m.text.startsWith(`Order ${orderId}`));
    expect(tracked.text).toMatch(UNTIL);
    expect(tracked.buttons.flat().map((b) => b.text)).toEqual(["🔄 Track", "🔁 Rent again", "🔕 No reminder", "🔎 Explorer"]);
    expect(reminders()).toEqual([]);

    // Stopped before its reminder was due: the next process finds it in the store.
    await w.stopApp(first);
    const second = await w.startApp(target, SOON);
    const reminder = await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.startsWith("⏰ Energy for")), "the reminder", SAFETY_MS);
    expect(reminder.text).toContain(`Energy for ${RECEIVER} ends at`);
    expect(reminder.text).toContain(`Order ${orderId}: 100,000 energy for 1 min.`);
    // The chat picked no time zone: the reminder, a message with a time, offers the choices, naming the reminder to draw again.
    expect(reminder.buttons.map((row) => row.map((b) => b.text))).toEqual([["🔁 Extend", "♻️ Keep charged"], ["🕒 Set my time zone"]]);
    expect(reminder.buttons.flat().map((b) => b.callback_data)).toEqual([`ra:${orderId}`, `keep-order:${orderId}`, `tzs:m:r:${orderId}`]);

    // Extend: the same order, quoted afresh (nothing charged until Confirm).
    const debits = () => w.sim.ledger(w.demo.accountId).filter((e) => e.kind === "debit").length;
    const charged = debits();
    w.front.enqueue(w.tg.press(CHAT, "🔁 Extend", { messageId: reminder.messageId }));
    const again = await waitFor(
      () => w.tg.botMessages(CHAT).find((m) => m.messageId > reminder.messageId && m.text.includes("Your quote")),
      "the fresh quote",
      SAFETY_MS,
    );
    expect(again.text).toContain(RECEIVER);
    expect(again.text).toContain("100,000");
    expect(again.text).toContain("1 min");
    expect(debits()).toBe(charged);

    // Once: a third process has nothing left to remind.
    await w.stopApp(second);
    await w.startApp(target, SOON);
    await w.say(CHAT, "/orders", (m) => m.text.includes(orderId) && m.messageId > again.messageId);
    expect(reminders()).toHaveLength(1);
  }, 240_000);
});
