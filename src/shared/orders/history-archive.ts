import { chargeSunOf, type HistoryEntry } from "./history-entry.js";

/** Width of a bucket of `archivedSpend`: every time zone's offset is a multiple of it, so a day or month is whole buckets. */
export const SPEND_BUCKET_MS = 15 * 60_000;
/** How far back any spend window reaches (a month and a day, with room): older charges never count again. */
export const ARCHIVE_KEEP_MS = 40 * 24 * 60 * 60_000;

export type SpendArchive = Readonly<Record<string, string>>;

/** Adds the charges of `dropped` to the archive and forgets buckets no window reaches any more. */
export function archived(archive: SpendArchive | undefined, dropped: readonly HistoryEntry[]): Record<string, string> | undefined {
  const next: Record<string, bigint> = {};
  for (const [bucket, sun] of Object.entries(archive ?? {})) next[bucket] = BigInt(sun);
  for (const entry of dropped) {
    const charge = chargeSunOf(entry);
    if (charge === 0n) continue;
    const bucket = String(Math.floor(entry.createdAtMs / SPEND_BUCKET_MS));
    next[bucket] = (next[bucket] ?? 0n) + charge;
  }
  const buckets = Object.keys(next).map(Number);
  if (buckets.length === 0) return undefined;
  const oldest = Math.max(...buckets) - ARCHIVE_KEEP_MS / SPEND_BUCKET_MS;
  return Object.fromEntries(
    Object.entries(next)
      .filter(([bucket]) => Number(bucket) >= oldest)
      .map(([bucket, sun]) => [bucket, sun.toString()]),
  );
}

export function mergedArchives(a: SpendArchive | undefined, b: SpendArchive | undefined): Record<string, string> | undefined {
  if (a === undefined && b === undefined) return undefined;
  const out: Record<string, string> = { ...a };
  for (const [bucket, sun] of Object.entries(b ?? {})) out[bucket] = (BigInt(out[bucket] ?? "0") + BigInt(sun)).toString();
  return out;
}
