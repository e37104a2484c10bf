import type { AppEventSubscriber } from "../events.js";
import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * Opt-in reminders shortly before an order's delegation ends (docs/expiry.md).
 *
 * A chat turns them on for every order (`setEnabled`, /settings) or for one
 * order (`setForOrder`, the card's toggle). The schedule is a record per
 * (chat, order) in the store, so it survives restarts and is seen by every
 * process; the time to remind is computed from the order's end and the lead
 * configured now, so a changed lead applies to stored reminders too. Each
 * process keeps timers for the records it knows and rescans the store from
 * time to time; `claim` (a lease) lets one process fire a reminder, and the
 * announcement's deterministic job id makes a second one harmless anyway.
 */

const DEFAULT_EXPIRY_REMINDERS = {
  /** How long before the end the chat is reminded. */
  leadMs: 5 * 60_000,
  /** The lead never exceeds this share of the duration, so a 1m order is still reminded (at half its duration). */
  maxLeadPercent: 50,
  /** How often the store is read again for reminders another process scheduled. */
  rescanIntervalMs: 60_000,
} as const;

/** A reminder whose announcement failed is offered again after this long (while its delegation lasts). */
const RETRY_DELAY_MS = 5_000;
/** Long enough for one announcement; a process that dies holding it frees it by itself. */
const CLAIM_TTL_MS = 30_000;

const expiryReminderSchema = z.object({
  chatId: z.number().int(),
  orderId: z.string(),
  receiver: z.string(),
  amount: z.number().int(),
  durationSec: z.number().int().positive(),
  endsAtMs: z.number().int(),
  locale: z.string().optional(),
});
export type ExpiryReminder = z.infer<typeof expiryReminderSchema>;

const prefsSchema = z.object({ enabled: z.boolean() });

/** A fulfilled order as the tracker saw it. */
export interface FulfilledOrder {
  chatId: number;
  orderId: string;
  receiver: string;
  amount: number;
  durationSec: number;
  fulfilledAtMs: number;
  locale?: string;
}

export type ReminderToggle = "on" | "off" | "too_late";

export interface ExpiryRemindersDeps {
  store: StoreBackend;
  logger: Logger;
  /** Sends the reminder (through the push queue, job id from chat and order). Throwing means "try again". */
  announce: (reminder: ExpiryReminder) => Promise<void>;
  /** One process fires a reminder (a lease); default: always true (one process). */
  claim?: (key: string, ttlMs: number) => Promise<boolean>;
  now?: () => number;
  leadMs?: number;
  maxLeadPercent?: number;
  rescanIntervalMs?: number;
}

export interface ExpiryReminders {
  /** Loads the persisted schedule and starts the rescans. */
  start(): Promise<void>;
  /** Stops timers; the schedule stays persisted. */
  stop(): Promise<void>;
  /** The chat's opt-in for all its orders (default off). */
  isEnabled(chatId: number): Promise<boolean>;
  setEnabled(chatId: number, enabled: boolean): Promise<void>;
  /** An order was seen fulfilled: scheduled when the chat opted in. True when a reminder is now scheduled. */
  onFulfilled(order: FulfilledOrder): Promise<boolean>;
  /** The card's toggle for one order. */
  setForOrder(order: FulfilledOrder, on: boolean): Promise<ReminderToggle>;
  isScheduled(chatId: number, orderId: string): Promise<boolean>;
  /** When the reminder of an order ending at `endsAtMs` after `durationSec` falls due. */
  remindAtMs(endsAtMs: number, durationSec: number): number;
}

const keyOf = (chatId: number, orderId: string) => `${chatId}:${orderId}`;

export function createExpiryReminders(deps: ExpiryRemindersDeps): ExpiryReminders {
  const logger = deps.logger.child({ component: "expiry-reminders" });
  const now = deps.now ?? Date.now;
  const leadMs = deps.leadMs ?? DEFAULT_EXPIRY_REMINDERS.leadMs;
  const maxLeadPercent = deps.maxLeadPercent ?? DEFAULT_EXPIRY_REMINDERS.maxLeadPercent;
  const rescanIntervalMs = deps.rescanIntervalMs ?? DEFAULT_EXPIRY_REMINDERS.rescanIntervalMs;
  const claim = deps.claim ?? (() => Promise.resolve(true));
  const schedule = createRecordStore({
    kv: deps.store.namespace("expiry-reminders"),
    schema: expiryReminderSchema,
    version: 1,
    logger,
    name: "expiry-reminders",
  });
  const prefs = createRecordStore({
    kv: deps.store.namespace("expiry-reminder-prefs"),
    schema: prefsSchema,
    version: 1,
    logger,
    name: "expiry-reminder-prefs",
  });
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let rescanTimer: NodeJS.Timeout | undefined;
  let running = false;

  function remindAtMs(endsAtMs: number, durationSec: number): number {
    const cap = Math.floor((durationSec * 1000 * maxLeadPercent) / 100);
    return endsAtMs - Math.min(leadMs, cap);
  }

  function arm(reminder: ExpiryReminder, delayMs?: number): void {
    const key = keyOf(reminder.chatId, reminder.orderId);
    const existing = timers.get(key);
    if (existing) clearTimeout(existing);
    if (!running) return;
    const wait = delayMs ?? Math.max(0, remindAtMs(reminder.endsAtMs, reminder.durationSec) - now());
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        const p = fire(key).catch((error: unknown) => logger.error({ err: error, key }, "expiry reminder failed"));
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }, wait),
    );
  }

  async function fire(key: string): Promise<void> {
    // The store is the truth: the toggle may have been turned off, or another process may have sent it.
    const reminder = await schedule.get(key);
    if (!reminder || !running) return;
    if (now() >= reminder.endsAtMs) {
      logger.info({ chatId: reminder.chatId, orderId: reminder.orderId }, "delegation ended before its reminder could go out");
      await schedule.delete(key);
      return;
    }
    if (!(await claim(`expiry-reminder:${key}`, CLAIM_TTL_MS))) return;
    try {
      await deps.announce(reminder);
    } catch (error) {
      logger.warn({ err: error, chatId: reminder.chatId, orderId: reminder.orderId }, "expiry reminder not announced; will retry");
      arm(reminder, RETRY_DELAY_MS);
      return;
    }
    await schedule.delete(key);
  }

  async function rescan(): Promise<void> {
    for await (const [key, reminder] of schedule.list()) {
      if (!running) return;
      if (!timers.has(key)) arm(reminder);
    }
  }

  /** One rescan at a time, awaited by stop(): a rescan must never outlive the store it reads. */
  let rescanning: Promise<void> | undefined;
  function rescanInBackground(): void {
    if (rescanning) return;
    rescanning = rescan()
      .catch((error: unknown) => {
        if (running) logger.error({ err: error }, "expiry reminder rescan failed");
      })
      .finally(() => {
        rescanning = undefined;
      });
  }

  async function put(order: FulfilledOrder): Promise<boolean> {
    const endsAtMs = order.fulfilledAtMs + order.durationSec * 1000;
    if (now() >= endsAtMs) return false;
    const reminder: ExpiryReminder = {
      chatId: order.chatId,
      orderId: order.orderId,
      receiver: order.receiver,
      amount: order.amount,
      durationSec: order.durationSec,
      endsAtMs,
      ...(order.locale === undefined ? {} : { locale: order.locale }),
    };
    // Kept a little past the end only, so a record no process fires is gone by itself.
    await schedule.set(keyOf(order.chatId, order.orderId), reminder, endsAtMs - now() + 60_000);
    arm(reminder);
    return true;
  }

  async function remove(chatId: number, orderId: string): Promise<void> {
    const key = keyOf(chatId, orderId);
    const timer = timers.get(key);
    if (timer) clearTimeout(timer);
    timers.delete(key);
    await schedule.delete(key);
  }

  return {
    remindAtMs,
    async start() {
      running = true;
      await rescan();
      rescanTimer = setInterval(rescanInBackground, rescanIntervalMs);
      logger.info({ reminders: timers.size }, "expiry reminders started");
    },
    async stop() {
      running = false;
      if (rescanTimer) clearInterval(rescanTimer);
      rescanTimer = undefined;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight, rescanning]);
    },
    async isEnabled(chatId) {
      return (await prefs.get(String(chatId)))?.enabled ?? false;
    },
    async setEnabled(chatId, enabled) {
      await prefs.set(String(chatId), { enabled });
    },
    async onFulfilled(order) {
      if (await schedule.get(keyOf(order.chatId, order.orderId))) return true;
      if (!(await this.isEnabled(order.chatId))) return false;
      return put(order);
    },
    async setForOrder(order, on) {
      if (!on) {
        await remove(order.chatId, order.orderId);
        return "off";
      }
      const endsAtMs = order.fulfilledAtMs + order.durationSec * 1000;
      // Too late to be of use: the delegation ends before a reminder could help.
      if (now() >= endsAtMs) return "too_late";
      return (await put(order)) ? "on" : "too_late";
    },
    async isScheduled(chatId, orderId) {
      return (await schedule.get(keyOf(chatId, orderId))) !== undefined;
    },
  };
}

/**
 * A fulfilled order gets its reminder scheduled (when the chat opted in) as the tracker sees it. A keep plan's
 * renewal gets none: the plan orders the next delegation before this one ends, and a reminder per renewal would
 * be a message per renewal. Subscribe before the tracking notifier: the card it draws shows the reminder's switch.
 */
export function remindWhenFulfilled(events: AppEventSubscriber, reminders: Pick<ExpiryReminders, "onFulfilled">): void {
  events.on("tracking.changed", async (change) => {
    if (change.kind !== "order" || change.record.status !== "fulfilled" || change.fulfilledAtMs === undefined || change.renewalOf !== undefined) return;
    const o = change.record;
    await reminders.onFulfilled({
      chatId: change.chatId,
      orderId: o.orderId,
      receiver: o.receiver,
      amount: o.resourceAmount,
      durationSec: o.durationSec,
      fulfilledAtMs: change.fulfilledAtMs,
      ...(change.locale === undefined ? {} : { locale: change.locale }),
    });
  });
}
