import type { AppEventSubscriber } from "../../shared/events.js";
import type { Logger } from "pino";
import { z } from "zod";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * Opt-in reminders shortly before an order's delegation ends (docs/expiry.md).
 *
 * A chat turns them on for every order (`setEnabled`, /settings) or for one
 * order (`setForOrder`, the card's toggle). Each reminder is a timed job
 * (`platform/jobs/`): stored per (chat, order), so it survives
 * restarts and is seen by every process, run by one process under a lease,
 * again after a failed announcement. The time to remind is computed from the
 * order's end and the lead configured now, so a changed lead applies to stored
 * reminders too; the announcement's deterministic job id makes a second run
 * harmless.
 */

const DEFAULT_EXPIRY_REMINDERS = {
  /** How long before the end the chat is reminded. */
  leadMs: 5 * 60_000,
  /** The lead never exceeds this share of the duration, so a 1m order is still reminded (at half its duration). */
  maxLeadPercent: 50,
  /** How often the store is read again for reminders another process scheduled. */
  rescanIntervalMs: 60_000,
} as const;

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
  jobs: JobsEngine;
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
  const prefs = createRecordStore({
    kv: deps.store.namespace("expiry-reminder-prefs"),
    schema: prefsSchema,
    version: 1,
    logger,
    name: "expiry-reminder-prefs",
  });

  function remindAtMs(endsAtMs: number, durationSec: number): number {
    const cap = Math.floor((durationSec * 1000 * maxLeadPercent) / 100);
    return endsAtMs - Math.min(leadMs, cap);
  }

  const schedule = deps.jobs.define({
    kind: "expiry-reminder",
    namespace: "expiry-reminders",
    schema: expiryReminderSchema,
    version: 1,
    logger,
    now,
    rescanIntervalMs: deps.rescanIntervalMs ?? DEFAULT_EXPIRY_REMINDERS.rescanIntervalMs,
    ...(deps.claim ? { claim: deps.claim } : {}),
    dueAtMs: (reminder) => remindAtMs(reminder.endsAtMs, reminder.durationSec),
    async run(reminder) {
      if (now() >= reminder.endsAtMs) {
        logger.info({ chatId: reminder.chatId, orderId: reminder.orderId }, "delegation ended before its reminder could go out");
        return;
      }
      await deps.announce(reminder);
    },
  });

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
    await schedule.schedule(keyOf(order.chatId, order.orderId), reminder, endsAtMs - now() + 60_000);
    return true;
  }

  return {
    remindAtMs,
    start: () => schedule.start(),
    stop: () => schedule.stop(),
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
        await schedule.cancel(keyOf(order.chatId, order.orderId));
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
