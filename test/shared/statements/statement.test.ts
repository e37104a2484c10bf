import { describe, expect, it } from "vitest";
import type { HistoryEntry, HistoryPage, OrderHistory } from "../../../src/shared/orders/order-history.js";
import { buildStatement, monthEntries, STATEMENT_PAGE_SIZE } from "../../../src/shared/statements/statement.js";

const hour = 3_600_000;
const order = (n: number, createdAtMs: number): HistoryEntry => ({
  kind: "order",
  id: `o${String(n)}`,
  createdAtMs,
  status: "fulfilled",
  amount: 10_000,
  totalCostSun: 1_000_000 + n,
});

/** A history that pages a fixed list newest first within the filter's window, counting the pages read. */
function pagedHistory(entries: HistoryEntry[]): Pick<OrderHistory, "page"> & { reads: number[] } {
  const all = [...entries].sort((a, b) => b.createdAtMs - a.createdAtMs);
  const reads: number[] = [];
  return {
    reads,
    page(_chatId, page, size, filter): Promise<HistoryPage> {
      reads.push(page);
      const newestFirst = all.filter(
        (e) => (filter?.fromMs === undefined || e.createdAtMs >= filter.fromMs) && (filter?.toMs === undefined || e.createdAtMs < filter.toMs),
      );
      const pages = Math.max(1, Math.ceil(newestFirst.length / size));
      const p = Math.min(Math.max(page, 0), pages - 1);
      return Promise.resolve({ entries: newestFirst.slice(p * size, (p + 1) * size), page: p, pages, total: newestFirst.length });
    },
  };
}

describe("a month's statement from the history", () => {
  const dec1 = Date.UTC(2026, 11, 1);
  // 250 in December (hourly from the 1st), 150 in November before it.
  const december = Array.from({ length: 250 }, (_, i) => order(i, dec1 + i * hour));
  const november = Array.from({ length: 150 }, (_, i) => order(1000 + i, dec1 - (i + 1) * hour));

  it("reads every entry of the month across the month's pages only", async () => {
    const history = pagedHistory([...december, ...november]);
    const found = await monthEntries(history, 1, { year: 2026, month: 12 }, "UTC");
    expect(found).toHaveLength(250);
    expect(found.every((e) => e.createdAtMs >= dec1)).toBe(true);
    expect(history.reads).toEqual([0, 1, 2]);
    expect(STATEMENT_PAGE_SIZE).toBe(100);
  });

  it("reads an older month without paging through the newer one", async () => {
    const history = pagedHistory([...december, ...november]);
    expect(await monthEntries(history, 1, { year: 2026, month: 11 }, "UTC")).toHaveLength(150);
    expect(history.reads).toEqual([0, 1]);
  });

  it("builds rows, CSV, totals and days together", async () => {
    const s = await buildStatement({ history: pagedHistory([...december, ...november]), burnPriceSun: 100 }, 1, { year: 2026, month: 12 }, "UTC");
    expect(s.rows).toHaveLength(250);
    expect(s.csv.split("\r\n").filter((l) => l !== "")).toHaveLength(251);
    const expected = december.reduce((sum, e) => sum + BigInt(e.totalCostSun ?? 0), 0n);
    expect(s.summary.netSun).toBe(expected);
    expect(s.dailySun.reduce((a, b) => a + b, 0n)).toBe(expected);
    expect(s.dailySun).toHaveLength(31);
  });
});
