import { describe, expect, it } from "vitest";
import type { StatementRow } from "../../../src/shared/statements/statement-rows.js";
import { dailyNetSun, summarize } from "../../../src/shared/statements/statement-summary.js";

const row = (kind: StatementRow["kind"], costSun: bigint, atMs: number, energy?: number): StatementRow => ({
  atMs,
  id: "x",
  kind,
  receiver: undefined,
  energy,
  durationSec: undefined,
  costSun,
  status: "s",
  txId: undefined,
  chatId: undefined,
});
const nov = (day: number, hour = 12) => Date.UTC(2026, 10, day, hour);

describe("statement summary", () => {
  const rows = [
    row("order", 6_500_000n, nov(1), 65_000),
    row("order", 9_007_199_254_740_993n, nov(2), 3),
    row("broadcast", 3_200_000n, nov(5)),
    row("broadcast", 3_100_000n, nov(10)),
    row("refund", -3_100_000n, nov(10)),
  ];

  it("totals each kind exactly, refunds as a positive amount, and the net spend", () => {
    const s = summarize(rows, 100);
    expect(s.orders).toEqual({ count: 2, sun: 9_007_199_261_240_993n });
    expect(s.broadcasts).toEqual({ count: 2, sun: 6_300_000n });
    expect(s.refunds).toEqual({ count: 1, sun: 3_100_000n });
    expect(s.netSun).toBe(9_007_199_261_240_993n + 3_200_000n);
  });

  it("estimates the saving from the orders' energy at the burn price, minus what the orders cost", () => {
    const s = summarize([row("order", 2_000_000n, nov(1), 65_000), row("broadcast", 9n, nov(2))], 100);
    expect(s.orderEnergy).toBe(65_000n);
    expect(s.burnSun).toBe(6_500_000n);
    expect(s.savingSun).toBe(4_500_000n);
    expect(summarize([row("order", 2_000_000n, nov(1), 10_000)], 100).savingSun).toBe(-1_000_000n);
    expect(summarize([row("order", 2_000_000n, nov(1), 65_000)], 420).burnSun).toBe(27_300_000n);
  });

  it("adds each line to its day of the zone's calendar, refunds deducted", () => {
    const days = dailyNetSun(rows, { year: 2026, month: 11 }, "UTC");
    expect(days).toHaveLength(30);
    expect(days[0]).toBe(6_500_000n);
    expect(days[4]).toBe(3_200_000n);
    expect(days[9]).toBe(0n);
    const lateOn1st = [row("order", 7n, Date.UTC(2026, 10, 1, 23, 30), 1)];
    expect(dailyNetSun(lateOn1st, { year: 2026, month: 11 }, "Asia/Shanghai")[1]).toBe(7n);
  });
});
