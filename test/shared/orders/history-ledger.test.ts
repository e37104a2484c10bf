import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spentIn } from "../../../src/shared/limits/spend-ledger.js";
import { spendWindows } from "../../../src/shared/limits/spend-window.js";
import { CHUNK_SIZE } from "../../../src/shared/orders/history-ledger.js";
import { createOrderHistory, historyEntrySchema, type HistoryEntry, type OrderHistory } from "../../../src/shared/orders/order-history.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { createRecordStore } from "../../../src/platform/store/record-store.js";
import type { KeyValue, StoreBackend } from "../../../src/platform/store/types.js";
import { z } from "zod";
import { captureLogger } from "../../platform/service/capture-logger.js";
import { countingReads } from "../../platform/store/helpers.js";

const CHAT = 21;
const TRX = 1_000_000;
const MAY = Date.UTC(2026, 4, 1);
const HOUR = 3_600_000;
let store: StoreBackend;
/** Chunk reads since the last reset: what an operation costs. */
let chunkReads = 0;

/** The store, counting reads of history chunks. */
function counting(backend: StoreBackend): StoreBackend {
  return {
    ...backend,
    kind: backend.kind,
    ping: () => backend.ping(),
    claimLease: (k, o, t) => backend.claimLease(k, o, t),
    releaseLease: (k, o) => backend.releaseLease(k, o),
    close: () => backend.close(),
    namespace(name): KeyValue {
      const kv = backend.namespace(name);
      return name === "order-ledger-chunks" ? countingReads(kv, () => (chunkReads += 1)) : kv;
    },
  };
}

beforeEach(async () => {
  store = counting(await openStore("sqlite://:memory:", { logger: captureLogger().logger }));
  chunkReads = 0;
});
afterEach(async () => store.close());

const hex = (n: number) => n.toString(16).padStart(24, "0");
/** Entry n: created n hours after May 1 (April for negative n); every third one a broadcast. */
const entry = (n: number): HistoryEntry =>
  n % 3 === 0
    ? {
        kind: "broadcast",
        id: hex(n),
        createdAtMs: MAY + n * HOUR,
        status: "ready",
        totalCostSun: 2 * TRX + n,
        txId: `${"AB".repeat(31)}${String(n % 100).padStart(2, "0")}`,
      }
    : { kind: "order", id: hex(n), createdAtMs: MAY + n * HOUR, status: "fulfilled", totalCostSun: TRX + n, amount: 65_000, durationSec: 3600 };

async function fill(history: OrderHistory, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i += 100)
    await history.add(
      CHAT,
      Array.from({ length: Math.min(100, from + count - i) }, (_, k) => entry(i + k)),
    );
}

async function allPages(history: OrderHistory, size: number, filter?: Parameters<OrderHistory["page"]>[3]): Promise<HistoryEntry[]> {
  const first = await history.page(CHAT, 0, size, filter);
  const out = [...first.entries];
  for (let p = 1; p < first.pages; p++) out.push(...(await history.page(CHAT, p, size, filter)).entries);
  return out;
}

describe("a history past the old 500-record cap", () => {
  it("keeps 1,200 records, pages through all of them newest first, and counts the month's spend exactly", async () => {
    const history = createOrderHistory({ store, logger: captureLogger().logger });
    // 1,200 entries from April 21 on, one an hour: 240 in April, 744 in May, the rest in June.
    await fill(history, -240, 1_200);
    const listed = await allPages(history, 7);
    expect(listed).toHaveLength(1_200);
    expect(listed.map((e) => e.id)).toEqual(Array.from({ length: 1_200 }, (_, i) => hex(959 - i)));

    const mayEntries = Array.from({ length: 744 }, (_, n) => entry(n));
    const maySun = mayEntries.reduce((sum, e) => sum + BigInt(e.totalCostSun ?? 0), 0n);
    const spent = spentIn(await history.spend(CHAT), spendWindows(MAY + 20 * 24 * HOUR, "UTC"));
    expect(spent.monthSun).toBe(maySun);
    const dayOfMay21 = mayEntries.slice(20 * 24, 21 * 24).reduce((sum, e) => sum + BigInt(e.totalCostSun ?? 0), 0n);
    expect(spent.daySun).toBe(dayOfMay21);
  });

  it("filters by kind and by a time span, with counts over the whole history", async () => {
    const history = createOrderHistory({ store, logger: captureLogger().logger });
    await fill(history, -240, 1_200);
    const broadcasts = await allPages(history, 10, { kind: "broadcast" });
    expect(broadcasts).toHaveLength(400);
    expect(broadcasts.every((e) => e.kind === "broadcast")).toBe(true);
    const june = Date.UTC(2026, 5, 1);
    const may = await history.page(CHAT, 3, 10, { fromMs: MAY, toMs: june });
    expect(may.total).toBe(744);
    expect(may.pages).toBe(75);
    expect(may.entries.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => hex(743 - 30 - i)));
    const mayOrders = await history.page(CHAT, 0, 10, { kind: "order", fromMs: MAY, toMs: june });
    expect(mayOrders.total).toBe(744 - 248);
  });

  it("changes an old entry's status by reading only the chunk that holds it, and finds it again by id and transaction id", async () => {
    const history = createOrderHistory({ store, logger: captureLogger().logger });
    await fill(history, 0, 1_200);
    chunkReads = 0;
    await history.setStatus(CHAT, "broadcast", hex(3), "failed");
    expect(chunkReads).toBe(1);
    chunkReads = 0;
    expect((await history.get(CHAT, "broadcast", hex(3)))?.status).toBe("failed");
    expect(chunkReads).toBe(1);
    // The newest broadcast with that transaction id (3, 303, 603 and 903 share it).
    expect((await history.findBroadcastByTxId(CHAT, `${"ab".repeat(31)}03`))?.id).toBe(hex(903));
    expect((await history.page(CHAT, 0, 5)).total).toBe(1_200);
  });

  it("reads many entries with one read per chunk that holds them, in the order asked, unknown ids and other kinds undefined", async () => {
    const history = createOrderHistory({ store, logger: captureLogger().logger });
    await fill(history, 0, 1_200);
    // Orders only (every third entry is a broadcast): 1, 2, 4, 5 … share a chunk; 1,198 lies in the newest one.
    const ids = [hex(1), hex(2), hex(4), hex(1_198), hex(3), "f".repeat(24), hex(5)];
    chunkReads = 0;
    const found = await history.getMany(CHAT, "order", ids);
    expect(chunkReads).toBe(2);
    expect(found.map((e) => e?.id)).toEqual([hex(1), hex(2), hex(4), hex(1_198), undefined, undefined, hex(5)]);
    expect(found[0]).toEqual(await history.get(CHAT, "order", hex(1)));
  });

  it("adds to a small newest chunk: an add never rewrites the older entries", async () => {
    const history = createOrderHistory({ store, logger: captureLogger().logger });
    await fill(history, 0, 1_200);
    chunkReads = 0;
    await history.add(CHAT, [entry(1_200)]);
    expect(chunkReads).toBeLessThanOrEqual(1);
    const newest = await history.page(CHAT, 0, CHUNK_SIZE);
    expect(newest.entries[0]?.id).toBe(hex(1_200));
    expect(newest.total).toBe(1_201);
  });
});

describe("records of the single-record layout", () => {
  const singleSchema = z.object({ entries: z.array(historyEntrySchema), archivedSpend: z.record(z.string(), z.string()).optional() });

  it("are converted on first use: every entry listed, the archived charges still counted, the old record gone", async () => {
    const logger = captureLogger().logger;
    const old = createRecordStore({ kv: store.namespace("order-history"), schema: singleSchema, version: 1, logger, name: "order-history" });
    const entries = Array.from({ length: 500 }, (_, i) => entry(499 - i));
    // What the old limit had pushed out: 7 TRX charged on May 1 at 00:00.
    await old.set(String(CHAT), { entries, archivedSpend: { [String(MAY / (15 * 60_000))]: String(7 * TRX) } });

    const history = createOrderHistory({ store, logger });
    const listed = await allPages(history, 50);
    expect(listed.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    const spent = spentIn(await history.spend(CHAT), spendWindows(MAY + 10 * 24 * HOUR, "UTC"));
    const listedSun = entries.reduce((sum, e) => sum + BigInt(e.totalCostSun ?? 0), 0n);
    expect(spent.monthSun).toBe(listedSun + BigInt(7 * TRX));
    expect(await old.get(String(CHAT))).toBeUndefined();
    await history.setStatus(CHAT, "order", hex(1), "cancelled");
    expect((await history.get(CHAT, "order", hex(1)))?.status).toBe("cancelled");
  });

  it("of the per-chat era and of an alias join the linked account's paged history, archives added up", async () => {
    const logger = captureLogger().logger;
    const old = createRecordStore({ kv: store.namespace("order-history"), schema: singleSchema, version: 1, logger, name: "order-history" });
    const bucket = String(MAY / (15 * 60_000));
    await old.set(String(CHAT), { entries: [entry(2), entry(1)], archivedSpend: { [bucket]: String(3 * TRX) } });
    await old.set(`${CHAT}@key:abc`, { entries: [entry(4)], archivedSpend: { [bucket]: String(4 * TRX) } });
    await old.set(`${CHAT}@addr:T1`, { entries: [entry(3)] });

    const history = createOrderHistory({ store, logger, accountOf: () => Promise.resolve({ id: "addr:T1", aliases: ["key:abc"] }) });
    expect((await allPages(history, 2)).map((e) => e.id)).toEqual([hex(4), hex(3), hex(2), hex(1)]);
    const spent = spentIn(await history.spend(CHAT), spendWindows(MAY + HOUR, "UTC"));
    const listedSun = [1, 2, 3, 4].reduce((sum, n) => sum + BigInt(entry(n).totalCostSun ?? 0), 0n);
    expect(spent.monthSun).toBe(listedSun + BigInt(7 * TRX));
    for (const key of [String(CHAT), `${CHAT}@key:abc`, `${CHAT}@addr:T1`]) expect(await old.get(key)).toBeUndefined();
  });

  it("kept per chat and account: the chats of one account read one history, each entry naming its chat", async () => {
    const logger = captureLogger().logger;
    const old = createRecordStore({ kv: store.namespace("order-history"), schema: singleSchema, version: 1, logger, name: "order-history" });
    const OTHER = CHAT + 1;
    await old.set(`${CHAT}@addr:T1`, { entries: [entry(1)] });
    await old.set(`${OTHER}@addr:T1`, { entries: [entry(2)] });

    const history = createOrderHistory({ store, logger, accountOf: () => Promise.resolve({ id: "addr:T1", aliases: [] }) });
    await history.page(CHAT, 0, 10);
    await history.page(OTHER, 0, 10);
    await history.add(OTHER, [entry(3)]);
    for (const reader of [CHAT, OTHER]) {
      const listed = (await history.page(reader, 0, 10)).entries;
      expect(listed.map((e) => [e.id, e.chatId])).toEqual([
        [hex(3), OTHER],
        [hex(2), OTHER],
        [hex(1), CHAT],
      ]);
    }
    for (const key of [`${CHAT}@addr:T1`, `${OTHER}@addr:T1`]) expect(await old.get(key)).toBeUndefined();
  });
});
