import { MIN_TIME_LEFT_MS } from "../../core/tron/index.js";
import { translate } from "./html.js";
import type { Translator } from "./record-text.js";

/**
 * When things end, in one place: the delegation of a fulfilled order and the
 * last moment a failed broadcast's signed transaction may be sent again.
 * Times are shown in UTC and say so (the bot has no user timezone yet);
 * `timeZone` is the one parameter a per-chat setting would pass.
 */

const DAY_MS = 24 * 60 * 60_000;

/** "14:05", or "Nov 24, 14:05" when the day is not `nowMs`'s (in the zone), in the locale's way; never AM/PM. */
export function clockText(atMs: number, nowMs: number, locale: string, timeZone = "UTC"): string {
  const day = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
  const sameDay = Math.abs(atMs - nowMs) < DAY_MS && day(atMs) === day(nowMs);
  const options: Intl.DateTimeFormatOptions = {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(sameDay ? {} : { month: "short", day: "numeric" }),
  };
  return new Intl.DateTimeFormat(locale, options).format(atMs);
}

/** "in 3 min", "in under a minute", "in 1 h 5 min" (rounded up to the minute, as a clock reads). */
export function remainingText(tr: Translator, ms: number): string {
  if (ms < 60_000) return translate(tr, "expiry-in-seconds");
  const minutes = Math.ceil(ms / 60_000);
  return translate(tr, "expiry-in-minutes", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The delegation's end: "Energy delegated until 14:05 UTC (in 3 min)", or "ended at 14:05 UTC". */
export function delegationEndText(tr: Translator, endsAtMs: number, nowMs: number, locale: string): string {
  const time = clockText(endsAtMs, nowMs, locale);
  if (nowMs >= endsAtMs) return translate(tr, "expiry-delegation-ended", { time });
  return translate(tr, "expiry-delegation-until", { time, remaining: remainingText(tr, endsAtMs - nowMs) });
}

/** A short form for history rows: "until 14:05 UTC" / "ended 14:05 UTC". */
export function delegationEndShort(tr: Translator, endsAtMs: number, nowMs: number, locale: string): string {
  const time = clockText(endsAtMs, nowMs, locale);
  return translate(tr, nowMs >= endsAtMs ? "expiry-row-ended" : "expiry-row-until", { time });
}

/** API section 3 rule 2: after `failed` the same transaction may go again while it has the service's minimum left. */
export function canResend(status: string, txExpirationMs: number, nowMs: number): boolean {
  return status === "failed" && txExpirationMs - nowMs >= MIN_TIME_LEFT_MS;
}

/** The card's last line for a broadcast that ended without landing: what can still be done with its transaction. */
export function broadcastEndLine(tr: Translator, status: string, txExpirationMs: number, nowMs: number, locale: string): string | undefined {
  if (status !== "failed" && status !== "expired") return undefined;
  if (!canResend(status, txExpirationMs, nowMs)) return translate(tr, "expiry-broadcast-resign");
  return translate(tr, "expiry-broadcast-resendable", { time: clockText(txExpirationMs - MIN_TIME_LEFT_MS, nowMs, locale) });
}
