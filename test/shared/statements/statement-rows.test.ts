import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/shared/orders/order-history.js";
import { inertText, statementCsv, statementRows, trxFixed } from "../../../src/shared/statements/statement-rows.js";

const NOV = { year: 2026, month: 11 };
const at = (day: number, hour = 12) => Date.UTC(2026, 10, day, hour);
const RECEIVER = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const TX = "ab".repeat(32);

const order = (id: string, createdAtMs: number, costSun: number): HistoryEntry => ({
  kind: "order",
  id,
  createdAtMs,
  status: "fulfilled",
  address: RECEIVER,
  amount: 65_000,
  durationSec: 3600,
  totalCostSun: costSun,
});
const broadcast = (id: string, createdAtMs: number, status: string, costSun: number): HistoryEntry => ({
  kind: "broadcast",
  id,
  createdAtMs,
  status,
  address: RECEIVER,
  txId: TX,
  totalCostSun: costSun,
  txKind: "usdt",
});

describe("statement rows", () => {
  it("lists the month's entries oldest first and adds a negative refund after a failed or expired broadcast", () => {
    const entries = [
      broadcast("b3", at(20), "expired", 2_000_000),
      broadcast("b2", at(10), "failed", 3_100_000),
      broadcast("b1", at(5), "confirmed", 3_200_000),
      order("o1", at(1), 6_500_000),
      order("o0", Date.UTC(2026, 9, 31, 23), 1),
    ];
    const rows = statementRows(entries, NOV, "UTC");
    expect(rows.map((r) => [r.kind, r.id, r.costSun])).toEqual([
      ["order", "o1", 6_500_000n],
      ["broadcast", "b1", 3_200_000n],
      ["broadcast", "b2", 3_100_000n],
      ["refund", "b2", -3_100_000n],
      ["broadcast", "b3", 2_000_000n],
      ["refund", "b3", -2_000_000n],
    ]);
    expect(rows[0]).toMatchObject({ energy: 65_000, durationSec: 3600, txId: undefined });
    expect(rows[1]).toMatchObject({ energy: undefined, durationSec: undefined, txId: TX });
  });

  it("takes the month of the chat's zone: 23:30 UTC on 31 October is November in Shanghai", () => {
    const late = order("late", Date.UTC(2026, 9, 31, 23, 30), 1_000);
    expect(statementRows([late], NOV, "UTC")).toEqual([]);
    expect(statementRows([late], NOV, "Asia/Shanghai").map((r) => r.id)).toEqual(["late"]);
  });

  it("writes TRX with exactly six decimals, sign kept", () => {
    expect(trxFixed(0n)).toBe("0.000000");
    expect(trxFixed(1n)).toBe("0.000001");
    expect(trxFixed(6_500_000n)).toBe("6.500000");
    expect(trxFixed(-3_100_001n)).toBe("-3.100001");
    expect(trxFixed(123_456_789_012_345_678n)).toBe("123456789012.345678");
  });

  it("makes an RFC 4180 CSV with a header row, CRLF line ends and the zone's offset on every time", () => {
    const rows = statementRows([broadcast("b2", at(10), "failed", 3_100_000), order("o1", at(1), 6_500_000)], NOV, "Asia/Shanghai");
    const csv = statementCsv(rows, "Asia/Shanghai");
    expect(csv.split("\r\n")[0]).toBe("time,id,kind,receiver,energy,duration_s,cost_sun,cost_trx,status,broadcast_tx_id,chat");
    expect(csv.endsWith("\r\n")).toBe(true);
    const records = parse<Record<string, string>>(csv, { columns: true });
    expect(records).toEqual([
      {
        time: "2026-11-01T20:00:00+08:00",
        id: "o1",
        kind: "order",
        receiver: RECEIVER,
        energy: "65000",
        duration_s: "3600",
        cost_sun: "6500000",
        cost_trx: "6.500000",
        status: "fulfilled",
        broadcast_tx_id: "",
        chat: "",
      },
      {
        time: "2026-11-10T20:00:00+08:00",
        id: "b2",
        kind: "broadcast",
        receiver: RECEIVER,
        energy: "",
        duration_s: "",
        cost_sun: "3100000",
        cost_trx: "3.100000",
        status: "failed",
        broadcast_tx_id: TX,
        chat: "",
      },
      {
        time: "2026-11-10T20:00:00+08:00",
        id: "b2",
        kind: "refund",
        receiver: RECEIVER,
        energy: "",
        duration_s: "",
        cost_sun: "-3100000",
        cost_trx: "-3.100000",
        status: "failed",
        broadcast_tx_id: TX,
        chat: "",
      },
    ]);
  });

  it("names in the chat column the chat of the account that placed each line: its title, else its id, made inert", () => {
    const entries: HistoryEntry[] = [
      { ...order("o1", at(1), 6_500_000), chatId: 1001 },
      { ...order("o2", at(2), 6_500_000), chatId: 2002 },
      { ...broadcast("b3", at(3), "failed", 3_100_000), chatId: 3003 },
      order("o4", at(4), 6_500_000),
    ];
    const names = new Map([
      [1001, "Alice"],
      [3003, "=cmd()"],
    ]);
    const lines = parse<Record<string, string>>(statementCsv(statementRows(entries, NOV, "UTC"), "UTC", names), { columns: true });
    expect(lines.map((l) => [l["id"], l["kind"], l["chat"]])).toEqual([
      ["o1", "order", "Alice"],
      ["o2", "order", "2002"],
      ["b3", "broadcast", "'=cmd()"],
      ["b3", "refund", "'=cmd()"],
      ["o4", "order", ""],
    ]);
  });

  it("quotes a field that needs it", () => {
    const odd = { ...order("o,1", at(2), 5), status: 'said "no"' };
    const csv = statementCsv(statementRows([odd], NOV, "UTC"), "UTC");
    expect(csv).toContain(`"o,1"`);
    expect(csv).toContain(`"said ""no"""`);
    expect(parse<Record<string, string>>(csv, { columns: true })[0]).toMatchObject({ id: "o,1", status: 'said "no"' });
  });

  it("makes text cells from outside inert for spreadsheets (a leading quote on = + - @ tab CR) and leaves the numbers numbers", () => {
    for (const evil of ['=HYPERLINK("http://x.test","y")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]) expect(inertText(evil)).toBe(`'${evil}`);
    for (const fine of ["fulfilled", "failed", "", "T=1", "a-b"]) expect(inertText(fine)).toBe(fine);
    const entries: HistoryEntry[] = [
      { ...broadcast("=b1", at(5), "=cmd|' /C calc'!A0", 3_100_000), address: "@evil", txId: "+tx" },
      { ...broadcast("b2", at(6), "failed", 2_000_000), status: "failed" },
      { ...order("o1", at(7), 6_500_000), status: "-1+1" },
    ];
    const csv = statementCsv(statementRows(entries, NOV, "UTC"), "UTC");
    const lines = parse<Record<string, string>>(csv, { columns: true });
    expect(lines[0]).toMatchObject({ id: "'=b1", receiver: "'@evil", status: "'=cmd|' /C calc'!A0", broadcast_tx_id: "'+tx", cost_sun: "3100000" });
    expect(lines[2]).toMatchObject({ kind: "refund", status: "failed", cost_sun: "-2000000", cost_trx: "-2.000000" });
    expect(lines[3]).toMatchObject({ status: "'-1+1", energy: "65000", duration_s: "3600" });
    // No cell of the file starts like a formula except the refund's numbers.
    const starts = csv
      .split("\r\n")
      .flatMap((line) => line.split(","))
      .filter((cell) => /^"?[=+@\t\r-]/.test(cell));
    expect(starts).toEqual(["-2000000", "-2.000000"]);
  });
});
