/**
 * The user's day and month as UTC instants, for the spend limits. Pure: the
 * time zone is an IANA name (UTC when the chat has none) and `Intl` supplies
 * its offset at an instant, summer time included.
 */

export interface SpendWindow {
  /** Inclusive start, epoch ms. */
  startMs: number;
  /** Exclusive end, epoch ms. */
  endMs: number;
}

export interface SpendWindows {
  day: SpendWindow;
  month: SpendWindow;
}

export const DEFAULT_TIME_ZONE = "UTC";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for a time zone `Intl` knows ("Europe/Moscow", "UTC"). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** How far the zone's wall clock is ahead of UTC at `atMs`, in ms (east positive). */
export function zoneOffsetMs(atMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(atMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts["year"] ?? 1970, (parts["month"] ?? 1) - 1, parts["day"] ?? 1, parts["hour"] ?? 0, parts["minute"] ?? 0, parts["second"] ?? 0);
  const whole = atMs - (((atMs % 1000) + 1000) % 1000);
  return wall - whole;
}

/** The UTC instant of a wall-clock time in the zone (the offset read at that instant, so a summer-time change is met). */
export function wallToUtc(wallMs: number, timeZone: string): number {
  const guess = wallMs - zoneOffsetMs(wallMs, timeZone);
  return wallMs - zoneOffsetMs(guess, timeZone);
}

/** The day and the month (of the zone's calendar) that `nowMs` falls in. */
export function spendWindows(nowMs: number, timeZone: string = DEFAULT_TIME_ZONE): SpendWindows {
  const wall = new Date(nowMs + zoneOffsetMs(nowMs, timeZone));
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  return {
    day: { startMs: wallToUtc(Date.UTC(y, m, d), timeZone), endMs: wallToUtc(Date.UTC(y, m, d + 1), timeZone) },
    month: { startMs: wallToUtc(Date.UTC(y, m, 1), timeZone), endMs: wallToUtc(Date.UTC(y, m + 1, 1), timeZone) },
  };
}
