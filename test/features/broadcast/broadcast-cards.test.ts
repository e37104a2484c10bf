/**
 * /broadcast's cards and words: cards that describe the transaction like the pre-check, exact USDT without
 * padding, one id per card, statuses explained, pasted JSON, localized
 * JSON errors, a resent transaction, and a key written after a command.
 */
import { describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIRECTORY } from "../../../src/bot/i18n.js";
import { createLogger } from "../../../src/platform/logger.js";
import { broadcastCardText, finalText, statusText, type Translator } from "../../../src/bot/helpers/record-text.js";
import { signTrc20Transfer, signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5351;
const { alice, bob, carol } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const usdt = (amountAtomic: bigint) => signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic, expirationMs: Date.now() + 600_000 });
const trx = (amountSun: number) => signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun, expirationMs: Date.now() + 600_000 });
const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts");
const cardIdOf = (text: string) => /Broadcast ([0-9a-f]{24})/.exec(text)![1]!;
const i18n = createI18n({
  defaultLocale: "en",
  directory: LOCALES_DIRECTORY,
  storedLocale: () => Promise.resolve(undefined),
  logger: createLogger({ level: "silent" }),
});
/** The notifier's per-locale translator. */
const tr = (locale: string): Translator => ({ t: (key, vars) => i18n.t(locale, key, vars) });

describe("broadcast cards", () => {
  it("describes a TRX transfer on its card like the pre-check did, through every edit and on /track", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send(`/broadcast ${JSON.stringify(trx(5_000_000))}`);
    expect(user.lastText()).toContain("TRX transfer: 5 TRX");
    const confirm = await user.press("✅ Confirm");
    const card = h.pressedMessage(confirm);
    expect(h.textOf(CHAT, card)).toContain("TRX transfer: 5 TRX");
    // The notice goes first; the card's final edit follows behind the chat's window, which a loaded machine stretches.
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")), 60_000);
    await h.until(() => h.textOf(CHAT, card).includes("Status: confirmed"), 60_000);
    expect(h.textOf(CHAT, card)).toContain("TRX transfer: 5 TRX");
    for (const call of h.tg.callsOf("editMessageText")) expect(String(call.params["text"])).not.toContain("kind tron");
    await user.send(`/track ${cardIdOf(h.textOf(CHAT, card))}`);
    expect(user.lastText()).toContain("TRX transfer: 5 TRX");
  });

  it("describes the transfer in Russian too, never as a raw service kind", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT, { languageCode: "ru" });
    await user.send(`/broadcast ${JSON.stringify(trx(5_000_000))}`);
    const confirm = await user.press(/^✅/);
    await h.until(() => h.textOf(CHAT, h.pressedMessage(confirm)).includes("Статус: подтверждена"), 60_000);
    const card = h.textOf(CHAT, h.pressedMessage(confirm));
    expect(card).toContain("Перевод TRX: 5 TRX");
    expect(card).not.toContain("вида tron");
  });

  it("shows USDT exactly without padding zeros, and the transaction id once", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const tx = usdt(12_500_000n);
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    expect(user.lastText()).toContain("USDT transfer: 12.5 USDT");
    const confirm = await user.press("✅ Confirm");
    const card = h.pressedMessage(confirm);
    // The notice goes first; the card's final edit follows behind the chat's window, which a loaded machine stretches.
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")), 60_000);
    await h.until(() => h.textOf(CHAT, card).includes("Status: confirmed"), 60_000);
    const text = h.textOf(CHAT, card);
    expect(text).toContain("USDT transfer: 12.5 USDT");
    expect(text).not.toContain("12.500000");
    expect(text.split(tx.txID)).toHaveLength(2);
    expect(user.lastText().split(tx.txID)).toHaveLength(2);
    await user.send("/orders");
    expect(user.lastText()).toContain("12.5 USDT");
    expect(user.lastText()).not.toContain("12.500000");
  });

  it("says a status in the chat's language and explains it: English keeps the API's word, an unknown status is the service's code", () => {
    expect(statusText(tr("en"), "pending_energy").value).toBe("<b>pending_energy (provisioning energy)</b>");
    expect(statusText(tr("en"), "settling").value).toBe("<b><code>settling</code> (a status new to me, still in progress)</b>");
    expect(statusText(tr("ru"), "pending").value).toBe("<b>ожидает (в очереди)</b>");
    expect(statusText(tr("zh"), "failed").value).toBe("<b>失败（未送达，已退款）</b>");
    expect(statusText(tr("ru"), "settling").value).toBe("<b><code>settling</code> (новый для меня статус сервиса, запись ещё в работе)</b>");
    for (const status of [
      "pending",
      "matching",
      "executing",
      "fulfilled",
      "pending_energy",
      "ready",
      "broadcasting",
      "confirming",
      "confirmed",
      "failed",
      "expired",
    ]) {
      const text = statusText(tr("en"), status).value;
      expect(text.startsWith(`<b>${status} (`)).toBe(true);
      expect(text.length).toBeGreaterThan(`<b>${status} ()</b>`.length);
    }
  });
});

describe("broadcast ids", () => {
  const record = (broadcastTxid: string | undefined) => ({
    broadcastId: "ab".repeat(12),
    kind: "tron",
    status: "confirmed",
    txId: "cd".repeat(32),
    fromAddress: alice.address,
    toAddress: bob.address,
    resource: "BANDWIDTH",
    resourceRequired: 345,
    energyRequired: 0,
    totalCostSun: 34_500,
    ...(broadcastTxid === undefined ? {} : { broadcastTxid }),
    txExpirationMs: Date.now() + 60_000,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });

  it("names the on-chain id only when it differs from the signed transaction's id, and labels it", () => {
    const en = tr("en");
    const local = { txKind: "trx", amountSun: "1500000" };
    const same = broadcastCardText(en, record("cd".repeat(32)), "en", local);
    expect(same.split("cd".repeat(32))).toHaveLength(2);
    expect(same).toContain("TRX transfer: <b>1.5 TRX</b>");
    expect(broadcastCardText(en, record(undefined), "en")).toContain("TRON transaction (a TRX transfer or another contract call)");
    const other = broadcastCardText(en, record("ef".repeat(32)), "en", local);
    expect(other).toContain(`Transaction id: <code>${"cd".repeat(32)}</code>`);
    expect(other).toContain(`On-chain id (differs from the signed transaction id): <code>${"ef".repeat(32)}</code>`);
    const final = finalText(en, { kind: "broadcast", record: record("cd".repeat(32)) }, "en", Date.now());
    expect(final.split("cd".repeat(32))).toHaveLength(2);
  });
});

describe("signed transactions outside /broadcast", () => {
  it("takes signed-transaction JSON pasted as plain text like a .json document", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send(JSON.stringify(usdt(1_000_000n), null, 2));
    expect(user.lastText()).toContain("Check before sending");
    expect(user.lastText()).toContain("USDT transfer: 1 USDT");
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    await user.send(JSON.stringify({ hello: "world" }));
    expect(user.lastText()).not.toContain("Check before sending");
  });

  it("locates invalid JSON by line and character instead of quoting the parser", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send(`/broadcast {"txID": "ab",\n  "raw_data": {,}}`);
    expect(user.lastText()).toBe(
      "This is not valid JSON: it goes wrong at line 2, character 16. Send the signed transaction exactly as your wallet produced it.",
    );
    await user.send(`/broadcast {"txID": "ab", "raw_data": {"contract": [`);
    expect(user.lastText()).toContain("it ends too early");
    const ru = h.user(CHAT + 1, { languageCode: "ru" });
    await h.linkChat(CHAT + 1);
    await ru.send("/broadcast {oops");
    expect(ru.lastText()).toContain("строке 1, символ 2");
    for (const text of [...user.botTexts(), ...ru.botTexts()]) expect(text).not.toMatch(/Expected|Unexpected|position/);
  });

  it("says at once that a confirmed transaction was already submitted, and offers a failed one again", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const tx = usdt(2_000_000n);
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    const confirm = await user.press("✅ Confirm");
    const id = cardIdOf(h.textOf(CHAT, h.pressedMessage(confirm)));
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")));
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    expect(user.lastText()).toContain(`already submitted: broadcast ${id}, status confirmed`);
    expect(user.lastText()).toContain(`/track ${id}`);
    expect(user.lastButtons()).toEqual([]);
    expect(posts()).toHaveLength(1);

    const failing = trx(2_000_000);
    h.sim.control.setBroadcastOutcome(failing.txID, "failed", "node_rejected");
    await user.send(`/broadcast ${JSON.stringify(failing)}`);
    const second = await user.press("✅ Confirm");
    const failedId = cardIdOf(h.textOf(CHAT, h.pressedMessage(second)));
    await h.until(() => user.botTexts().some((t) => t.startsWith("❌ Broadcast")));
    await user.send(`/broadcast ${JSON.stringify(failing)}`);
    expect(user.lastText()).toContain("Check before sending");
    expect(user.lastText()).toContain(`an earlier broadcast of this transaction, ${failedId}, ended failed`);
    expect(user.lastText()).toContain("may be submitted again");
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("deletes a private key written after /broadcast, with the warning", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send(`/broadcast ${alice.privateKey}`);
    expect(user.view().some((m) => m.text.includes(alice.privateKey))).toBe(false);
    expect(user.lastText()).toContain("looked like a private key");
    expect(user.lastText()).not.toContain("not valid JSON");
  });

  it("takes Cancel off the /broadcast prompt once the transaction is read", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/broadcast");
    const prompt = user.last()!.messageId;
    expect(user.lastButtons()).toEqual([["Cancel"]]);
    await user.send(JSON.stringify(usdt(3_000_000n)));
    expect(h.tg.view(CHAT).find((m) => m.messageId === prompt)!.buttons).toEqual([]);
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });
  it("reads another .json document after refusing one, instead of locking the chat", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/broadcast");
    const expiring = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: 1_000_000n, expirationMs: Date.now() + 10_000 });
    await user.document({ bytes: JSON.stringify(expiring), fileName: "expiring.json", mimeType: "application/json" });
    expect(user.lastText()).toContain("Expired");
    await user.document({ bytes: JSON.stringify(usdt(4_000_000n)), fileName: "tx.json", mimeType: "application/json" });
    expect(user.lastText()).toContain("Check before sending");
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    await user.send("/help");
    expect(user.lastText()).toContain("What I can do");
  });
});
