import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/shared/orders/order-history.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5601;
const TRX = 1_000_000;
/** Nov 25, 2026, 12:00 UTC (20:00 in Shanghai). */
const NOW = Date.UTC(2026, 10, 25, 12, 0);
const bob = TEST_KEYS.bob.address;
const carol = TEST_KEYS.carol.address;
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
const hex = (n: number) => n.toString(16).padStart(24, "0");

const order = (n: number, createdAtMs: number, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  kind: "order",
  id: hex(n),
  createdAtMs,
  status: "fulfilled",
  address: bob,
  amount: 65_000,
  durationSec: 3600,
  totalCostSun: 2 * TRX,
  ...extra,
});
const broadcast = (n: number, createdAtMs: number, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  kind: "broadcast",
  id: hex(n),
  createdAtMs,
  status: "ready",
  address: carol,
  txKind: "trx",
  amountSun: String(TRX),
  totalCostSun: 3 * TRX,
  ...extra,
});

describe("/orders as a ledger (a fixed clock)", () => {
  let h: OrderHarness;
  useOrderHarness((started) => (h = started), { now: () => NOW });

  it("rows show the date and time in the chat's zone, the label or a short address, the exact cost and the delegation's end", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await h.flows.limits.setTimeZone(CHAT, "Asia/Shanghai");
    await h.flows.addressBook.add(CHAT, bob, "Alice", NOW);
    await h.flows.history.add(CHAT, [
      order(1, Date.UTC(2026, 10, 25, 6, 5), { totalCostSun: 2_345_678, fulfilledAtMs: Date.UTC(2026, 10, 25, 6, 6) }),
      broadcast(2, Date.UTC(2026, 10, 24, 22, 30), { totalCostSun: 13 * TRX, costEstimated: true, status: "pending_energy" }),
      broadcast(3, Date.UTC(2026, 10, 20, 9, 0), { status: "failed", totalCostSun: 5 * TRX }),
    ]);

    await user.send("/orders");
    const text = user.lastText();
    expect(text).toContain("Times in Asia/Shanghai");
    // 06:05 UTC is 14:05 in Shanghai; its hour of energy ended at 15:06 there.
    expect(text).toMatch(/1\. Order 0{23}1\n🕒 Nov 25, 14:05 · /);
    expect(text).toContain("65,000 energy for 1 h → Alice");
    expect(text).toContain("💰 2.345678 TRX · ⌛ delegation ended 15:06");
    // 22:30 UTC on the 24th is already the 25th in Shanghai.
    expect(text).toMatch(/2\. Broadcast 0{23}2\n🕒 Nov 25, 06:30 · /);
    expect(text).toContain(`1 TRX → ${short(carol)}`);
    expect(text).toContain("💰 up to 13 TRX (estimate");
    expect(text).toContain("💰 5 TRX, refunded");
    expect(text).not.toContain(bob);

    await h.flows.limits.setTimeZone(CHAT, "UTC");
    await user.send("/orders");
    expect(user.lastText()).toContain("🕒 Nov 25, 06:05");
    expect(user.lastText()).toContain("🕒 Nov 24, 22:30");
  });

  it('a zone typed as a city in /settings ("moscow") dates the rows in Moscow time', async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await h.flows.history.add(CHAT, [order(1, Date.UTC(2026, 10, 25, 6, 5))]);
    await user.send("/settings");
    await user.press("🕒 Time zone: UTC");
    await user.press("🔎 Type a city");
    expect(user.lastText()).toContain("your city");
    await user.send("Narnia");
    expect(user.lastText()).toContain("“Narnia” is not a time zone I know");
    await user.send("moscow");
    expect(user.lastText()).toContain("Time zone set: Europe/Moscow (UTC+3)");
    expect(await h.flows.limits.timeZoneOf(CHAT)).toBe("Europe/Moscow");

    await user.send("/orders");
    expect(user.lastText()).toContain("Times in Europe/Moscow");
    // 06:05 UTC is 09:05 in Moscow.
    expect(user.lastText()).toMatch(/1\. Order 0{23}1\n🕒 Nov 25, 09:05 · /);

    await user.send("/settings");
    await user.press("🕒 Time zone: Europe/Moscow");
    await user.press("🔎 Type a city");
    await user.send("UTC-5");
    expect(user.lastText()).toContain("Time zone set: UTC−5");
    await user.send("/orders");
    expect(user.lastText()).toContain("Times in UTC−5");
    expect(user.lastText()).toContain("🕒 Nov 25, 01:05");
  });

  it("filters by kind and by this month, and pages keep the filter", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await h.flows.limits.setTimeZone(CHAT, "Asia/Shanghai");
    const hour = 3_600_000;
    // 12 orders and 4 broadcasts this month, and 3 orders on Oct 31 at 20:00 UTC, which is already November in Shanghai.
    const entries = [
      ...Array.from({ length: 12 }, (_, i) => order(10 + i, Date.UTC(2026, 10, 10) + i * hour)),
      ...Array.from({ length: 4 }, (_, i) => broadcast(30 + i, Date.UTC(2026, 10, 5) + i * hour)),
      ...Array.from({ length: 3 }, (_, i) => order(40 + i, Date.UTC(2026, 9, 31, 20) + i * 60_000)),
      order(50, Date.UTC(2026, 9, 31, 15)),
    ];
    await h.flows.history.add(CHAT, entries);

    await user.send("/orders");
    expect(user.lastText()).toContain("page 1 of 4, 20 in all");
    await user.press("Broadcasts");
    expect(user.lastText()).toContain("Broadcasts of this account, newest first (page 1 of 1, 4 in all)");
    expect(user.lastText()).not.toContain("Order ");
    expect(user.lastButtons()[1]).toEqual(["All", "Orders", "• Broadcasts", "This month"]);

    await user.press("Orders");
    expect(user.lastText()).toContain("Orders of this account, newest first (page 1 of 4, 16 in all)");
    await user.press("Older ▶");
    await user.press("Older ▶");
    expect(user.lastText()).toContain("Orders of this account, newest first (page 3 of 4, 16 in all)");
    expect(user.lastText()).not.toContain("Broadcast ");
    expect(user.lastButtons()[2]).toEqual(["◀ Newer", "3 / 4", "Older ▶"]);

    await user.press("This month");
    expect(user.lastText()).toContain("November 2026");
    expect(user.lastText()).toContain("page 1 of 4, 19 in all");
    await user.press("Older ▶");
    await user.press("Older ▶");
    await user.press("Older ▶");
    // The last page of the month: the three orders of Oct 31 in UTC, Nov 1 in Shanghai.
    expect(user.lastText()).toContain("page 4 of 4, 19 in all");
    expect(user.lastText()).toContain("🕒 Nov 1, 04:02");
    expect(user.lastText()).not.toContain(hex(50));
  });

  it.each([
    [
      "en",
      "Broadcasts",
      [
        `12.5 USDT → ${short(carol)}\n`,
        "stake 100 TRX for energy\n",
        "votes: 30 for 2 candidates\n",
        `lend energy of 50 TRX → ${short(bob)}\n`,
        "\nTRON transaction\n",
      ],
    ],
    [
      "ru",
      "Отправки",
      [
        `12,5 USDT → ${short(carol)}\n`,
        "стейкинг 100 TRX ради энергии\n",
        "голоса: 30 за 2 кандидатов\n",
        `передача энергии от 50 TRX → ${short(bob)}\n`,
        "\nтранзакция TRON\n",
      ],
    ],
    [
      "zh",
      "广播",
      [`12.5 USDT → ${short(carol)}\n`, "质押 100 TRX 以获得能量\n", "投票：2 个候选人共 30 票\n", `代理 50 TRX 对应的能量 → ${short(bob)}\n`, "\nTRON 交易\n"],
    ],
  ])("a broadcast's row names what it did, briefly, in %s (an entry kept before the kind was stored: the neutral line)", async (lang, filter, lines) => {
    await h.linkChat(CHAT, {}, true, lang);
    const user = h.user(CHAT, { languageCode: lang });
    const at = (minutes: number) => NOW - minutes * 60_000;
    const { address: _none, ...noReceiver } = broadcast(0, 0);
    const system = (n: number, minutes: number, extra: Partial<HistoryEntry>): HistoryEntry => ({
      ...noReceiver,
      id: hex(n),
      createdAtMs: at(minutes),
      txKind: "system",
      ...extra,
    });
    await h.flows.history.add(CHAT, [
      broadcast(1, at(1), { txKind: "usdt", amountAtomic: "12500000", contractType: "TriggerSmartContract", contractAddress: bob }),
      system(2, 2, { contractType: "FreezeBalanceV2Contract", amountSun: String(100 * TRX), details: { resource: "ENERGY" } }),
      system(3, 3, {
        contractType: "VoteWitnessContract",
        details: {
          votes: [
            { address: bob, count: "20" },
            { address: carol, count: "10" },
          ],
        },
      }),
      broadcast(4, at(4), {
        txKind: "system",
        contractType: "DelegateResourceContract",
        address: bob,
        amountSun: String(50 * TRX),
        details: { resource: "ENERGY", lock: false },
      }),
      // Kept before the contract type was: a system contract the row cannot name.
      system(5, 5, {}),
    ]);
    await user.send("/orders");
    await user.press(filter);
    const text = user.lastText();
    for (const line of lines) expect(text).toContain(line);
    expect(text).not.toContain("—");
  });

  it("a forged filter or row button is answered 'expired' and changes nothing", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await h.flows.history.add(CHAT, [order(1, NOW - 60_000)]);
    await user.send("/orders");
    const shown = h.tg.lastBotMessage(CHAT)!;
    for (const data of ["hl:x:0", "hl:a", "hr:o:not-an-id", "hr:q:" + hex(1)]) {
      const update = h.tg.rawCallback(CHAT, shown.messageId, data);
      await h.send(update);
      expect(h.tg.answerOf(update)?.["text"]).toBe("This button has expired. Please start again.");
    }
    expect(h.tg.lastBotMessage(CHAT)!.messageId).toBe(shown.messageId);
    expect(h.textOf(CHAT, shown.messageId)).toBe(shown.text);
  });
});

describe("/orders row buttons", () => {
  let h: OrderHarness;
  useOrderHarness((started) => (h = started));

  it("a row's button opens the live card /track shows, with the whole address, and no typing", async () => {
    await h.linkChat(CHAT, { balanceSun: 200_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await user.send(`/order ${bob} 65k 1h`);
    await user.press("✅ Confirm");
    const id = /[0-9a-f]{24}/.exec(user.lastText())![0];
    await user.send("/orders");
    const list = h.tg.lastBotMessage(CHAT)!.messageId;
    await user.press("🔎 1");
    const card = h.tg.lastBotMessage(CHAT)!;
    expect(card.messageId).not.toBe(list);
    expect(card.text).toContain(id);
    expect(card.text).toContain(bob);
    expect(card.buttons.flat().map((b) => b.text)).toEqual(["🔄 Refresh"]);

    await user.send(`/track ${id}`);
    expect(user.lastText()).toBe(card.text);
  });
});
