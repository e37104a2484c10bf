import pino from "pino";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../../src/bot/i18n.js";
import { createTrackingNotifier } from "../../../src/features/history/tracking-notifier.js";
import type { NotificationSettings } from "../../../src/shared/chats/chat-record.js";
import type { PushJob } from "../../../src/platform/push/index.js";
import { ServiceError } from "../../../src/platform/service/errors.js";
import type { Broadcast, Order } from "../../../src/platform/service/schemas.js";
import type { TrackerChange } from "../../../src/shared/tracking/tracker.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { useOrderHarness, type OrderHarness } from "../../bot/order-harness.js";

const CHAT = 5701;
const ORDER_ID = "0123456789abcdef01234567";
const BROADCAST_ID = "abcdef0123456789abcdef01";

function order(status: string): Order {
  return {
    orderId: ORDER_ID,
    status,
    receiver: TEST_KEYS.bob.address,
    resource: "ENERGY",
    resourceAmount: 100_000,
    remainAmount: status === "fulfilled" ? 0 : 100_000,
    isMatching: status !== "fulfilled",
    durationSec: 3600,
    totalCostSun: 15_000_000,
    createdAt: new Date().toISOString(),
  };
}

function broadcast(status: string): Broadcast {
  const now = new Date().toISOString();
  return {
    broadcastId: BROADCAST_ID,
    kind: "usdt",
    status,
    txId: "ab".repeat(32),
    fromAddress: TEST_KEYS.alice.address,
    toAddress: TEST_KEYS.bob.address,
    amountAtomic: "1000000",
    resource: "ENERGY",
    resourceRequired: 64_000,
    energyRequired: 64_000,
    energyOrderId: "fedcba9876543210fedcba98",
    totalCostSun: 6_400_000,
    failureReason: status === "failed" ? "node_rejected" : null,
    txExpirationMs: Date.now() + 600_000,
    createdAt: now,
    updatedAt: now,
  };
}

const logger = pino({ level: "silent" });

function notifierFor(notifications: NotificationSettings) {
  const jobs: PushJob[] = [];
  const notifier = createTrackingNotifier({
    push: { enqueue: (job) => Promise.resolve(void jobs.push(job)) },
    chats: { get: () => Promise.resolve({ chatId: CHAT, notifications, active: true, updatedAt: new Date().toISOString() }) },
    i18n: createI18n({ defaultLocale: "en", storedLocale: () => Promise.resolve(undefined), logger }),
    defaultLocale: "en",
    logger,
  });
  const sent = () => jobs.map((j) => `${j.method}:${String(j.params["text"]).split("\n")[0]}`);
  return { notifier, jobs, sent };
}

const change = (c: Partial<TrackerChange> & Pick<TrackerChange, "kind" | "record">): TrackerChange => ({
  chatId: CHAT,
  previousStatus: "pending",
  final: false,
  origin: "bot",
  ...c,
});

describe("tracking notifier", () => {
  it("with notifications off still updates the card but sends no final, new-item or give-up message", async () => {
    const { notifier, sent } = notifierFor({ orders: false, broadcasts: true });
    await notifier.onChange(change({ kind: "order", record: order("fulfilled"), final: true, cardMessageId: 7, previousStatus: "executing" }));
    await notifier.onChange(change({ kind: "order", record: order("matching"), origin: "hint", previousStatus: undefined }));
    await notifier.onGiveUp({ chatId: CHAT, kind: "order", id: ORDER_ID, lastStatus: "matching", cardMessageId: 7, reason: "horizon" });
    expect(sent()).toEqual([`editMessageText:<b>Order</b> <code>${ORDER_ID}</code>`]);
  });

  it("with notifications on sends the final message, the first sight of a new item and the give-up", async () => {
    const { notifier, sent } = notifierFor({ orders: true, broadcasts: false });
    await notifier.onChange(change({ kind: "order", record: order("fulfilled"), final: true, cardMessageId: 7, previousStatus: "executing" }));
    await notifier.onChange(change({ kind: "order", record: order("matching"), origin: "hint", previousStatus: undefined }));
    await notifier.onGiveUp({ chatId: CHAT, kind: "order", id: ORDER_ID, lastStatus: "matching", reason: "horizon" });
    // Broadcasts are off: only their card moves.
    await notifier.onChange(change({ kind: "broadcast", record: broadcast("failed"), final: true, cardMessageId: 9, previousStatus: "confirming" }));
    // The notice is queued before the card's edit, so it takes the chat's first slot.
    expect(sent()).toEqual([
      `sendMessage:✅ Order <code>${ORDER_ID}</code> is <b>fulfilled</b>: 100,000 energy delegated to <code>${TEST_KEYS.bob.address}</code> for 1 h.`,
      `editMessageText:<b>Order</b> <code>${ORDER_ID}</code>`,
      "sendMessage:New on your account:",
      `sendMessage:I have stopped watching order <code>${ORDER_ID}</code> (last status: matching). Check it any time with <code>/track ${ORDER_ID}</code>.`,
      `editMessageText:<b>Broadcast</b> <code>${BROADCAST_ID}</code>`,
    ]);
  });

  it("tells a failed broadcast to sign anew when too little time is left to resend the same one", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    const late = { ...broadcast("failed"), txExpirationMs: Date.now() + 60_000 };
    await notifier.onChange(change({ kind: "broadcast", record: late, final: true, previousStatus: "confirming" }));
    const text = String(jobs.at(-1)?.params["text"]);
    expect(text).toContain("<b>failed</b>.\nReason given by the service: <code>node_rejected</code>");
    expect(text).toContain("Refund: 6.4 TRX is back on your balance.");
    expect(text).toContain("too close to its expiration to send again: sign a new one with about 600 seconds");
  });

  it("says the service gave no reason instead of printing a placeholder when failureReason is null", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    const bare = { ...broadcast("failed"), failureReason: null };
    await notifier.onChange(change({ kind: "broadcast", record: bare, final: true, previousStatus: "confirming" }));
    const text = String(jobs.at(-1)?.params["text"]);
    expect(text).toContain("<b>failed</b>.\nThe service gave no reason.");
    expect(text).not.toMatch(/: -|undefined|null/);
  });

  it("a final status: a notice replying to the card without its buttons, queued first at notice priority, then the card's edit as a refresh", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    await notifier.onChange(change({ kind: "broadcast", record: broadcast("confirmed"), final: true, cardMessageId: 9, previousStatus: "confirming" }));
    expect(jobs.map((j) => [j.method, j.priority])).toEqual([
      ["sendMessage", "notice"],
      ["editMessageText", "refresh"],
    ]);
    const [notice, card] = jobs;
    expect(String(notice!.params["text"])).toMatch(/^✅ Broadcast/);
    expect(notice!.params["reply_parameters"]).toEqual({ message_id: 9, allow_sending_without_reply: true });
    expect(notice!.params["reply_markup"]).toBeUndefined();
    expect(JSON.stringify(card!.params["reply_markup"])).toContain("🔎 Explorer");
  });

  it("a final status without a card in the chat: a self-contained notice with the finished buttons", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    await notifier.onChange(change({ kind: "broadcast", record: broadcast("confirmed"), final: true, previousStatus: "confirming" }));
    expect(jobs.map((j) => [j.method, j.priority])).toEqual([["sendMessage", "notice"]]);
    expect(jobs[0]!.params["reply_parameters"]).toBeUndefined();
    const labels = (jobs[0]!.params["reply_markup"] as { inline_keyboard: { text: string }[][] }).inline_keyboard.flat().map((b) => b.text);
    expect(labels).toEqual(["🔄 Track", "🔎 Explorer"]);
  });

  it("does not redraw a card that already shows the status, and keeps Refresh on an unfinished card", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    await notifier.onChange(change({ kind: "order", record: order("matching"), cardMessageId: 7, cardStatus: "matching" }));
    expect(jobs).toEqual([]);
    await notifier.onChange(change({ kind: "order", record: order("executing"), cardMessageId: 7, cardStatus: "matching", previousStatus: "matching" }));
    expect(jobs.map((j) => [j.method, j.priority])).toEqual([["editMessageText", "refresh"]]);
    expect(JSON.stringify(jobs[0]!.params["reply_markup"])).toContain(`tr:o:${ORDER_ID}`);
  });
});

describe("/settings and the tracker", () => {
  let h: OrderHarness;
  useOrderHarness((started) => (h = started));

  it("a confirmation refused for balance after a restart offers Top up first, then Retry under the same key", async () => {
    const { notifier, jobs } = notifierFor({ orders: true, broadcasts: true });
    const short = new ServiceError({ code: "wallet.insufficient_balance", status: 402, requiredSun: 15_000_000 });
    await notifier.onRecovered({ kind: "order", chatId: CHAT, quoteId: "q1", result: "refused", error: short, retryable: true });
    await notifier.onRecovered({ kind: "broadcast", chatId: CHAT, draftId: "d1", txId: "ab".repeat(32), result: "refused", error: short, retryable: true });
    const other = new ServiceError({ code: "idempotency.in_progress", status: 409 });
    await notifier.onRecovered({ kind: "order", chatId: CHAT, quoteId: "q2", result: "refused", error: other, retryable: true });
    const labels = jobs.map((j) =>
      (j.params["reply_markup"] as { inline_keyboard: { text: string }[][] }).inline_keyboard.map((row) => row.map((b) => b.text)),
    );
    expect(labels[0]![0]).toEqual(["💳 Top up"]);
    expect(labels[0]![1]).toContain("🔁 Retry");
    expect(labels[1]![0]).toEqual(["💳 Top up"]);
    expect(labels[2]!.flat()).not.toContain("💳 Top up");
    expect(String(jobs[0]!.params["text"])).toContain("at least 10 TRX");
  });

  it("keeps editing the card but sends no final notification when order notifications are off", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/settings");
    await user.press("✅ Orders: on");
    expect(user.lastButtons().flat()).toContain("🔕 Orders: off");
    await user.send(`/order ${TEST_KEYS.bob.address} 100k 1h`);
    const confirm = await user.press("✅ Confirm");
    const card = h.pressedMessage(confirm);
    await h.until(() => h.textOf(CHAT, card).includes("Status: fulfilled"));
    await h.until(async () => h.tracker.size === 0 && (await h.pushSize()) === 0);
    expect(user.botTexts().some((t) => t.startsWith("✅ Order"))).toBe(false);
  });
});
