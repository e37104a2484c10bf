import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../store/record-store.js";
import type { StoreBackend } from "../store/types.js";

/**
 * Per-chat index of the orders and broadcasts made through the bot, newest
 * first, with the last status seen (the tracker keeps it current) so the
 * history pages render without one service call per line.
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
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

const historySchema = z.object({ entries: z.array(historyEntrySchema) });

export interface HistoryPage {
  entries: HistoryEntry[];
  page: number;
  pages: number;
  total: number;
}

export interface OrderHistory {
  /** Adds entries (an existing id is replaced, keeping its place). */
  add(chatId: number, entries: readonly HistoryEntry[]): Promise<void>;
  setStatus(chatId: number, kind: HistoryEntry["kind"], id: string, status: string): Promise<void>;
  get(chatId: number, kind: HistoryEntry["kind"], id: string): Promise<HistoryEntry | undefined>;
  /** The newest broadcast of this chat for a transaction id. */
  findBroadcastByTxId(chatId: number, txId: string): Promise<HistoryEntry | undefined>;
  /** `page` is 0-based and clamped into range. */
  page(chatId: number, page: number, pageSize: number): Promise<HistoryPage>;
}

export interface OrderHistoryDeps {
  store: StoreBackend;
  logger: Logger;
}

export function createOrderHistory({ store, logger }: OrderHistoryDeps): OrderHistory {
  const records = createRecordStore({ kv: store.namespace("order-history"), schema: historySchema, version: 1, logger, name: "order-history" });
  const key = (chatId: number): string => String(chatId);

  return {
    async add(chatId, added) {
      await records.update(key(chatId), (current) => {
        const old = [...(current?.entries ?? [])];
        const fresh: HistoryEntry[] = [];
        for (const entry of added) {
          const at = old.findIndex((e) => e.kind === entry.kind && e.id === entry.id);
          if (at >= 0) old[at] = entry;
          else fresh.push(entry);
        }
        // Stable sort: what was added last comes first among entries of the same millisecond.
        const entries = [...fresh, ...old].sort((a, b) => b.createdAtMs - a.createdAtMs);
        return { entries: entries.slice(0, HISTORY_LIMIT) };
      });
    },
    async setStatus(chatId, kind, id, status) {
      await records.update(key(chatId), (current) => {
        if (!current) return undefined;
        const entries = current.entries.map((e) => (e.kind === kind && e.id === id ? { ...e, status } : e));
        return { entries };
      });
    },
    async get(chatId, kind, id) {
      const current = await records.get(key(chatId));
      return current?.entries.find((e) => e.kind === kind && e.id === id);
    },
    async findBroadcastByTxId(chatId, txId) {
      const wanted = txId.toLowerCase();
      const current = await records.get(key(chatId));
      return current?.entries.find((e) => e.kind === "broadcast" && e.txId?.toLowerCase() === wanted);
    },
    async page(chatId, page, pageSize) {
      const entries = (await records.get(key(chatId)))?.entries ?? [];
      const pages = Math.max(1, Math.ceil(entries.length / pageSize));
      // The page comes from button data, which can be forged: anything but a finite number is the first page.
      const p = Number.isFinite(page) ? Math.min(Math.max(0, Math.trunc(page)), pages - 1) : 0;
      return { entries: entries.slice(p * pageSize, (p + 1) * pageSize), page: p, pages, total: entries.length };
    },
  };
}
