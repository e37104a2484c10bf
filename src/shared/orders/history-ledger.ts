import type { Logger } from "pino";
import { z } from "zod";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { createRecordStore, type RecordReads } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { ARCHIVE_KEEP_MS, archived, mergedArchives, type SpendArchive } from "./history-archive.js";
import { historyEntrySchema, mergedEntries, type HistoryEntry } from "./history-entry.js";
import { chunkStats, type ChunkStats, chunkStatsSchema, type HistoryFilter, type LedgerPage, pageOf } from "./history-page.js";

/**
 * The paged storage of one history (a record key: chat@account, or a chat): a small meta record
 * listing the chunks newest first with their counts and time span, the chunks themselves (at most
 * `CHUNK_SIZE` entries each; only the newest takes new entries), and an index from each id (and
 * each broadcast's transaction id) to its chunk. An add rewrites the newest chunk and the meta; a
 * status change rewrites the one chunk holding the entry, found through the index.
 */

export const CHUNK_SIZE = 50;
/** Past this many entries the oldest chunk is dropped whole; its charges stay in the spend archive. */
export const HISTORY_LIMIT = 25_000;

const archiveSchema = z.record(z.string(), z.string().regex(/^\d+$/));
const metaSchema = z.object({
  /** The number the next chunk gets. */
  next: z.number().int(),
  /** Newest first; the first one takes new entries. */
  chunks: z.array(chunkStatsSchema),
  /** Charges of entries dropped past `HISTORY_LIMIT` (or by the single-record layout's limit), per bucket. */
  archivedSpend: archiveSchema.optional(),
});
type Meta = z.infer<typeof metaSchema>;
const chunkSchema = z.object({ entries: z.array(historyEntrySchema) });
const indexSchema = z.object({ chunk: z.number().int(), id: z.string().optional() });
/** The layout before paging: one record of at most 500 entries. */
const singleRecordSchema = z.object({ entries: z.array(historyEntrySchema), archivedSpend: archiveSchema.optional() });

interface LedgerContent {
  /** Newest first. */
  entries: HistoryEntry[];
  archive: SpendArchive | undefined;
}

export interface HistoryLedger {
  add(key: string, entries: readonly HistoryEntry[]): Promise<void>;
  /** Applies `change` to the entry, in the one chunk that holds it. */
  change(key: string, kind: HistoryEntry["kind"], id: string, change: (entry: HistoryEntry) => HistoryEntry): Promise<void>;
  get(key: string, kind: HistoryEntry["kind"], id: string): Promise<HistoryEntry | undefined>;
  /** The entries of `ids`, in their order (undefined where unknown), reading each chunk once. */
  getMany(key: string, kind: HistoryEntry["kind"], ids: readonly string[]): Promise<(HistoryEntry | undefined)[]>;
  findBroadcastByTxId(key: string, txId: string): Promise<HistoryEntry | undefined>;
  page(key: string, page: number, pageSize: number, filter?: HistoryFilter): Promise<LedgerPage>;
  /** The entries any spend window can reach (chunks within `ARCHIVE_KEEP_MS` of the newest), plus the archive. */
  recent(key: string): Promise<LedgerContent>;
  /** Converts a single-record history under `key` to chunks (once; later calls are one read). */
  migrate(key: string): Promise<void>;
  /**
   * Whether the store holds histories of the earlier layouts (one record per history, or a history kept per
   * chat rather than per account `@…`). Asked once per process, which then skips the per-chat conversions
   * when there is nothing to convert: a process of an earlier version writing them beside this one is not
   * supported.
   */
  holdsEarlierLayouts(): Promise<boolean>;
  /** Moves everything kept under `from` (either layout) into `to`, each entry through `stamp`; `from` is then empty. */
  absorb(from: string, to: string, stamp?: (entry: HistoryEntry) => HistoryEntry): Promise<boolean>;
}

const EMPTY_META: Meta = { next: 0, chunks: [] };
const idKey = (key: string, kind: HistoryEntry["kind"], id: string) => `${key}#${kind === "order" ? "o" : "b"}:${id}`;
const txKey = (key: string, txId: string) => `${key}#t:${txId.toLowerCase()}`;
const chunkKey = (key: string, n: number) => `${key}#${String(n)}`;

export interface HistoryLedgerDeps {
  store: StoreBackend;
  logger: Logger;
  /**
   * The index (an id's chunk, which never changes while the entry is kept) read once per unit of work, or kept
   * across units (`RecordReads`). Not the meta and the chunks: an add reads and rewrites them under this process's lock.
   */
  reads?: RecordReads;
}

export function createHistoryLedger({ store, logger, reads }: HistoryLedgerDeps): HistoryLedger {
  const metas = createRecordStore({ kv: store.namespace("order-ledger"), schema: metaSchema, version: 1, logger, name: "order-ledger" });
  const chunks = createRecordStore({ kv: store.namespace("order-ledger-chunks"), schema: chunkSchema, version: 1, logger, name: "order-ledger-chunks" });
  const index = createRecordStore({
    kv: store.namespace("order-ledger-index"),
    schema: indexSchema,
    version: 1,
    logger,
    name: "order-ledger-index",
    ...reads,
  });
  /** The index as the store has it now: an add decides between replacing and appending on it, never on a memo. */
  const indexNow = reads?.memo
    ? createRecordStore({ kv: store.namespace("order-ledger-index"), schema: indexSchema, version: 1, logger, name: "order-ledger-index" })
    : index;
  const singles = createRecordStore({ kv: store.namespace("order-history"), schema: singleRecordSchema, version: 1, logger, name: "order-history" });
  const mutex = createKeyedMutex();

  async function readChunk(key: string, n: number): Promise<HistoryEntry[]> {
    return (await chunks.get(chunkKey(key, n)))?.entries ?? [];
  }

  async function indexEntries(key: string, n: number, entries: readonly HistoryEntry[], txIndex: "always" | "if-absent"): Promise<void> {
    for (const e of entries) {
      await index.set(idKey(key, e.kind, e.id), { chunk: n });
      if (e.kind !== "broadcast" || e.txId === undefined) continue;
      if (txIndex === "always" || !(await indexNow.get(txKey(key, e.txId)))) await index.set(txKey(key, e.txId), { chunk: n, id: e.id });
    }
  }

  async function dropChunk(key: string, n: number): Promise<HistoryEntry[]> {
    const entries = await readChunk(key, n);
    for (const e of entries) {
      await index.delete(idKey(key, e.kind, e.id));
      if (e.kind === "broadcast" && e.txId !== undefined && (await indexNow.get(txKey(key, e.txId)))?.chunk === n) await index.delete(txKey(key, e.txId));
    }
    await chunks.delete(chunkKey(key, n));
    return entries;
  }

  /** Drops the oldest chunks while the history is over its limit, keeping their charges in the archive. */
  async function trimmed(key: string, meta: Meta): Promise<Meta> {
    let { chunks: list, archivedSpend } = meta;
    while (list.reduce((sum, c) => sum + c.count, 0) > HISTORY_LIMIT && list.length > 1) {
      const oldest = list[list.length - 1]!;
      archivedSpend = archived(archivedSpend, await dropChunk(key, oldest.n));
      list = list.slice(0, -1);
    }
    return { next: meta.next, chunks: list, ...(archivedSpend === undefined ? {} : { archivedSpend }) };
  }

  /** Appends entries older-to-newer: the newest chunk's room first, then fresh chunks. */
  async function append(key: string, meta: Meta, fresh: readonly HistoryEntry[]): Promise<Meta> {
    const oldestFirst = [...fresh].reverse();
    let list = meta.chunks;
    let next = meta.next;
    const head = list[0];
    let from = 0;
    if (head && head.count < CHUNK_SIZE) {
      const room = oldestFirst.slice(0, CHUNK_SIZE - head.count);
      const saved = await chunks.update(chunkKey(key, head.n), (current) => ({ entries: mergedEntries(current?.entries ?? [], room) }));
      await indexEntries(key, head.n, room, "always");
      list = [chunkStats(head.n, saved?.entries ?? []), ...list.slice(1)];
      from = room.length;
    }
    while (from < oldestFirst.length) {
      const part = oldestFirst.slice(from, from + CHUNK_SIZE);
      const entries = mergedEntries([], part);
      await chunks.set(chunkKey(key, next), { entries });
      await indexEntries(key, next, part, "always");
      list = [chunkStats(next, entries), ...list];
      next += 1;
      from += part.length;
    }
    return trimmed(key, { ...meta, next, chunks: list });
  }

  /** Writes `content` as the whole history of `key`, replacing what was there. */
  async function rewrite(key: string, content: LedgerContent): Promise<void> {
    const meta = await metas.get(key);
    for (const c of meta?.chunks ?? []) await dropChunk(key, c.n);
    const start: Meta = { next: meta?.next ?? 0, chunks: [], ...(content.archive === undefined ? {} : { archivedSpend: { ...content.archive } }) };
    await metas.set(key, await append(key, start, content.entries));
  }

  async function readAll(key: string): Promise<LedgerContent | undefined> {
    const meta = await metas.get(key);
    if (meta) {
      const entries: HistoryEntry[] = [];
      for (const c of meta.chunks) entries.push(...(await readChunk(key, c.n)));
      return { entries, archive: meta.archivedSpend };
    }
    const single = await singles.get(key);
    return single && { entries: single.entries, archive: single.archivedSpend };
  }

  async function forget(key: string): Promise<void> {
    const meta = await metas.get(key);
    for (const c of meta?.chunks ?? []) await dropChunk(key, c.n);
    await metas.delete(key);
    await singles.delete(key);
  }

  async function migrate(key: string): Promise<void> {
    await mutex.run(key, async () => {
      if (await metas.get(key)) return;
      const single = await singles.get(key);
      if (!single) return;
      // The chunks and their meta are written before the old record goes: a crash in between leaves the old row unread, never a gap.
      await rewrite(key, { entries: single.entries, archive: single.archivedSpend });
      await singles.delete(key);
      logger.info({ recordStore: "order-ledger", entries: single.entries.length }, "single-record history converted to chunks");
    });
  }

  async function scanEarlierLayouts(): Promise<boolean> {
    for await (const ids of singles.idPages()) if (ids.length > 0) return true;
    for await (const ids of metas.idPages()) if (ids.some((key) => !key.startsWith("@"))) return true;
    return false;
  }
  let earlierLayouts: Promise<boolean> | undefined;

  async function locate(key: string, kind: HistoryEntry["kind"], id: string, from = index): Promise<number | undefined> {
    return (await from.get(idKey(key, kind, id)))?.chunk;
  }

  return {
    migrate,
    holdsEarlierLayouts() {
      earlierLayouts ??= scanEarlierLayouts().catch((error: unknown) => {
        earlierLayouts = undefined;
        throw error;
      });
      return earlierLayouts;
    },
    add: (key, added) =>
      mutex.run(key, async () => {
        const meta = (await metas.get(key)) ?? EMPTY_META;
        // The last of the same id wins, as if added one by one.
        const unique = [...new Map(added.map((e) => [`${e.kind}:${e.id}`, e])).values()];
        const fresh: HistoryEntry[] = [];
        const replaced = new Map<number, HistoryEntry[]>();
        for (const entry of unique) {
          const n = await locate(key, entry.kind, entry.id, indexNow);
          if (n !== undefined && meta.chunks.some((c) => c.n === n)) replaced.set(n, [...(replaced.get(n) ?? []), entry]);
          else fresh.push(entry);
        }
        let list: ChunkStats[] = meta.chunks;
        for (const [n, entries] of replaced) {
          const saved = await chunks.update(chunkKey(key, n), (current) => ({ entries: mergedEntries(current?.entries ?? [], entries) }));
          await indexEntries(key, n, entries, "if-absent");
          list = list.map((c) => (c.n === n ? chunkStats(n, saved?.entries ?? []) : c));
        }
        await metas.set(key, await append(key, { ...meta, chunks: list }, mergedEntries([], fresh)));
      }),
    change: (key, kind, id, change) =>
      mutex.run(key, async () => {
        const n = await locate(key, kind, id);
        if (n === undefined) return;
        await chunks.update(
          chunkKey(key, n),
          (current) => current && { entries: current.entries.map((e) => (e.kind === kind && e.id === id ? change(e) : e)) },
        );
      }),
    async get(key, kind, id) {
      const n = await locate(key, kind, id);
      return n === undefined ? undefined : (await readChunk(key, n)).find((e) => e.kind === kind && e.id === id);
    },
    async getMany(key, kind, ids) {
      const located = await Promise.all(ids.map((id) => locate(key, kind, id)));
      const byChunk = new Map<number, Map<string, HistoryEntry>>();
      for (const n of new Set(located)) {
        if (n === undefined) continue;
        byChunk.set(n, new Map((await readChunk(key, n)).filter((e) => e.kind === kind).map((e) => [e.id, e])));
      }
      return ids.map((id, i) => {
        const n = located[i];
        return n === undefined ? undefined : byChunk.get(n)?.get(id);
      });
    },
    async findBroadcastByTxId(key, txId) {
      const found = await index.get(txKey(key, txId));
      if (found?.id === undefined) return undefined;
      return (await readChunk(key, found.chunk)).find((e) => e.kind === "broadcast" && e.id === found.id);
    },
    async page(key, page, pageSize, filter) {
      const meta = (await metas.get(key)) ?? EMPTY_META;
      return pageOf(meta.chunks, (n) => readChunk(key, n), page, pageSize, filter ?? {});
    },
    async recent(key) {
      const meta = (await metas.get(key)) ?? EMPTY_META;
      const newestMs = Math.max(...meta.chunks.map((c) => c.maxMs));
      const entries: HistoryEntry[] = [];
      for (const c of meta.chunks) if (c.maxMs >= newestMs - ARCHIVE_KEEP_MS) entries.push(...(await readChunk(key, c.n)));
      return { entries, archive: meta.archivedSpend };
    },
    absorb: (from, to, stamp) =>
      mutex.run(to, async () => {
        if (from === to) return false;
        const taken = await readAll(from);
        if (!taken) return false;
        const own = await readAll(to);
        const entries = mergedEntries(own?.entries ?? [], stamp ? taken.entries.map(stamp) : taken.entries);
        await rewrite(to, { entries, archive: mergedArchives(own?.archive, taken.archive) });
        await singles.delete(to);
        await forget(from);
        return true;
      }),
  };
}
