import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../store/record-store.js";
import type { StoreBackend } from "../store/types.js";

/**
 * Index of the orders and broadcasts made through the bot, newest first, with
 * the last status seen (the tracker keeps it current) so the history pages
 * render without one service call per line.
 *
 * Kept per chat AND account (`accountOf`): every method takes the chat and
 * works on the account the chat is linked to now, so after a re-link to
 * another account the chat sees only that account's records, and re-linking
 * the first account brings its own back. An unlinked chat has no history to
 * read or write. Records of the per-chat era (key = chat id) and records kept
 * under an alias of the account are moved into the account's record the first
 * time the chat is used linked; see docs/orders.md.
 */

export const HISTORY_LIMIT = 500;

export const historyEntrySchema = z.object({
  kind: z.enum(["order", "broadcast"]),
  id: z.string(),
  createdAtMs: z.number().int(),
  status: z.string(),
  /** order: receiver; broadcast: recipient (when known). */
  address: z.string().optional(),
  /** order: energy amount. */
  amount: z.number().int().optional(),
  durationSec: z.number().int().optional(),
  /**
   * order: when the bot first saw it `fulfilled` (webhook or poll). The service's record has no
   * fulfilment time, so this is the delegation's start as far as the bot can know (docs/orders.md).
   */
  fulfilledAtMs: z.number().int().optional(),
  totalCostSun: z.number().int().optional(),
  /** broadcast: usdt | trx | contract (as read locally). */
  txKind: z.string().optional(),
  amountAtomic: z.string().optional(),
  amountSun: z.string().optional(),
  /** broadcast, contract: the call's type and contract, as read locally. */
  contractType: z.string().optional(),
  contractAddress: z.string().optional(),
  /** broadcast: the signed transaction's id (finds the broadcast behind a duplicate_tx). */
  txId: z.string().optional(),
  /**
   * broadcast: `totalCostSun` is the bot's highest estimate, recorded at acceptance (the 202 carries
   * no fee); the first read of the record replaces it with what the service charged.
   */
  costEstimated: z.boolean().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Width of a bucket of `archivedSpend`: every time zone's offset is a multiple of it, so a day or month is whole buckets. */
export const SPEND_BUCKET_MS = 15 * 60_000;
/** Archived buckets older than this (before the newest archived one) are dropped: no window reaches that far. */
const ARCHIVE_KEEP_MS = 40 * 24 * 60 * 60_000;

const historySchema = z.object({
  entries: z.array(historyEntrySchema),
  /**
   * What entries pushed out by `HISTORY_LIMIT` had charged, per `SPEND_BUCKET_MS` bucket of their
   * creation (bucket index -> sun, decimal string), so the spend limits never undercount a busy month.
   */
  archivedSpend: z.record(z.string(), z.string().regex(/^\d+$/)).optional(),
});
type HistoryRecord = z.infer<typeof historySchema>;

/** What the chat's account spent through the bot, as the history knows it. */
export interface SpendRecord {
  entries: readonly HistoryEntry[];
  /** Charges of entries no longer listed: bucket index (`SPEND_BUCKET_MS`) -> sun. */
  archived: Readonly<Record<string, string>>;
}

const REFUNDED_BROADCAST = new Set(["failed", "expired"]);

/**
 * The sun an entry took from the balance: an order its cost; a broadcast its fee (estimated until read),
 * or nothing once it ended `failed`/`expired`, since the service refunds those.
 */
export function chargeSunOf(entry: HistoryEntry): bigint {
  if (entry.totalCostSun === undefined) return 0n;
  if (entry.kind === "broadcast" && REFUNDED_BROADCAST.has(entry.status)) return 0n;
  return BigInt(entry.totalCostSun);
}

export interface HistoryPage {
  entries: HistoryEntry[];
  page: number;
  pages: number;
  total: number;
}

export interface OrderHistory {
  /** Adds entries (an existing id is replaced, keeping its place). */
  add(chatId: number, entries: readonly HistoryEntry[]): Promise<void>;
  /** `seenAtMs` stamps `fulfilledAtMs` the first time an order is seen `fulfilled`. */
  setStatus(chatId: number, kind: HistoryEntry["kind"], id: string, status: string, seenAtMs?: number, costSun?: number): Promise<void>;
  get(chatId: number, kind: HistoryEntry["kind"], id: string): Promise<HistoryEntry | undefined>;
  /** The newest broadcast of this chat for a transaction id. */
  findBroadcastByTxId(chatId: number, txId: string): Promise<HistoryEntry | undefined>;
  /** `page` is 0-based and clamped into range. */
  page(chatId: number, page: number, pageSize: number): Promise<HistoryPage>;
  /** Every entry plus the archived charges of entries past the limit; undefined when the chat is not linked. */
  spend(chatId: number): Promise<SpendRecord | undefined>;
}

/** The account a chat is linked to now (`ChatRepository.account`). */
export type HistoryAccountOf = (chatId: number) => Promise<{ id: string; aliases: readonly string[] } | undefined>;

export interface OrderHistoryDeps {
  store: StoreBackend;
  logger: Logger;
  /** Without it the history is kept per chat only (tools and tests of the history itself). */
  accountOf?: HistoryAccountOf;
}

function withStatus(entry: HistoryEntry, status: string, seenAtMs: number | undefined, costSun: number | undefined): HistoryEntry {
  const stamp = entry.kind === "order" && status === "fulfilled" && entry.fulfilledAtMs === undefined && seenAtMs !== undefined;
  const next = stamp ? { ...entry, status, fulfilledAtMs: seenAtMs } : { ...entry, status };
  if (costSun === undefined) return next;
  const { costEstimated: _estimate, ...known } = next;
  return { ...known, totalCostSun: costSun };
}

/**
 * When an order's delegation ends, as far as the bot can know: the time it first saw the order
 * `fulfilled` plus the duration. Undefined until then (or for a broadcast).
 */
export function delegationEndsAtMs(entry: HistoryEntry): number | undefined {
  if (entry.kind !== "order" || entry.fulfilledAtMs === undefined || entry.durationSec === undefined) return undefined;
  return entry.fulfilledAtMs + entry.durationSec * 1000;
}

/** Adds the charges of `dropped` to the archive and forgets buckets no window reaches any more. */
function archived(archive: Readonly<Record<string, string>> | undefined, dropped: readonly HistoryEntry[]): Record<string, string> | undefined {
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
  return Object.fromEntries(Object.entries(next).filter(([bucket]) => Number(bucket) >= oldest).map(([bucket, sun]) => [bucket, sun.toString()]));
}

/** Entries past `HISTORY_LIMIT` leave the list but their charges stay in the archive. */
function mergedRecord(current: HistoryRecord | undefined, added: readonly HistoryEntry[], archive?: Readonly<Record<string, string>>): HistoryRecord {
  const all = merged(current?.entries ?? [], added);
  const kept = all.slice(0, HISTORY_LIMIT);
  const incoming = archive === undefined ? current?.archivedSpend : mergedArchives(current?.archivedSpend, archive);
  const archivedSpend = archived(incoming, all.slice(HISTORY_LIMIT));
  return { entries: kept, ...(archivedSpend === undefined ? {} : { archivedSpend }) };
}

function mergedArchives(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...a };
  for (const [bucket, sun] of Object.entries(b)) out[bucket] = (BigInt(out[bucket] ?? "0") + BigInt(sun)).toString();
  return out;
}

/** Newest first, every entry (the caller cuts at `HISTORY_LIMIT`). */
function merged(current: readonly HistoryEntry[], added: readonly HistoryEntry[]): HistoryEntry[] {
  const old = [...current];
  const fresh: HistoryEntry[] = [];
  for (const entry of added) {
    const at = old.findIndex((e) => e.kind === entry.kind && e.id === entry.id);
    if (at >= 0) old[at] = entry;
    else fresh.push(entry);
  }
  // Stable sort: what was added last comes first among entries of the same millisecond.
  return [...fresh, ...old].sort((a, b) => b.createdAtMs - a.createdAtMs);
}

export function createOrderHistory({ store, logger, accountOf }: OrderHistoryDeps): OrderHistory {
  const records = createRecordStore({ kv: store.namespace("order-history"), schema: historySchema, version: 1, logger, name: "order-history" });
  /** Record keys already checked for older records to take in (nothing writes those keys any more). */
  const adopted = new Set<string>();

  /** Moves an older record (per-chat era, or an alias of the account) into the account's record. */
  async function adopt(from: string, to: string): Promise<void> {
    if (from === to || !(await records.get(from))) return;
    await records.update(from, async (old) => {
      if (old && (old.entries.length > 0 || old.archivedSpend)) await records.update(to, (current) => mergedRecord(current, old.entries, old.archivedSpend ?? {}));
      return undefined;
    });
    logger.info({ recordStore: "order-history" }, "older history records taken in by the linked account");
  }

  /** The record key of the chat's current account; undefined when the chat is not linked. */
  async function key(chatId: number): Promise<string | undefined> {
    if (!accountOf) return String(chatId);
    const account = await accountOf(chatId);
    if (!account) return undefined;
    const own = `${chatId}@${account.id}`;
    if (!adopted.has(own)) {
      // Per-chat records had no account: the account linked at the first use after the upgrade takes them,
      // which shows the chat nothing it did not see before.
      await adopt(String(chatId), own);
      for (const alias of account.aliases) await adopt(`${chatId}@${alias}`, own);
      adopted.add(own);
    }
    return own;
  }

  return {
    async add(chatId, added) {
      const k = await key(chatId);
      if (k === undefined) {
        // Unlinked between the service's answer and this write: no account to file it under.
        logger.warn({ chatId, ids: added.map((e) => e.id) }, "history entries dropped: the chat is not linked any more");
        return;
      }
      await records.update(k, (current) => mergedRecord(current, added));
    },
    async setStatus(chatId, kind, id, status, seenAtMs, costSun) {
      const k = await key(chatId);
      if (k === undefined) return;
      await records.update(k, (current) => {
        if (!current) return undefined;
        const entries = current.entries.map((e) => (e.kind === kind && e.id === id ? withStatus(e, status, seenAtMs, costSun) : e));
        return { ...current, entries };
      });
    },
    async get(chatId, kind, id) {
      const k = await key(chatId);
      const current = k === undefined ? undefined : await records.get(k);
      return current?.entries.find((e) => e.kind === kind && e.id === id);
    },
    async findBroadcastByTxId(chatId, txId) {
      const wanted = txId.toLowerCase();
      const k = await key(chatId);
      const current = k === undefined ? undefined : await records.get(k);
      return current?.entries.find((e) => e.kind === "broadcast" && e.txId?.toLowerCase() === wanted);
    },
    async page(chatId, page, pageSize) {
      const k = await key(chatId);
      const entries = (k === undefined ? undefined : await records.get(k))?.entries ?? [];
      const pages = Math.max(1, Math.ceil(entries.length / pageSize));
      // The page comes from button data, which can be forged: anything but a finite number is the first page.
      const p = Number.isFinite(page) ? Math.min(Math.max(0, Math.trunc(page)), pages - 1) : 0;
      return { entries: entries.slice(p * pageSize, (p + 1) * pageSize), page: p, pages, total: entries.length };
    },
    async spend(chatId) {
      const k = await key(chatId);
      if (k === undefined) return undefined;
      const current = await records.get(k);
      return { entries: current?.entries ?? [], archived: current?.archivedSpend ?? {} };
    },
  };
}
