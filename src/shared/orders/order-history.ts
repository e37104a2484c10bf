import type { Logger } from "pino";
import type { RecordReads } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { createHistoryLedger } from "./history-ledger.js";
import type { HistoryEntry } from "./history-entry.js";
import type { HistoryFilter } from "./history-page.js";

/**
 * Index of the orders and broadcasts made through the bot, newest first, with
 * the last status seen (the tracker keeps it current) so the history pages
 * render without one service call per line.
 *
 * Kept per account (`accountOf`): every method takes a chat and works on
 * the account it is linked to now, so every chat linked to one account reads
 * and writes one history (each entry names the chat it was placed from),
 * after a re-link to another account the chat sees only that account's
 * records, and re-linking the first account brings them back. An unlinked
 * chat has no history to read or write. Records of earlier layouts (per chat:
 * key = chat id; per chat and account: `<chat>@<account>`) and records kept
 * under an alias of the account are moved into the account's record the first
 * time each chat is used linked, their entries stamped with that chat; see
 * docs/orders.md.
 *
 * Stored paged (history-ledger.ts): an add or a status change rewrites one
 * small chunk, never the whole history, and pages are read chunk by chunk.
 */

export { HISTORY_LIMIT } from "./history-ledger.js";
export { chargeSunOf, hasRefund, historyEntrySchema, type HistoryEntry } from "./history-entry.js";
export { SPEND_BUCKET_MS } from "./history-archive.js";
export type { HistoryFilter } from "./history-page.js";

/** What the chat's account spent through the bot, as the history knows it. */
export interface SpendRecord {
  entries: readonly HistoryEntry[];
  /** Charges of entries no longer listed: bucket index (`SPEND_BUCKET_MS`) -> sun. */
  archived: Readonly<Record<string, string>>;
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
  /** The entries of `ids`, in their order (undefined where unknown): one read per chunk, not per id. */
  getMany(chatId: number, kind: HistoryEntry["kind"], ids: readonly string[]): Promise<(HistoryEntry | undefined)[]>;
  /** The newest broadcast of this chat for a transaction id. */
  findBroadcastByTxId(chatId: number, txId: string): Promise<HistoryEntry | undefined>;
  /**
   * `page` is 0-based and clamped into range; `filter` narrows the list (and the counts) to one kind, a time
   * span, the entries refunded and/or one receiver.
   */
  page(chatId: number, page: number, pageSize: number, filter?: HistoryFilter): Promise<HistoryPage>;
  /**
   * Every entry a spend window can still reach (those within `ARCHIVE_KEEP_MS` of the newest), plus the
   * archived charges of entries dropped past the limit; undefined when the chat is not linked.
   */
  spend(chatId: number): Promise<SpendRecord | undefined>;
}

/** The account a chat is linked to now (`ChatRepository.account`). */
export type HistoryAccountOf = (chatId: number) => Promise<{ id: string; aliases: readonly string[] } | undefined>;

export interface OrderHistoryDeps {
  store: StoreBackend;
  logger: Logger;
  /** Without it the history is kept per chat only (tools and tests of the history itself). */
  accountOf?: HistoryAccountOf;
  /** How the ledger saves reads (`history-ledger.ts` says of which records). */
  reads?: RecordReads;
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

export function createOrderHistory({ store, logger, accountOf, reads }: OrderHistoryDeps): OrderHistory {
  const ledger = createHistoryLedger({ store, logger, ...(reads ? { reads } : {}) });
  /** Record keys already checked for older records to take in (nothing writes those keys any more). */
  const adopted = new Set<string>();

  /** The record key of the chat's current account; undefined when the chat is not linked. */
  async function key(chatId: number): Promise<string | undefined> {
    if (!accountOf) {
      const own = String(chatId);
      if (!adopted.has(own)) await ledger.migrate(own);
      adopted.add(own);
      return own;
    }
    const account = await accountOf(chatId);
    if (!account) return undefined;
    const own = `@${account.id}`;
    const checked = `${chatId}${own}`;
    if (!adopted.has(checked)) {
      let taken = false;
      if (await ledger.holdsEarlierLayouts()) {
        await ledger.migrate(own);
        // Per-chat records had no account: the account linked at the first use after the upgrade takes them.
        // Per chat and account, then per account: each chat's part joins the account's, marked with the chat.
        const placedHere = (e: HistoryEntry): HistoryEntry => (e.chatId === undefined ? { ...e, chatId } : e);
        taken = await ledger.absorb(String(chatId), own, placedHere);
        for (const id of [account.id, ...account.aliases]) taken = (await ledger.absorb(`${chatId}@${id}`, own, placedHere)) || taken;
      }
      // A history kept under another name of the account (its key's, before a vault key rotation) is never an earlier layout.
      for (const alias of account.aliases) taken = (await ledger.absorb(`@${alias}`, own)) || taken;
      if (taken) logger.info({ recordStore: "order-history" }, "older history records taken in by the linked account");
      adopted.add(checked);
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
      // Per account, each entry names the chat it was placed from.
      await ledger.add(k, accountOf ? added.map((e) => (e.chatId === undefined ? { ...e, chatId } : e)) : added);
    },
    async setStatus(chatId, kind, id, status, seenAtMs, costSun) {
      const k = await key(chatId);
      if (k === undefined) return;
      await ledger.change(k, kind, id, (e) => withStatus(e, status, seenAtMs, costSun));
    },
    async get(chatId, kind, id) {
      const k = await key(chatId);
      return k === undefined ? undefined : ledger.get(k, kind, id);
    },
    async getMany(chatId, kind, ids) {
      const k = await key(chatId);
      return k === undefined ? ids.map(() => undefined) : ledger.getMany(k, kind, ids);
    },
    async findBroadcastByTxId(chatId, txId) {
      const k = await key(chatId);
      return k === undefined ? undefined : ledger.findBroadcastByTxId(k, txId);
    },
    async page(chatId, page, pageSize, filter) {
      const k = await key(chatId);
      if (k === undefined) return { entries: [], page: 0, pages: 1, total: 0 };
      return ledger.page(k, page, pageSize, filter);
    },
    async spend(chatId) {
      const k = await key(chatId);
      if (k === undefined) return undefined;
      const recent = await ledger.recent(k);
      return { entries: recent.entries, archived: recent.archive ?? {} };
    },
  };
}
