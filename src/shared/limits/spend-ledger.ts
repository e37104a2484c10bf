import { chargeSunOf, SPEND_BUCKET_MS, type SpendRecord } from "../orders/order-history.js";
import type { SpendWindow, SpendWindows } from "./spend-window.js";

/**
 * What a chat spent in its day and month, from the history: the charges of
 * the listed entries by creation time, plus the archived charges of entries
 * past the history's limit (whole 15-minute buckets, and every zone's day
 * starts on one, so none is split).
 */

export interface Spent {
  daySun: bigint;
  monthSun: bigint;
}

function within(atMs: number, window: SpendWindow): boolean {
  return atMs >= window.startMs && atMs < window.endMs;
}

export function spentIn(record: SpendRecord | undefined, windows: SpendWindows): Spent {
  let daySun = 0n;
  let monthSun = 0n;
  if (!record) return { daySun, monthSun };
  for (const entry of record.entries) {
    const charge = chargeSunOf(entry);
    if (charge === 0n) continue;
    if (within(entry.createdAtMs, windows.day)) daySun += charge;
    if (within(entry.createdAtMs, windows.month)) monthSun += charge;
  }
  for (const [bucket, sun] of Object.entries(record.archived)) {
    const atMs = Number(bucket) * SPEND_BUCKET_MS;
    if (within(atMs, windows.day)) daySun += BigInt(sun);
    if (within(atMs, windows.month)) monthSun += BigInt(sun);
  }
  return { daySun, monthSun };
}
