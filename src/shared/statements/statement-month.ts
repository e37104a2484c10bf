/**
 * The month a statement covers: read from what the user typed and turned into
 * UTC instants of the chat's time zone (its first midnight up to the next
 * month's), so an order at 23:30 UTC on the 31st lands in the month that
 * the chat's own calendar says.
 */
import { wallToUtc, zoneOffsetMs, type SpendWindow } from "../limits/spend-window.js";
import { dateTimeFormat } from "../date-formats.js";

export interface StatementMonth {
  year: number;
  /** 1..12 */
  month: number;
}

const EARLIEST_YEAR = 2000;
const LATEST_YEAR = 2100;

const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})$/;
const MONTH_FIRST = /^(\d{1,2})[-/.](\d{4})$/;

/** "2026-11", "2026/11", "11.2026", "11/2026" or "11-2026"; undefined for anything else. */
export function parseStatementMonth(text: string): StatementMonth | undefined {
  const trimmed = text.trim();
  const yearFirst = YEAR_FIRST.exec(trimmed);
  const monthFirst = yearFirst ? undefined : MONTH_FIRST.exec(trimmed);
  const year = Number(yearFirst?.[1] ?? monthFirst?.[2]);
  const month = Number(yearFirst?.[2] ?? monthFirst?.[1]);
  if (!Number.isInteger(year) || !Number.isInteger(month)) return undefined;
  if (month < 1 || month > 12 || year < EARLIEST_YEAR || year > LATEST_YEAR) return undefined;
  return { year, month };
}

/** The month the zone's calendar shows at `nowMs`. */
export function monthAt(nowMs: number, timeZone: string): StatementMonth {
  const wall = new Date(nowMs + zoneOffsetMs(nowMs, timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1 };
}

/** Inclusive start and exclusive end of the month in the zone, as UTC epoch ms. */
export function monthWindow(m: StatementMonth, timeZone: string): SpendWindow {
  return { startMs: wallToUtc(Date.UTC(m.year, m.month - 1, 1), timeZone), endMs: wallToUtc(Date.UTC(m.year, m.month, 1), timeZone) };
}

/** Days in the month (28..31). */
export function daysIn(m: StatementMonth): number {
  return new Date(Date.UTC(m.year, m.month, 0)).getUTCDate();
}

/** 1-based day of the month in the zone's calendar for an instant inside the month. */
export function dayOfMonth(atMs: number, timeZone: string): number {
  return new Date(atMs + zoneOffsetMs(atMs, timeZone)).getUTCDate();
}

/** "2026-11": the form the statement, its file and its chart are named by. */
export function monthLabel(m: StatementMonth): string {
  return `${String(m.year)}-${String(m.month).padStart(2, "0")}`;
}

/** ISO 8601 with the zone's offset at that instant: "2026-12-01T07:30:00+08:00". */
export function isoInZone(atMs: number, timeZone: string): string {
  const offsetMs = zoneOffsetMs(atMs, timeZone);
  const wall = new Date(atMs + offsetMs).toISOString().slice(0, 19);
  const sign = offsetMs < 0 ? "-" : "+";
  const minutes = Math.abs(offsetMs) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${wall}${sign}${hh}:${mm}`;
}

/** "November 2026" / "ноябрь 2026 г." / "2026年11月", from the calendar month alone. */
export function monthName(m: StatementMonth, locale: string): string {
  return dateTimeFormat(locale, { year: "numeric", month: "long", timeZone: "UTC" }).format(Date.UTC(m.year, m.month - 1, 15));
}

/** The month before and after `m`. */
export function shiftMonth(m: StatementMonth, by: -1 | 1): StatementMonth {
  const index = m.year * 12 + (m.month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}
