import { z } from "zod";
import { hasRefund, type HistoryEntry } from "./history-entry.js";

/** What the meta record knows of a chunk without reading it: enough to count a filter over whole chunks. */
export const chunkStatsSchema = z.object({
  n: z.number().int(),
  count: z.number().int(),
  orders: z.number().int(),
  minMs: z.number().int(),
  maxMs: z.number().int(),
});
export type ChunkStats = z.infer<typeof chunkStatsSchema>;

export function chunkStats(n: number, entries: readonly HistoryEntry[]): ChunkStats {
  const times = entries.map((e) => e.createdAtMs);
  return {
    n,
    count: entries.length,
    orders: entries.filter((e) => e.kind === "order").length,
    minMs: times.length === 0 ? 0 : Math.min(...times),
    maxMs: times.length === 0 ? 0 : Math.max(...times),
  };
}

/** Which entries a history page lists: one kind, and/or created within [fromMs, toMs), refunded, to one receiver. */
export interface HistoryFilter {
  kind?: HistoryEntry["kind"];
  fromMs?: number;
  toMs?: number;
  /** Only entries whose money came back (`hasRefund`: the statement's refund lines). */
  refunded?: true;
  /** Only entries to this address, exactly (an order's receiver, a broadcast's recipient). */
  receiver?: string;
}

export interface LedgerPage {
  entries: HistoryEntry[];
  page: number;
  pages: number;
  total: number;
}

function matchesFilter(entry: HistoryEntry, filter: HistoryFilter): boolean {
  if (filter.kind !== undefined && entry.kind !== filter.kind) return false;
  if (filter.fromMs !== undefined && entry.createdAtMs < filter.fromMs) return false;
  if (filter.refunded === true && !hasRefund(entry)) return false;
  if (filter.receiver !== undefined && entry.address !== filter.receiver) return false;
  return filter.toMs === undefined || entry.createdAtMs < filter.toMs;
}

/** How many of a chunk's entries match, from its stats alone; undefined when only reading it can tell. */
function countFromStats(c: ChunkStats, filter: HistoryFilter): number | undefined {
  if (c.count === 0) return 0;
  const before = filter.fromMs !== undefined && c.maxMs < filter.fromMs;
  const after = filter.toMs !== undefined && c.minMs >= filter.toMs;
  if (before || after) return 0;
  const inside = (filter.fromMs === undefined || c.minMs >= filter.fromMs) && (filter.toMs === undefined || c.maxMs < filter.toMs);
  // The stats count kinds only: a refund or a receiver is known by reading the chunk.
  if (!inside || filter.refunded === true || filter.receiver !== undefined) return undefined;
  if (filter.kind === "order") return c.orders;
  if (filter.kind === "broadcast") return c.count - c.orders;
  return c.count;
}

/**
 * One page of the matching entries, newest first, over chunks listed newest first. Only the chunks a
 * filter splits (a month's first and last) and those the page itself lists are read.
 */
export async function pageOf(
  list: readonly ChunkStats[],
  read: (n: number) => Promise<HistoryEntry[]>,
  page: number,
  pageSize: number,
  filter: HistoryFilter,
): Promise<LedgerPage> {
  const cache = new Map<number, HistoryEntry[]>();
  const matching = async (n: number) => {
    let entries = cache.get(n);
    if (!entries) {
      entries = (await read(n)).filter((e) => matchesFilter(e, filter));
      cache.set(n, entries);
    }
    return entries;
  };
  const counts: number[] = [];
  for (const c of list) counts.push(countFromStats(c, filter) ?? (await matching(c.n)).length);
  const total = counts.reduce((sum, n) => sum + n, 0);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // The page comes from button data, which can be forged: anything but a finite number is the first page.
  const p = Number.isFinite(page) ? Math.min(Math.max(0, Math.trunc(page)), pages - 1) : 0;
  const first = p * pageSize;
  const entries: HistoryEntry[] = [];
  let seen = 0;
  for (const [i, c] of list.entries()) {
    const count = counts[i] ?? 0;
    if (entries.length >= pageSize) break;
    if (count > 0 && seen + count > first) {
      const own = await matching(c.n);
      entries.push(...own.slice(Math.max(0, first - seen), Math.max(0, first - seen) + pageSize - entries.length));
    }
    seen += count;
  }
  return { entries, page: p, pages, total };
}
