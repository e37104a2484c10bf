import { z } from "zod";
import { parseTimeZoneInput, parseUtcOffset } from "../../shared/limits/zone-input.js";
import { isOrderFinished } from "../../platform/service/schemas.js";

/**
 * A keep-charged plan: the bot keeps ENERGY delegated to one receiver by
 * ordering the next slot shortly before the current delegation ends. Slot n
 * is bought under the Idempotency-Key `keep-<planId>-<n>` (slotKey), so no
 * restart, retry or second process ever buys one slot twice.
 */

export const PLAN_STATES = ["active", "paused", "stopped"] as const;
export type PlanState = (typeof PLAN_STATES)[number];

/** user: Pause button; balance: a 402; limits: the spend guard said no (not frozen). */
export const PAUSE_REASONS = ["user", "balance", "limits"] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

export const STOP_REASONS = ["user", "ended", "undeliverable", "refused", "frozen", "unlinked"] as const;
export type StopReason = (typeof STOP_REASONS)[number];

const sunString = z.string().regex(/^\d+$/);

export const activeHoursSchema = z.object({
  /** Minutes after local midnight; `to` may be smaller than `from` (a window across midnight). */
  fromMin: z.number().int().min(0).max(1439),
  toMin: z.number().int().min(0).max(1440),
});
export type ActiveHours = z.infer<typeof activeHoursSchema>;

export const planSlotSchema = z.object({ slot: z.number().int().nonnegative(), orderId: z.string(), costSun: sunString, placedAtMs: z.number().int() });
export type PlanSlot = z.infer<typeof planSlotSchema>;

/** The newest order of the plan as last seen: placed (its first status), then each status tracking reads. */
export const lastRenewalSchema = z.object({
  orderId: z.string(),
  status: z.string(),
  /** When the bot saw this status. */
  atMs: z.number().int(),
  /** The service's creation time of the order: which of two orders is the newer one. */
  createdAtMs: z.number().int(),
});
export type LastRenewal = z.infer<typeof lastRenewalSchema>;

export const keepPlanSchema = z.object({
  planId: z.string().regex(/^[0-9a-f]{12}$/),
  chatId: z.number().int(),
  /** The chat's link when created: a re-link to another key stops the plan. */
  linkId: z.string().optional(),
  address: z.string(),
  amount: z.number().int().positive(),
  durationSec: z.number().int().positive(),
  createdAtMs: z.number().int(),
  /** No renewal is placed at or after this; absent: until stopped. */
  endsAtMs: z.number().int().optional(),
  /** Per plan and local day (timeZone), exact sun. */
  dailyCapSun: sunString.optional(),
  activeHours: activeHoursSchema.optional(),
  /** IANA name or a fixed offset `+03:00`; the plan's days and hours are read in it. */
  timeZone: z.string(),
  locale: z.string().optional(),
  state: z.enum(PLAN_STATES),
  pauseReason: z.enum(PAUSE_REASONS).optional(),
  stopReason: z.enum(STOP_REASONS).optional(),
  /** The service's code behind a stop or a pause (undeliverable, refused). */
  reasonCode: z.string().optional(),
  /** The next slot to buy (0 = the first order). */
  nextSlot: z.number().int().nonnegative(),
  /** The latest slots bought, newest last (bounded). */
  slots: z.array(planSlotSchema),
  spentTotalSun: sunString,
  spentDay: z.object({ day: z.string(), sun: sunString }),
  /** Cost of the last slot quoted, for the low-balance default and the list. */
  lastCostSun: sunString.optional(),
  /** When the scheduler looked at the plan last, what it waits for. */
  waiting: z.enum(["delivery", "lead", "hours", "cap", "balance"]).optional(),
  nextRenewalAtMs: z.number().int().optional(),
  /** Balance re-reads while paused for money. */
  balanceCheckAtMs: z.number().int().optional(),
  /**
   * The message that is the plan's card (the proposal whose Start made it), edited with the plan's
   * digest; absent for a plan made before plans had cards, which only /keep shows.
   */
  cardMessageId: z.number().int().optional(),
  lastRenewal: lastRenewalSchema.optional(),
  updatedAtMs: z.number().int(),
});
export type KeepPlan = z.infer<typeof keepPlanSchema>;

export const KEPT_SLOTS = 20;

/**
 * What the card shows of the newest order after a sighting: an older order's news never replaces a newer
 * order's, and a status seen late (the placement's answer after tracking already saw it delivered) never
 * draws a delivered order back to an earlier one.
 */
export function newerRenewal(current: LastRenewal | undefined, seen: LastRenewal): LastRenewal | undefined {
  if (current === undefined) return seen;
  if (seen.orderId !== current.orderId) return seen.createdAtMs > current.createdAtMs ? seen : undefined;
  if (seen.status === current.status || (isOrderFinished(current.status) && !isOrderFinished(seen.status))) return undefined;
  return seen;
}

/** The Idempotency-Key of one slot: the same for every attempt, process and restart. */
export function slotKey(planId: string, slot: number): string {
  return `keep-${planId}-${slot}`;
}

/** The quote record that carries one slot's key and body through the ordinary placement path. */
export function slotQuoteId(planId: string, slot: number): string {
  return `keep-${planId}-s${slot}`;
}

/** How long before the current delegation ends the next slot is bought: the lead, never more than `fraction` of the duration. */
export function renewalLeadMs(durationSec: number, leadMs: number, fraction: number): number {
  return Math.max(0, Math.min(leadMs, Math.floor(durationSec * 1000 * fraction)));
}

// ---- time zones -------------------------------------------------------------

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** "UTC", an IANA name Intl knows, a city ("moscow", "上海"), or a fixed offset (`+03:00`, `-0530`, `UTC+3`); undefined when none of these. */
export function normalizeTimeZone(input: string): string | undefined {
  const text = input.trim();
  // A plan keeps an offset as "+HH:MM" (its own arithmetic reads it), so half hours work here too.
  const offset = parseUtcOffset(text);
  if (offset !== undefined) {
    if (offset === 0) return "UTC";
    const abs = Math.abs(offset);
    return `${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  }
  const parsed = parseTimeZoneInput(text);
  return parsed.ok ? parsed.zone : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `atMs` (DST included for IANA zones). */
export function zoneOffsetMs(timeZone: string, atMs: number): number {
  const offset = OFFSET.exec(timeZone);
  if (offset) return (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(atMs));
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(atMs / 1000) * 1000;
}

/** The local day (`YYYY-MM-DD`) of `atMs` in the zone. */
export function localDay(timeZone: string, atMs: number): string {
  return new Date(atMs + zoneOffsetMs(timeZone, atMs)).toISOString().slice(0, 10);
}

/** What the plan spent on its current local day (nothing yet when its last spend was on an earlier day). */
export function spentTodaySun(plan: Pick<KeepPlan, "spentDay" | "timeZone">, nowMs: number): bigint {
  return plan.spentDay.day === localDay(plan.timeZone, nowMs) ? BigInt(plan.spentDay.sun) : 0n;
}

/** Minutes after local midnight. */
export function localMinute(timeZone: string, atMs: number): number {
  const wall = new Date(atMs + zoneOffsetMs(timeZone, atMs));
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/** The start of the next local day (read with the offset of `atMs`; a DST change that night shifts it by that hour). */
export function nextDayStartMs(timeZone: string, atMs: number): number {
  const offset = zoneOffsetMs(timeZone, atMs);
  const wall = atMs + offset;
  return Math.floor(wall / 86_400_000) * 86_400_000 + 86_400_000 - offset;
}

export function isWithinHours(hours: ActiveHours, minute: number): boolean {
  if (hours.fromMin === hours.toMin) return true;
  if (hours.fromMin < hours.toMin) return minute >= hours.fromMin && minute < hours.toMin;
  return minute >= hours.fromMin || minute < hours.toMin;
}

/** When the active window opens next after `atMs` (which lies outside it). */
export function nextWindowStartMs(timeZone: string, hours: ActiveHours, atMs: number): number {
  const offset = zoneOffsetMs(timeZone, atMs);
  const wall = atMs + offset;
  const midnight = Math.floor(wall / 86_400_000) * 86_400_000;
  let start = midnight + hours.fromMin * 60_000;
  if (start <= wall) start += 86_400_000;
  return start - offset;
}

/** `09:00-18:00` (also `9-18`, `09:00–18:00`): minutes after midnight; undefined when unreadable. */
export function parseActiveHours(text: string): ActiveHours | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*[-–—]\s*(\d{1,2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const from = Number(m[1]) * 60 + Number(m[2] ?? 0);
  const to = Number(m[3]) * 60 + Number(m[4] ?? 0);
  if (Number(m[1]) > 23 || Number(m[3]) > 24 || Number(m[2] ?? 0) > 59 || Number(m[4] ?? 0) > 59 || to > 1440) return undefined;
  return { fromMin: from, toMin: to };
}

export function formatHours(hours: ActiveHours): string {
  const hm = (min: number) => `${String(Math.floor(min / 60)).padStart(2, "0")}:${String(min % 60).padStart(2, "0")}`;
  return `${hm(hours.fromMin)}–${hm(hours.toMin)}`;
}
