import type { Logger } from "pino";
import { z } from "zod";
import type { ChatZones } from "../../shared/limits/chat-zone.js";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { localDay, type KeepPlan } from "./keep-plan.js";
import { spendWindows } from "../../shared/limits/spend-window.js";
import type { KeepStore } from "./keep-store.js";

/**
 * The opt-in daily summary of a chat's keep plans (off by default): after the chat's local midnight,
 * one message about the day that ended, with the orders and the spend of each plan that renewed
 * that day. Looked at from the plans' own tick, so no timer of its own: the first tick after
 * midnight sends it. The day's orders are read from the history, where every renewal is recorded
 * with its plan (`renewalOf`), so the day is the chat's, whatever zone a plan counts its caps in.
 *
 * Exactly once per chat and day: the message's push job id is the chat and the day (a repeat after
 * a crash, or a second process looking too, is dropped by the queue), and a per-chat mark of the
 * last day looked at keeps later ticks, restarts included, from looking again.
 */

const prefsSchema = z.object({ enabled: z.boolean() });
/** The last local day of the chat that was summed up (or passed by while the summary was off). */
const markSchema = z.object({ lastDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });
type DayMark = z.infer<typeof markSchema>;

const DAY_MS = 86_400_000;
/** Long enough for one chat's look; a process that dies holding it frees it by itself. */
const CLAIM_TTL_MS = 30_000;
const HOUR_MS = 3_600_000;
/** History entries read per page while counting a day. */
const PAGE_SIZE = 500;

export interface KeepDayPlanLine {
  planId: string;
  /** The plan as stored now; absent when it is gone (the line then names the orders' receiver). */
  plan?: KeepPlan;
  address: string;
  orders: number;
  spentSun: string;
}

export interface KeepDaySummary {
  chatId: number;
  /** The chat's local day summed up, `YYYY-MM-DD`. */
  day: string;
  /** Its start in the chat's zone (for the date shown). */
  dayStartMs: number;
  timeZone: string;
  plans: KeepDayPlanLine[];
}

export interface KeepDaySummariesDeps {
  store: StoreBackend;
  logger: Logger;
  now: () => number;
  zones: Pick<ChatZones, "zoneOf">;
  history: Pick<OrderHistory, "page">;
  plans: Pick<KeepStore, "get">;
  /** Sends one chat's summary (through the push queue, job id from chat and day). Throwing means "look again at the next tick". */
  send: (summary: KeepDaySummary) => Promise<void>;
  /** A lease, so one process sums a chat's day up while every process ticks; default: always this one. */
  claim?: (key: string, ttlMs: number) => Promise<boolean>;
  /** Gives the lease up once the day is summed up (a process stopped meanwhile leaves it to run out). */
  release?: (key: string) => Promise<void>;
}

export interface KeepDaySummaries {
  isEnabled(chatId: number): Promise<boolean>;
  setEnabled(chatId: number, enabled: boolean): Promise<void>;
  /** Sums up the day that ended for each chat whose local midnight passed since its last look. */
  look(chatIds: ReadonlySet<number>): Promise<void>;
}

interface DayOfPlan {
  address: string;
  orders: number;
  sun: bigint;
  /** The day's first order of the plan. */
  firstAtMs: number;
}

/** The day before `day` (`YYYY-MM-DD`). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

export function createKeepDaySummaries(deps: KeepDaySummariesDeps): KeepDaySummaries {
  const logger = deps.logger.child({ component: "keep-day-summaries" });
  const prefs = createRecordStore({ kv: deps.store.namespace("keep-day-prefs"), schema: prefsSchema, version: 1, logger, name: "keep-day-prefs" });
  const marks = createRecordStore({ kv: deps.store.namespace("keep-day-marks"), schema: markSchema, version: 1, logger, name: "keep-day-marks" });
  /** Per chat, when its next local day starts: until then a tick reads nothing for it. */
  const nextLookAtMs = new Map<number, number>();
  const claim = deps.claim ?? (() => Promise.resolve(true));

  /** The day's renewals of the chat's plans, by plan. */
  async function renewalsOf(chatId: number, fromMs: number, toMs: number): Promise<Map<string, DayOfPlan>> {
    const byPlan = new Map<string, DayOfPlan>();
    for (let page = 0; ; page += 1) {
      const { entries, pages } = await deps.history.page(chatId, page, PAGE_SIZE, { kind: "order", fromMs, toMs });
      for (const e of entries) {
        // The account's other chats' plans are summed up in those chats.
        if (e.renewalOf === undefined || (e.chatId !== undefined && e.chatId !== chatId)) continue;
        const line = byPlan.get(e.renewalOf) ?? { address: e.address ?? "", orders: 0, sun: 0n, firstAtMs: e.createdAtMs };
        line.orders += 1;
        line.sun += BigInt(e.totalCostSun ?? 0);
        line.firstAtMs = Math.min(line.firstAtMs, e.createdAtMs);
        byPlan.set(e.renewalOf, line);
      }
      if (page >= pages - 1) break;
    }
    return byPlan;
  }

  async function lookAt(chatId: number, nowMs: number): Promise<void> {
    const { zone } = await deps.zones.zoneOf(chatId);
    const today = localDay(zone, nowMs);
    // The zone's own day windows: a day of a summer-time change is 23 or 25 hours long.
    const todayWindow = spendWindows(nowMs, zone).day;
    const yesterdayWindow = spendWindows(todayWindow.startMs - 1, zone).day;
    const yesterday = dayBefore(today);
    const due = (mark: DayMark | undefined) => mark === undefined || mark.lastDay < yesterday;
    if (due(await marks.get(String(chatId)))) {
      const key = `keep-day:${chatId}`;
      // Another process is summing this day up: the next tick finds its mark.
      if (!(await claim(key, CLAIM_TTL_MS))) return;
      try {
        await closeDay(chatId, zone, yesterday, yesterdayWindow);
      } finally {
        await deps.release?.(key);
      }
    }
    // Within the hour at most: a zone the chat changed meanwhile moves its midnight.
    nextLookAtMs.set(chatId, Math.min(todayWindow.endMs, nowMs + HOUR_MS));
  }

  /** Under the chat's claim: its day that ended, summed up and sent when the chat asked for it, then marked. */
  async function closeDay(chatId: number, zone: string, yesterday: string, window: { startMs: number; endMs: number }): Promise<void> {
    // Read again under the claim: a process that held it before may have summed the day up meanwhile.
    const mark = await marks.get(String(chatId));
    if (mark !== undefined && mark.lastDay >= yesterday) return;
    // First sight of the chat: its summaries start with today (a day before the bot looked is not sent at once).
    const enabled = mark !== undefined && (await prefs.get(String(chatId)))?.enabled === true;
    let plans: KeepDayPlanLine[] = [];
    if (enabled) {
      plans = await dayLines(chatId, window.startMs, window.endMs);
      if (plans.length > 0) await deps.send({ chatId, day: yesterday, dayStartMs: window.startMs, timeZone: zone, plans });
    }
    logger.info({ chatId, day: yesterday, enabled, plans: plans.length }, "keep plans' day closed");
    // Moved on also while the summary is off: turned on, it sums up from the day it was turned on.
    await marks.update(String(chatId), (current) => (current !== undefined && current.lastDay >= yesterday ? current : { lastDay: yesterday }));
  }

  /** Oldest plan first; a plan no longer stored by its first order of the day. */
  async function dayLines(chatId: number, fromMs: number, toMs: number): Promise<KeepDayPlanLine[]> {
    const lines: (KeepDayPlanLine & { sinceMs: number })[] = [];
    for (const [planId, line] of await renewalsOf(chatId, fromMs, toMs)) {
      const plan = await deps.plans.get(planId);
      lines.push({
        planId,
        ...(plan === undefined ? {} : { plan }),
        address: plan?.address ?? line.address,
        orders: line.orders,
        spentSun: line.sun.toString(),
        sinceMs: plan?.createdAtMs ?? line.firstAtMs,
      });
    }
    return lines.sort((a, b) => a.sinceMs - b.sinceMs).map(({ sinceMs: _since, ...line }) => line);
  }

  return {
    async isEnabled(chatId) {
      return (await prefs.get(String(chatId)))?.enabled ?? false;
    },
    async setEnabled(chatId, enabled) {
      await prefs.set(String(chatId), { enabled });
    },
    async look(chatIds) {
      const nowMs = deps.now();
      for (const chatId of chatIds) {
        if (nowMs < (nextLookAtMs.get(chatId) ?? 0)) continue;
        await lookAt(chatId, nowMs).catch((error: unknown) =>
          logger.warn({ err: error, chatId }, "keep daily summary not looked at; the next tick tries again"),
        );
      }
    },
  };
}
