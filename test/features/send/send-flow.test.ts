/**
 * /send as the chat and the signing link see it, over loopback (docs/send.md): a quote, Confirm, a one-time
 * link, a signed transfer handed in through it, one broadcast with exactly those bytes under the chat's key,
 * and the quote turned into the broadcast's card. A transaction that is not the confirmed transfer never
 * reaches the service.
 */
import { describe, expect, it } from "vitest";
import { TronWeb, utils } from "tronweb";
import { signContract, signTrc20Transfer, TEST_KEYS, USDT_MAINNET, type SignedTx } from "../../../testkit/tron-sign.js";
import { RECEIVER, useSqliteAppWorld, waitFor } from "../../app-harness.js";

const CHAT = 7501;
const LINK = /\/sign\/([A-Za-z0-9_-]{24})/;

describe("/send: quote, signing link, broadcast", () => {
  const world = useSqliteAppWorld();

  async function linkedApp() {
    const { w, target } = world;
    const app = await w.startApp(target);
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    return { w, app };
  }

  /** `/send` → Confirm: the card's message id and the link's token. */
  async function confirmed(w: typeof world.w, text = `/send ${RECEIVER} 12.5`) {
    const quote = await w.say(CHAT, text, (m) => m.text.includes("Send USDT from your wallet"));
    // As quoted: the stored message is the card, and Confirm rewrites it.
    const quoted = quote.text;
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm and sign"));
    const token = await waitFor(() => LINK.exec(w.textOf(CHAT, quote.messageId))?.[1], "the signing link");
    return { cardId: quote.messageId, token, quoted };
  }

  const post = (port: number, token: string, signedTx: unknown) =>
    fetch(`http://127.0.0.1:${port}/sign/${token}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ signedTx }) });

  const transfer = (amountAtomic = 12_500_000n, to = RECEIVER): SignedTx =>
    signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to, amountAtomic, expirationMs: Date.now() + 600_000, nowMs: Date.now() });

  const broadcastPosts = (w: typeof world.w) => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts");

  it("quotes the transfer with both fee estimates, and Confirm turns the quote into a link that works once", async () => {
    const { w, app } = await linkedApp();
    const { cardId, token, quoted } = await confirmed(w);
    // Both documented estimates: a recipient that holds USDT, and one that never did.
    expect(quoted).toContain("about 64,000 energy");
    expect(quoted).toContain("about 130,000 energy");
    const card = w.tg.view(CHAT).find((m) => m.messageId === cardId)!;
    expect(card.text).toContain("12.5 USDT");
    expect(card.buttons.flat().find((b) => b.text === "✍️ Sign in wallet")?.url).toBe(`https://bot.example.test/sign/${token}`);

    const page = await fetch(`http://127.0.0.1:${app.httpPort}/sign/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain(RECEIVER);
    // The page states the fee as the quote did: both estimates, the same figures.
    const [, holderTrx, firstTimeTrx] = /about ([\d.,]+) TRX \(about 64,000 energy\), or ([\d.,]+) TRX/.exec(quoted)!;
    expect(html).toContain(`about ${holderTrx} TRX from your bot balance, or ${firstTimeTrx} TRX if the recipient has never held USDT`);

    const signed = transfer();
    const answer = await post(app.httpPort, token, signed);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: "sent" });
    // Exactly the signed bytes, under the chat's key.
    const [sent] = broadcastPosts(w);
    expect(broadcastPosts(w)).toHaveLength(1);
    expect(sent!.authorization).toBe(`Bearer ${w.demo.apiKey}`);
    await waitFor(() => /confirmed/.test(w.textOf(CHAT, cardId)), "the confirmed card");
    expect(w.textOf(CHAT, cardId)).toContain(signed.txID);
    expect(w.textOf(CHAT, cardId)).toContain("The sender paid no TRX for energy: your balance covered it.");

    const again = await post(app.httpPort, token, signed);
    expect(again.status).toBe(410);
    expect((await fetch(`http://127.0.0.1:${app.httpPort}/sign/${token}`)).status).toBe(410);
    expect(broadcastPosts(w)).toHaveLength(1);
  });

  it("refuses a signed approve, another amount and another recipient: nothing reaches the service, and the chat is told", async () => {
    const { w, app } = await linkedApp();
    const { cardId, token } = await confirmed(w);
    const hex = (a: string) => TronWeb.address.toHex(a).toLowerCase();
    const approveData =
      TronWeb.sha3("approve(address,uint256)").slice(2, 10) + utils.abi.encodeParams(["address", "uint256"], [TEST_KEYS.erin.address, 2n ** 255n]).slice(2);
    const approve = signContract({
      privateKey: TEST_KEYS.alice.privateKey,
      type: "TriggerSmartContract",
      value: { data: approveData, owner_address: hex(TEST_KEYS.alice.address), contract_address: hex(USDT_MAINNET) },
      expirationMs: Date.now() + 600_000,
      nowMs: Date.now(),
      feeLimit: 30_000_000,
    });
    for (const [tx, words] of [
      [approve, "approve spending"],
      [transfer(12_500_001n), "another amount"],
      [transfer(12_500_000n, TEST_KEYS.erin.address), "another recipient"],
    ] as const) {
      const answer = await post(app.httpPort, token, tx);
      expect(answer.status).toBe(422);
      expect(await answer.json()).toMatchObject({ status: "mismatch" });
      await waitFor(() => w.tg.botMessages(CHAT).find((m) => m.text.includes(words) && m.replyTo === cardId), `the chat told of ${words}`);
    }
    expect(broadcastPosts(w)).toHaveLength(0);
    // Nothing was spent: the honest transfer still goes through the same link.
    expect((await post(app.httpPort, token, transfer())).status).toBe(200);
  });

  it("says so when the wallet already broadcast the transaction itself, charging nothing twice", async () => {
    const { w, app } = await linkedApp();
    const { cardId, token } = await confirmed(w);
    const signed = transfer();
    // The wallet sent it on its own: the service has it in flight when the bot posts it.
    const own = w.sim.createAccount({ balanceSun: 100_000_000 });
    const sentByWallet = await fetch(`${w.sim.baseUrl}/v1/broadcasts`, {
      method: "POST",
      headers: { authorization: `Bearer ${own.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ signedTx: signed }),
    });
    expect(sentByWallet.status).toBe(202);
    const answer = await post(app.httpPort, token, signed);
    expect(await answer.json()).toMatchObject({ status: "already_sent" });
    await waitFor(() => /already sent this transaction itself/.test(w.textOf(CHAT, cardId)), "the card saying the wallet sent it");
  });

  it("asks the chat's limits at Confirm: a frozen account gets no link, and the refusal carries Unfreeze", async () => {
    const { w } = await linkedApp();
    await w.say(CHAT, "/freeze", (m) => m.text.includes("Frozen"));
    const quote = await w.say(CHAT, `/send ${RECEIVER} 12.5`, (m) => m.text.includes("Send USDT from your wallet"));
    const refusal = w.tg.waitForBotMessage(CHAT, 30_000, (m) => m.text.includes("spending from this account is frozen"));
    w.front.enqueue(w.tg.press(CHAT, "✅ Confirm and sign", { messageId: quote.messageId }));
    expect((await refusal).buttons.flat().map((b) => b.text)).toEqual(expect.arrayContaining([expect.stringContaining("Unfreeze")]));
    expect(LINK.test(w.textOf(CHAT, quote.messageId))).toBe(false);
  });

  it("without PUBLIC_URL says what the operator must set, and offers no Send on the menu", async () => {
    const { w, target } = world;
    await w.startApp(target, { PUBLIC_URL: "" });
    await w.say(CHAT, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => /connected/i.test(m.text));
    await w.say(CHAT, `/send ${RECEIVER} 12.5`, (m) => m.text.includes("PUBLIC_URL"));
    const menu = await w.say(CHAT, "/start", (m) => m.buttons.length > 0);
    expect(menu.buttons.flat().map((b) => b.text)).not.toContain("✉️ Send USDT");
  });

  it("📷 QR code gives the link as a picture on a fresh link, and the picture goes once the link is used", async () => {
    const { w, app } = await linkedApp();
    const { cardId, token } = await confirmed(w);
    const photo = w.tg.waitForBotMessage(CHAT, 30_000, (m) => m.photo !== undefined);
    w.front.enqueue(w.tg.press(CHAT, "📷 QR code", { messageId: cardId }));
    const qr = await photo;
    const fresh = await waitFor(() => {
      const now = LINK.exec(w.textOf(CHAT, cardId))?.[1];
      return now !== token ? now : undefined;
    }, "the card's fresh link");
    // The link before the QR's no longer opens.
    expect((await post(app.httpPort, token, transfer())).status).toBe(410);
    expect((await post(app.httpPort, fresh, transfer())).status).toBe(200);
    await waitFor(() => !w.tg.view(CHAT).some((m) => m.messageId === qr.messageId), "the QR code removed");
  });

  it("refuses an unknown or malformed link, and a body far larger than a signed transfer before reading it", async () => {
    const { w, app } = await linkedApp();
    const { token } = await confirmed(w);
    const huge = await fetch(`http://127.0.0.1:${app.httpPort}/sign/${token}`, { method: "POST", body: "x".repeat(20_000) });
    expect(huge.status).toBe(413);
    expect((await post(app.httpPort, "A".repeat(24), transfer())).status).toBe(410);
    expect((await post(app.httpPort, "not-a-token", transfer())).status).toBe(410);
    expect((await fetch(`http://127.0.0.1:${app.httpPort}/sign/${"B".repeat(24)}`)).status).toBe(410);
    expect(broadcastPosts(w)).toHaveLength(0);
  });

  it("answers a bad recipient and a bad amount with what is wrong", async () => {
    const { w } = await linkedApp();
    await w.say(CHAT, "/send Tnotanaddress 5", (m) => m.text.includes("neither a TRON address nor a saved label"));
    await w.say(CHAT, `/send ${RECEIVER} five`, (m) => m.text.includes("is not an amount of USDT"));
    await w.say(CHAT, `/send ${RECEIVER} 0`, (m) => m.text.includes("must be above zero"));
  });

  it("guides /send alone: who, then how much with one-tap amounts, then the same quote", async () => {
    const { w } = await linkedApp();
    await w.say(CHAT, "/send", (m) => m.text.includes("Who receives it?"));
    await w.say(CHAT, "Tnotanaddress", (m) => m.text.includes("neither a TRON address nor a saved label"));
    const ask = await w.say(CHAT, RECEIVER, (m) => m.text.includes("How much USDT"));
    expect(ask.buttons.flat().map((b) => b.text)).toEqual(expect.arrayContaining(["10 USDT", "50 USDT", "100 USDT"]));
    const quote = w.tg.waitForBotMessage(CHAT, 30_000, (m) => m.text.includes("Send USDT from your wallet"));
    w.front.enqueue(w.tg.press(CHAT, "50 USDT"));
    expect((await quote).text).toContain("50 USDT");
  });

  it("offers ✉️ Send USDT on the home card, whose first question takes the card's place", async () => {
    const { w } = await linkedApp();
    const menu = await w.say(CHAT, "/start", (m) => m.buttons.flat().some((b) => b.text === "✉️ Send USDT"));
    const count = w.tg.botMessages(CHAT).length;
    w.front.enqueue(w.tg.press(CHAT, "✉️ Send USDT", { messageId: menu.messageId }));
    // The first question takes the home card's place.
    await waitFor(() => w.textOf(CHAT, menu.messageId).includes("Who receives it?"), "the send question on the card");
    expect(w.tg.botMessages(CHAT)).toHaveLength(count);
  });
});
