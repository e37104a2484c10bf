import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import {
  finalizeAndSign,
  resignWith,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrxAmount,
  TEST_KEYS,
  withDeclaredTxId,
  withTwoContracts,
} from "../../../testkit/tron-sign.js";
import { makeChat, makeMessage, makeUser } from "../../../testkit/updates.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5301;
const { alice, bob, carol } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const usdt = (amountAtomic = 12_345_678n, leftMs = 600_000) =>
  signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic, expirationMs: Date.now() + leftMs });
const trx = (leftMs = 600_000) => signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 1_500_000, expirationMs: Date.now() + leftMs });
const broadcastPosts = () => h.sim.requests.filter((r) => r.path === "/v1/broadcasts");

describe("/broadcast", () => {
  it("summarizes a signed USDT transfer exactly, then submits it and tracks it to confirmed", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/broadcast");
    expect(user.lastText()).toContain("Send the signed transaction");
    const tx = usdt();
    await user.send(JSON.stringify(tx));
    const summary = user.lastText();
    expect(summary).toContain("USDT transfer: 12.345678 USDT");
    expect(summary).toContain(`From: ${alice.address}`);
    expect(summary).toContain(`To: ${bob.address}`);
    expect(summary).toContain(`Transaction id: ${tx.txID}`);
    expect(summary).toMatch(/Time left: (9 min|10 min 0 s)/);
    expect(summary).toContain("Estimated energy: about 64,000, or about 130,000 if the recipient has never held USDT.");
    expect(summary).toContain("base price of 100 sun: 6.4 TRX, or 13 TRX for a first-time recipient");
    expect(user.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    const confirm = await user.press("✅ Confirm");
    expect(h.textOf(CHAT, h.pressedMessage(confirm))).toMatch(/^Broadcast [0-9a-f]{24}\nStatus: (pending_energy|ready|broadcasting|confirming|confirmed)/);
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Broadcast")));
    expect(user.lastText()).toContain("is confirmed on chain");
    expect(user.lastText()).toMatch(/Transaction id: [0-9a-f]{64}$/);
    const edits = h.tg.callsOf("editMessageText").map((c) => String(c.params["text"]));
    for (const text of edits.filter((t) => t.includes("Status: <b>confirming"))) expect(text).toContain("This is not final yet");
    expect(broadcastPosts().filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("shows a signed memo escaped, as hex when it hides or reorders text, and bills the bandwidth it adds", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const withMemo = (memo: string) => {
      const tx = trx();
      tx.raw_data["data"] = Buffer.from(memo, "utf8").toString("hex");
      return finalizeAndSign(tx, bob.privateKey);
    };
    await user.send(`/broadcast ${JSON.stringify(withMemo("<b>invoice</b> #7 & co"))}`);
    expect(user.last()!.rawText).toContain("<i>&lt;b&gt;invoice&lt;/b&gt; #7 &amp; co</i>");
    // 22 bytes of memo signed with it (and its tag and length): 24 more bytes of bandwidth than the same transfer without (267).
    expect(user.lastText()).toContain("Estimated bandwidth: about 291");
    const hidden = "pay \u202egnp.exe";
    await user.send(`/broadcast ${JSON.stringify(withMemo(hidden))}`);
    expect(user.lastText()).toContain(`not readable as text (shown as hex): ${Buffer.from(hidden, "utf8").toString("hex")}`);
  });

  it("takes a TRX transfer as a .json document and shows the refund when it fails", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const tx = trx();
    h.sim.control.setBroadcastOutcome(tx.txID, "failed", "node_rejected");
    await user.document({ bytes: JSON.stringify(tx), fileName: "tx.json", mimeType: "application/json" });
    expect(user.lastText()).toContain("TRX transfer: 1.5 TRX");
    // The transfer's real size (transaction, signature and 64 bytes of result), not a fixed figure.
    expect(user.lastText()).toContain("Estimated bandwidth: about 267");
    await user.press("✅ Confirm");
    await h.until(() => user.botTexts().some((t) => t.startsWith("❌ Broadcast")));
    const final = user.lastText();
    expect(final).toContain("failed.\nReason given by the service: node_rejected");
    expect(final).toMatch(/Refund: [\d.]+ TRX is back on your balance/);
    expect(final).toContain("can be sent again with /broadcast while it has not expired");
    expect(h.sim.ledger(account.accountId).some((e) => e.kind === "refund")).toBe(true);
  });

  it("tells an expired broadcast to sign a new transaction, with the refund", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const tx = usdt(1_000_000n);
    h.sim.control.setBroadcastOutcome(tx.txID, "expired");
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    await user.press("✅ Confirm");
    await h.until(() => user.botTexts().some((t) => t.startsWith("⌛ Broadcast")));
    expect(user.lastText()).toContain("expired.\nReason: the transaction expired before the network confirmed it.");
    expect(user.lastText()).toContain("sign a new one with about 600 seconds of expiration");
  });

  it("refuses each broken transaction locally with a precise reason and contacts nobody", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    const tx = usdt();
    const cases: [unknown, string][] = [
      ["{oops", "This is not valid JSON"],
      [[1, 2], "This is not a transaction object"],
      [withDeclaredTxId(tx, "ab".repeat(32)), "The txID does not equal sha256(raw_data_hex)"],
      [tamperTrxAmount(trx(), 9), "raw_data disagrees with raw_data_hex"],
      [stripSignature(tx), "The transaction is not signed"],
      [resignWith(tx, carol.privateKey), "The signature does not match the sender"],
      [withTwoContracts(tx, alice.privateKey), "The transaction holds 2 contracts"],
      [usdt(1n, 10_000), "Expired: the transaction has passed its expiration or has under 30 seconds left"],
      [usdt(1n, 60_000), "s before the transaction expires, under 75 seconds"],
    ];
    const before = h.sim.requests.length;
    for (const [input, expected] of cases) {
      await user.send(`/broadcast ${typeof input === "string" ? input : JSON.stringify(input)}`);
      expect(user.lastText()).toContain(expected);
    }
    await user.document({ bytes: Buffer.alloc(1_048_577, 0x20), fileName: "huge.json" });
    expect(user.lastText()).toContain("over 1 MiB");
    expect(h.sim.requests.length).toBe(before);
  });

  it("shows the existing broadcast on a duplicate and never charges twice", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    const tx = usdt();
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    const firstSummary = user.last()!.messageId;
    await user.send(`/broadcast ${JSON.stringify(tx)}`);
    await user.press("✅ Confirm", { messageId: firstSummary });
    const card = user.botTexts().find((t) => t.startsWith("Broadcast "))!;
    const id = /Broadcast ([0-9a-f]{24})/.exec(card)![1]!;
    await user.press("✅ Confirm");
    expect(user.lastText()).toContain(`This transaction was already submitted: broadcast ${id}`);
    expect(h.sim.ledger(account.accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
  });

  it("deletes a private key or a recovery phrase with a warning, inside and outside the flow", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send(alice.privateKey);
    expect(user.view().some((m) => m.text === alice.privateKey)).toBe(false);
    expect(user.lastText()).toContain("looked like a private key");
    await user.send("/broadcast");
    await user.send("abandon ability able about above absent absorb abstract absurd abuse access accident");
    expect(user.lastText()).toContain("looked like a recovery phrase");
    expect(
      user
        .view()
        .filter((m) => m.from === "user")
        .map((m) => m.text),
    ).toEqual([alice.privateKey, "/broadcast"].slice(1));
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toHaveLength(0);
  });

  it("deletes a secret sent as an edit or a caption, outside and inside a flow", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    const editTo = (messageId: number, text: string) => {
      const from = makeUser({ id: CHAT });
      const message = {
        ...makeMessage({ messageId, chat: makeChat({ id: CHAT, type: "private" }, from), from, text }),
        edit_date: Math.floor(Date.now() / 1000),
      };
      return h.send({ update_id: 900_000 + messageId, edited_message: message } as Update);
    };
    const userMessages = () => user.view().filter((m) => m.from === "user");

    await user.send("hello");
    const hello = userMessages().at(-1)!.messageId;
    await editTo(hello, alice.privateKey);
    expect(userMessages().some((m) => m.messageId === hello)).toBe(false);
    expect(user.lastText()).toContain("looked like a private key");

    await user.document({ bytes: `${bob.address},100000,60\n`, fileName: "orders.csv", caption: `key ${alice.privateKey}` });
    expect(userMessages().some((m) => m.text.includes(alice.privateKey))).toBe(false);
    expect(user.lastText()).toContain("looked like a private key");

    await user.send("/order");
    await user.send("not an address");
    const answer = userMessages().at(-1)!.messageId;
    await editTo(answer, "abandon ability able about above absent absorb abstract absurd abuse access accident");
    expect(userMessages().some((m) => m.messageId === answer)).toBe(false);
    expect(user.lastText()).toContain("looked like a recovery phrase");
    await user.send(bob.address);
    expect(user.lastText()).toContain("How much energy?");
    expect(h.sim.requests.filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("explains every broadcast refusal code of the service in its own words and charges nothing", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const codes: [string, number][] = [
      ["broadcast.malformed", 400],
      ["broadcast.no_signature", 400],
      ["broadcast.invalid_tx", 422],
      ["broadcast.tx_would_revert", 422],
      ["broadcast.insufficient_usdt", 422],
      ["broadcast.insufficient_bandwidth", 422],
      ["broadcast.insufficient_time", 422],
      ["broadcast.tx_expired", 422],
      ["broadcast.unsupported_contract", 422],
      ["broadcast.upstream_unavailable", 503],
    ];
    const texts = new Set<string>();
    for (const [code, status] of codes) {
      h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "status", status, code, times: status === 503 ? 5 : 1 });
      await user.send(`/broadcast ${JSON.stringify(usdt())}`);
      await user.press("✅ Confirm");
      h.sim.faults.clear();
      const text = user.lastText();
      // A known code has its own explanation, not the fallback for codes the bot does not know.
      expect(text, code).not.toContain("an error I do not know");
      texts.add(text);
      expect(user.lastButtons(), code).toEqual(code === "broadcast.upstream_unavailable" ? [["🔁 Retry", "Cancel"]] : []);
    }
    expect(texts.size).toBe(codes.length);
    expect(h.sim.ledger(account.accountId).filter((e) => e.kind === "debit")).toHaveLength(0);
  });

  it("explains the service's own refusals and offers Retry only where it can help", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    h.sim.chain.setTokenBalance(alice.address, 1n);
    await user.send(`/broadcast ${JSON.stringify(usdt())}`);
    await user.press("✅ Confirm");
    const insufficient = user.lastText();
    expect(user.lastButtons()).toEqual([]);
    h.sim.faults.inject({ method: "POST", path: "/v1/broadcasts", kind: "status", status: 503, code: "broadcast.upstream_unavailable", times: 5 });
    await user.send(`/broadcast ${JSON.stringify(trx())}`);
    await user.press("✅ Confirm");
    expect(user.lastButtons()).toEqual([["🔁 Retry", "Cancel"]]);
    expect(user.lastText()).not.toBe(insufficient);
    h.sim.faults.clear();
    await user.press("🔁 Retry");
    expect(user.lastText()).toMatch(/^Broadcast [0-9a-f]{24}/);
    expect(h.sim.ledger(account.accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
  });
});
