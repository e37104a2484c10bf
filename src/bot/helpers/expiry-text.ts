import { MIN_TIME_LEFT_MS } from "../../shared/tron/index.js";
import { dateTimeFormat } from "../../shared/date-formats.js";
import { utcOffsetText } from "../../shared/limits/zone-input.js";
import { formatInteger } from "./format.js";
import { code, translate } from "./html.js";
import { durationText, type Translator } from "./record-text.js";

/**
 * When things end, in one place: the delegation of a fulfilled order and the
 * last moment a failed broadcast's signed transaction may be sent again.
 * Every clock time the bot shows is in the chat's zone and names it by its
 * offset at that instant: "14:05 UTC", "15:05 UTC+1", "Nov 24, 22:05 UTC+8".
 */

const DAY_MS = 24 * 60 * 60_000;

const DAY_OPTIONS = (timeZone: string): Intl.DateTimeFormatOptions => ({ timeZone, year: "numeric", month: "2-digit", day: "2-digit" });

/** "14:05 UTC+1", or "Nov 24, 14:05 UTC+1" when the day is not `nowMs`'s (in the zone), in the locale's way; never AM/PM. */
export function clockText(atMs: number, nowMs: number, locale: string, timeZone: string): string {
  const day = dateTimeFormat("en-CA", DAY_OPTIONS(timeZone));
  const sameDay = Math.abs(atMs - nowMs) < DAY_MS && day.format(atMs) === day.format(nowMs);
  const options: Intl.DateTimeFormatOptions = {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(sameDay ? {} : { month: "short", day: "numeric" }),
  };
  return `${dateTimeFormat(locale, options).format(atMs)} ${utcOffsetText(timeZone, atMs)}`;
}

/** "in 3 min", "in under a minute", "in 1 h 5 min" (rounded up to the minute, as a clock reads). */
export function remainingText(tr: Translator, ms: number): string {
  if (ms < 60_000) return translate(tr, "expiry-in-seconds");
  const minutes = Math.ceil(ms / 60_000);
  return translate(tr, "expiry-in-minutes", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The delegation's end: "Energy delegated until 14:05 UTC+1 (in 3 min)", or "ended at 14:05 UTC+1"; "in 3 min" from `nowMs`, the moment it is drawn. */
export function delegationEndText(tr: Translator, endsAtMs: number, nowMs: number, locale: string, timeZone: string): string {
  const time = clockText(endsAtMs, nowMs, locale, timeZone);
  if (nowMs >= endsAtMs) return translate(tr, "expiry-delegation-ended", { time });
  return translate(tr, "expiry-delegation-until", { time, remaining: remainingText(tr, endsAtMs - nowMs) });
}

/** API section 3 rule 2: after `failed` the same transaction may go again while it has the service's minimum left. */
export function canResend(status: string, txExpirationMs: number, nowMs: number): boolean {
  return status === "failed" && txExpirationMs - nowMs >= MIN_TIME_LEFT_MS;
}

/** The card's last line for a broadcast that ended without landing: what can still be done with its transaction. */
export function broadcastEndLine(tr: Translator, status: string, txExpirationMs: number, nowMs: number, locale: string, timeZone: string): string | undefined {
  if (status !== "failed" && status !== "expired") return undefined;
  if (!canResend(status, txExpirationMs, nowMs)) return translate(tr, "expiry-broadcast-resign");
  return translate(tr, "expiry-broadcast-resendable", { time: clockText(txExpirationMs - MIN_TIME_LEFT_MS, nowMs, locale, timeZone) });
}

/** "⏰ Energy for <receiver> ends at 14:05 UTC+3 (in 5 min) …": the reminder as sent, or drawn again in a newly picked zone. */
export function expiryReminderText(
  tr: Translator,
  r: { receiver: string; endsAtMs: number; amount: number; durationSec: number; orderId: string },
  nowMs: number,
  locale: string,
  timeZone: string,
): string {
  return translate(tr, "expiry-reminder", {
    receiver: code(r.receiver),
    time: clockText(r.endsAtMs, nowMs, locale, timeZone),
    remaining: remainingText(tr, r.endsAtMs - nowMs),
    amount: formatInteger(r.amount, locale),
    duration: durationText(tr, r.durationSec),
    orderId: code(r.orderId),
  });
}
