import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExpiryReminders, type ExpiryReminder, type ExpiryRemindersDeps } from "../../../src/features/expiry/expiry-reminders.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";
import { waitUntil } from "../../support/wait.js";
import { createJobsEngine } from "../../../src/platform/jobs/jobs-engine.js";

const CHAT = 9;
const T = 1_800_000_000_000;
/** Fulfilled 50 s ago for 60 s: its reminder (30 s before the end at most) is already due. */
const order = {
  chatId: CHAT,
  orderId: "b".repeat(24),
  receiver: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu",
  amount: 65_000,
  durationSec: 60,
  fulfilledAtMs: T - 50_000,
};

let store: StoreBackend;
let sent: ExpiryReminder[];
const running: { stop(): Promise<void> }[] = [];

function reminders(extra: Partial<ExpiryRemindersDeps> = {}) {
  const r = createExpiryReminders({
    store,
    jobs: createJobsEngine({ store, queue: "local" }),
    logger: captureLogger().logger,
    now: () => T,
    announce: (x) => Promise.resolve(void sent.push(x)),
    ...extra,
  });
  running.push(r);
  return r;
}

beforeEach(async () => {
  store = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  sent = [];
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
  await store.close();
});

describe("expiry reminders", () => {
  it("remind at the lead before the end, never earlier than the configured share of the duration", () => {
    const r = reminders({ leadMs: 300_000, maxLeadPercent: 50 });
    expect(r.remindAtMs(T, 3600)).toBe(T - 300_000);
    expect(r.remindAtMs(T, 300)).toBe(T - 150_000);
    expect(r.remindAtMs(T, 60)).toBe(T - 30_000);
  });

  it("are off by default, and scheduled for every order once the chat opts in", async () => {
    const r = reminders();
    expect(await r.onFulfilled(order)).toBe(false);
    expect(await r.isScheduled(CHAT, order.orderId)).toBe(false);
    await r.setEnabled(CHAT, true);
    expect(await r.onFulfilled(order)).toBe(true);
    expect(await r.isScheduled(CHAT, order.orderId)).toBe(true);
  });

  it("survive a restart and are sent once: the next process finds nothing left", async () => {
    const before = reminders();
    expect(await before.setForOrder(order, true)).toBe("on");
    // Never started (a process that stopped before the reminder was due): nothing sent.
    expect(sent).toEqual([]);
    const after = reminders();
    await after.start();
    await waitUntil(() => sent.length === 1, { what: "the reminder" });
    expect(sent[0]).toMatchObject({ chatId: CHAT, orderId: order.orderId, receiver: order.receiver, endsAtMs: T + 10_000 });
    await waitUntil(async () => !(await after.isScheduled(CHAT, order.orderId)), { what: "the record removed" });
    const third = reminders();
    await third.start();
    expect(sent).toHaveLength(1);
  });

  it("leave a reminder to the process holding its claim", async () => {
    const claims: string[] = [];
    const r = reminders({
      claim: (key) => {
        claims.push(key);
        return Promise.resolve(false);
      },
    });
    await r.start();
    await r.setForOrder(order, true);
    await waitUntil(() => claims.length > 0, { what: "a claim attempt" });
    expect(claims[0]).toBe(`expiry-reminder:${CHAT}:${order.orderId}`);
    expect(sent).toEqual([]);
    expect(await r.isScheduled(CHAT, order.orderId)).toBe(true);
  });

  it("are dropped by the card's switch, and refused once the delegation has ended", async () => {
    const r = reminders();
    await r.setForOrder(order, true);
    expect(await r.setForOrder(order, false)).toBe("off");
    await r.start();
    expect(await r.isScheduled(CHAT, order.orderId)).toBe(false);
    expect(await r.setForOrder({ ...order, fulfilledAtMs: T - 61_000 }, true)).toBe("too_late");
    expect(sent).toEqual([]);
  });
});
