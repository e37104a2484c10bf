import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKeepDaySummaries, type KeepDaySummary } from "../../../src/features/keep/keep-day-summary.js";
import { createOrderHistory, type HistoryEntry, type OrderHistory } from "../../../src/shared/orders/order-history.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

const CHAT = 11;
const OTHER_CHAT = 12;
const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";
/** 2027-01-15 00:00 UTC. */
const DAY_START = Date.UTC(2027, 0, 15);
const HOUR = 3_600_000;

let store: StoreBackend;
let history: OrderHistory;
let sent: KeepDaySummary[];
let nowMs: number;
let zone: string;

function summaries() {
  return createKeepDaySummaries({
    store,
    logger: captureLogger().logger,
    now: () => nowMs,
    zones: { zoneOf: () => Promise.resolve({ zone, chosen: true }) },
    history,
    plans: { get: () => Promise.resolve(undefined) },
    send: (summary) => Promise.resolve(void sent.push(summary)),
  });
}

const renewal = (id: string, atMs: number, planId: string, costSun: number, chatId = CHAT): HistoryEntry => ({
  kind: "order",
  id,
  chatId,
  createdAtMs: atMs,
  status: "fulfilled",
  address: RECEIVER,
  amount: 100_000,
  durationSec: 60,
  totalCostSun: costSun,
  renewalOf: planId,
});

beforeEach(async () => {
  store = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  history = createOrderHistory({ store, logger: captureLogger().logger });
  sent = [];
  nowMs = DAY_START + 10 * HOUR;
  zone = "UTC";
});
afterEach(async () => {
  await store.close();
});

describe("keep plans' daily summary", () => {
  it("sums up the chat's day once after its midnight: each plan's renewals and spend, nothing else of the history", async () => {
    await history.add(CHAT, [
      renewal("a1", DAY_START + 11 * HOUR, "aaaaaaaaaaaa", 10_000_000),
      renewal("a2", DAY_START + 12 * HOUR, "aaaaaaaaaaaa", 10_500_000),
      renewal("b1", DAY_START + 13 * HOUR, "bbbbbbbbbbbb", 7_000_000),
      { ...renewal("o1", DAY_START + 14 * HOUR, "x", 5_000_000), renewalOf: undefined },
      // Placed the day after: tomorrow's summary.
      renewal("a3", DAY_START + 24 * HOUR + 5_000, "aaaaaaaaaaaa", 10_000_000),
    ]);
    const s = summaries();
    await s.setEnabled(CHAT, true);
    await s.look(new Set([CHAT]));
    expect(sent).toEqual([]);
    nowMs = DAY_START + 24 * HOUR + 60_000;
    await s.look(new Set([CHAT]));
    await s.look(new Set([CHAT]));
    // A new process (a restart) has only the stored mark to go by.
    await summaries().look(new Set([CHAT]));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ chatId: CHAT, day: "2027-01-15", dayStartMs: DAY_START, timeZone: "UTC" });
    expect(sent[0]!.plans.map((p) => [p.planId, p.orders, p.spentSun, p.address])).toEqual([
      ["aaaaaaaaaaaa", 2, "20500000", RECEIVER],
      ["bbbbbbbbbbbb", 1, "7000000", RECEIVER],
    ]);
  });

  it("sends nothing while it is off, and starts with the day it is turned on", async () => {
    await history.add(CHAT, [renewal("a1", DAY_START + 11 * HOUR, "aaaaaaaaaaaa", 10_000_000)]);
    const s = summaries();
    await s.look(new Set([CHAT]));
    nowMs = DAY_START + 24 * HOUR + 60_000;
    await s.look(new Set([CHAT]));
    expect(sent).toEqual([]);
    expect(await s.isEnabled(CHAT)).toBe(false);
    await s.setEnabled(CHAT, true);
    await history.add(CHAT, [renewal("a2", DAY_START + 30 * HOUR, "aaaaaaaaaaaa", 10_000_000)]);
    nowMs = DAY_START + 48 * HOUR + 60_000;
    await summaries().look(new Set([CHAT]));
    expect(sent.map((x) => [x.day, x.plans.map((p) => p.orders)])).toEqual([["2027-01-16", [1]]]);
  });

  it("sends nothing for a day without renewals, nor for the account's other chats' plans", async () => {
    await history.add(CHAT, [renewal("c1", DAY_START + 11 * HOUR, "cccccccccccc", 10_000_000, OTHER_CHAT)]);
    const s = summaries();
    await s.setEnabled(CHAT, true);
    await s.look(new Set([CHAT]));
    nowMs = DAY_START + 24 * HOUR + 60_000;
    await s.look(new Set([CHAT]));
    expect(sent).toEqual([]);
  });

  it("ends the day at the chat's midnight in its zone", async () => {
    zone = "Asia/Shanghai";
    // 23:30 in Shanghai on the 15th, and 00:30 on the 16th.
    await history.add(CHAT, [
      renewal("z1", DAY_START + 15 * HOUR + 30 * 60_000, "zzzzzzzzzzzz", 1_000_000),
      renewal("z2", DAY_START + 16 * HOUR + 30 * 60_000, "zzzzzzzzzzzz", 1_000_000),
    ]);
    const s = summaries();
    await s.setEnabled(CHAT, true);
    // 08:00 on the 15th in Shanghai: the first look.
    nowMs = DAY_START;
    await s.look(new Set([CHAT]));
    // 00:10 on the 16th in Shanghai (16:10 UTC on the 15th).
    nowMs = DAY_START + 16 * HOUR + 10 * 60_000;
    await s.look(new Set([CHAT]));
    expect(sent.map((x) => [x.day, x.dayStartMs, x.plans.map((p) => p.orders)])).toEqual([["2027-01-15", DAY_START - 8 * HOUR, [1]]]);
  });

  it("sums a 25-hour day of a summer-time change whole, and nothing of the days around it", async () => {
    zone = "Europe/Berlin";
    // 31 October 2027 in Berlin: midnight at 22:00 UTC on the 30th, the next at 23:00 UTC on the 31st.
    const dayStart = Date.UTC(2027, 9, 30, 22);
    const nextStart = Date.UTC(2027, 9, 31, 23);
    await history.add(CHAT, [
      renewal("d0", dayStart - 30 * 60_000, "dddddddddddd", 1_000_000),
      renewal("d1", dayStart + 30 * 60_000, "dddddddddddd", 2_000_000),
      renewal("d2", nextStart - 30 * 60_000, "dddddddddddd", 3_000_000),
      renewal("d3", nextStart + 30 * 60_000, "dddddddddddd", 4_000_000),
    ]);
    const s = summaries();
    await s.setEnabled(CHAT, true);
    nowMs = dayStart + HOUR;
    await s.look(new Set([CHAT]));
    nowMs = nextStart + 10 * 60_000;
    await s.look(new Set([CHAT]));
    expect(sent.map((x) => [x.day, x.dayStartMs, x.plans.map((p) => [p.orders, p.spentSun])])).toEqual([["2027-10-31", dayStart, [[2, "5000000"]]]]);
  });
});
