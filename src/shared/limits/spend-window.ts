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

/**
 * The window from the wall-clock time `fromWall` to `toWall` that holds `nowMs`. A boundary is the instant
 * the zone's clock reaches the wall time. Summer-time changes make that more than a sum: a wall time a
 * change repeats is reached twice (St. John's fell back at 00:01 until 2011, so its midnight came twice),
 * and one a change skips is reached at the change itself (Kiritimati went from the morning of December 30,
 * 1994 straight to January 1, 1995). The window is bounded by the reaching instants on either side of
 * `nowMs`: the usual one, and the one under the offset `nowMs` has.
 */
function windowOf(fromWall: number, toWall: number, nowMs: number, timeZone: string): SpendWindow {
  const offsetNow = zoneOffsetMs(nowMs, timeZone);
  const shows = (t: number) => t + zoneOffsetMs(t, timeZone);
  const reaches = (wall: number) => (t: number) => shows(t) >= wall && shows(t - 1) < wall;
  // The change itself is looked for only when neither usual instant bounds the window (a skipped wall time).
  const side = (wall: number, onSide: (t: number) => boolean) => {
    const usual = [wallToUtc(wall, timeZone), wall - offsetNow].filter((t) => reaches(wall)(t) && onSide(t));
    return usual.length > 0 ? usual : jumpsNear(wall - offsetNow, timeZone).filter((t) => reaches(wall)(t) && onSide(t));
  };
  const startCandidates = side(fromWall, (t) => t <= nowMs);
  const endCandidates = side(toWall, (t) => t > nowMs);
  return {
    startMs: startCandidates.length > 0 ? Math.max(...startCandidates) : wallToUtc(fromWall, timeZone),
    endMs: endCandidates.length > 0 ? Math.min(...endCandidates) : wallToUtc(toWall, timeZone),
  };
}

/** The instant the zone's offset changes within a day either side of `aroundMs`, if it does: where a skipped wall time is reached. */
function jumpsNear(aroundMs: number, timeZone: string): number[] {
  const DAY = 86_400_000;
  let low = aroundMs - DAY;
  let high = aroundMs + DAY;
  const before = zoneOffsetMs(low, timeZone);
  if (zoneOffsetMs(high, timeZone) === before) return [];
  // Bisect to the first millisecond of the new offset (zones change at whole seconds; ms precision costs ~28 steps).
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (zoneOffsetMs(mid, timeZone) === before) low = mid;
    else high = mid;
  }
  return [high];
}

/** The day and the month (of the zone's calendar) that `nowMs` falls in. */
export function spendWindows(nowMs: number, timeZone: string = DEFAULT_TIME_ZONE): SpendWindows {
  const wall = new Date(nowMs + zoneOffsetMs(nowMs, timeZone));
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  return {
    day: windowOf(Date.UTC(y, m, d), Date.UTC(y, m, d + 1), nowMs, timeZone),
    month: windowOf(Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1), nowMs, timeZone),
  };
}
