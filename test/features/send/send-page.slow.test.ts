/**
 * The signing page in a real headless Chromium (docs/send.md): a TronLink-like test wallet signing with a
 * test key against a fake TRON node on loopback, the bot on loopback, the simulator behind it. From /send to
 * the confirmed card through the page, and each way a wallet can let the user down on the page itself.
 * Screenshots land in SIGN_PAGE_SCREENSHOTS when it is set.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../../testkit/browser.js";
import { startFakeTronNode, type FakeTronNode, type TronNetwork } from "../../../testkit/fake-tron-node.js";
import { installTestWallet, type WalletBehaviour } from "../../../testkit/test-wallet.js";
import { TEST_KEYS, USDT_MAINNET, type SignedTx } from "../../../testkit/tron-sign.js";
import { RECEIVER, useSqliteAppWorld, waitFor } from "../../app-harness.js";

const LINK = /\/sign\/([A-Za-z0-9_-]{24})/;
const SHOTS = process.env["SIGN_PAGE_SCREENSHOTS"];
const { alice } = TEST_KEYS;

describe.skipIf(!chromiumAvailable())("the signing page in Chromium (skipped without /usr/bin/chromium: apt-get install chromium)", () => {
  const world = useSqliteAppWorld();
  let browser: Browser;
  const nodes: FakeTronNode[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const node of nodes.splice(0)) await node.close();
  });

  async function node(network: TronNetwork = "mainnet"): Promise<FakeTronNode> {
    const started = await startFakeTronNode({ network, usdtContract: USDT_MAINNET });
    started.setUsdtBalance(alice.address, 100_000_000n);
    started.setHolder(RECEIVER, true);
    nodes.push(started);
    return started;
  }

  /** A linked chat in `language` with a confirmed /send: the card and the page's local address. */
  async function confirmedSend(chat: number, language = "en") {
    const { w, target } = world;
    const app = await w.startApp(target);
    // The chat's Telegram app speaks `language`: the bot answers in it, and the page follows.
    w.tg.addChat(chat, { languageCode: language });
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    const quote = await w.say(chat, `/send ${RECEIVER} 12.5`, (m) => m.text.includes("USDT"));
    w.front.enqueue(w.tg.press(chat, /Confirm|Подтвердить|确认/));
    const token = await waitFor(() => LINK.exec(w.textOf(chat, quote.messageId))?.[1], "the signing link");
    return { w, cardId: quote.messageId, url: `http://127.0.0.1:${app.httpPort}/sign/${token}` };
  }

  async function openWith(
    url: string,
    wallet: { behaviour?: WalletBehaviour; nodeUrl?: string; approveAccounts?: boolean; onSigned?: (tx: SignedTx) => Promise<void> | void } | undefined,
  ) {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const offHost: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith("http://127.0.0.1:") && !r.url().startsWith("data:")) offHost.push(r.url());
    });
    if (wallet) await installTestWallet(page, { privateKey: alice.privateKey, nodeUrl: wallet.nodeUrl ?? (await node()).url, ...wallet });
    await page.goto(url);
    return { page, offHost, close: () => context.close() };
  }

  const statusOf = (page: Page) => page.locator("#status").textContent();
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  it("signs in the wallet and sends: one broadcast of exactly the signed bytes, and the card ends confirmed", async () => {
    const { w, cardId, url } = await confirmedSend(7601);
    const signed: SignedTx[] = [];
    const { page, offHost, close } = await openWith(url, { behaviour: "honest", onSigned: (tx) => void signed.push(tx) });
    await page.locator("#sign").click();
    await expect.poll(() => statusOf(page)).toContain("Sent.");
    await shot(page, "sign-page-en-sent");
    const posts = w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/broadcasts");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.authorization).toBe(`Bearer ${w.demo.apiKey}`);
    await waitFor(() => /confirmed/.test(w.textOf(7601, cardId)), "the confirmed card");
    expect(w.textOf(7601, cardId)).toContain(signed[0]!.txID);
    expect(offHost).toEqual([]);
    await close();
  });

  for (const behaviour of ["approve", "other-amount", "other-recipient"] as const) {
    it(`refuses what a wallet signed instead (${behaviour}) and sends nothing`, async () => {
      const { w, url } = await confirmedSend(7602);
      const { page, close } = await openWith(url, { behaviour });
      await page.locator("#sign").click();
      await expect.poll(() => statusOf(page)).toContain("does not match");
      expect(w.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toHaveLength(0);
      await close();
    });
  }

  it("says the wallet sent it itself when it broadcast on its own", async () => {
    const { w, url } = await confirmedSend(7603);
    const own = w.sim.createAccount({ balanceSun: 100_000_000 });
    const { page, close } = await openWith(url, {
      behaviour: "honest",
      onSigned: async (tx) => {
        await fetch(`${w.sim.baseUrl}/v1/broadcasts`, {
          method: "POST",
          headers: { authorization: `Bearer ${own.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ signedTx: tx }),
        });
      },
    });
    await page.locator("#sign").click();
    await expect.poll(() => statusOf(page)).toContain("Your wallet sent this transaction itself");
    await close();
  });

  it("explains how to open the link in a wallet, with its QR code, when the browser has none", async () => {
    const { url } = await confirmedSend(7604);
    const { page, offHost, close } = await openWith(url, undefined);
    await expect.poll(() => page.locator("#no-wallet").isVisible()).toBe(true);
    expect(await page.locator("#no-wallet img").getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await page.locator("#sign").isVisible()).toBe(false);
    await shot(page, "sign-page-en-no-wallet");
    expect(offHost).toEqual([]);
    await close();
  });

  it("says so when the wallet declines to sign, sends nothing, and keeps the link for another try", async () => {
    const { w, url } = await confirmedSend(7607);
    const { page, close } = await openWith(url, { behaviour: "rejects-signing" });
    await page.locator("#sign").click();
    await expect.poll(() => statusOf(page)).toContain("You declined in the wallet");
    expect(w.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toHaveLength(0);
    expect(await page.locator("#sign").isVisible()).toBe(true);
    await close();
  });

  it("offers to connect again when the wallet shares no account", async () => {
    const { url } = await confirmedSend(7608);
    const { page, close } = await openWith(url, { behaviour: "honest", approveAccounts: false });
    await expect.poll(() => page.getAttribute("body", "data-state")).toBe("retry");
    expect(await statusOf(page)).toContain("did not share an account");
    expect(await page.locator("#sign").textContent()).toBe("Connect wallet");
    await close();
  });

  it("tells a wallet on another network so before anything is signed", async () => {
    const { url } = await confirmedSend(7605);
    const nile = await node("nile");
    const { page, close } = await openWith(url, { behaviour: "honest", nodeUrl: nile.url });
    await expect.poll(() => statusOf(page)).toContain("another network (nile)");
    expect(await page.locator("#sign").isVisible()).toBe(false);
    await close();
  });

  it("is dead once used: the same link again shows the link-dead page", async () => {
    const { url } = await confirmedSend(7606);
    const first = await openWith(url, { behaviour: "honest" });
    await first.page.locator("#sign").click();
    await expect.poll(() => statusOf(first.page)).toContain("Sent.");
    await first.close();
    const again = await openWith(url, { behaviour: "honest" });
    expect(await again.page.textContent("body")).toContain("no longer valid");
    await again.close();
  });

  for (const language of ["en", "ru", "zh"] as const) {
    it(`shows the transfer in the chat's language (${language}) before signing`, async () => {
      const { url } = await confirmedSend(7610, language);
      const { page, close } = await openWith(url, { behaviour: "honest" });
      await expect.poll(() => page.locator("#sign").isVisible()).toBe(true);
      expect(await page.getAttribute("html", "lang")).toBe(language);
      expect(await page.locator(".amount").textContent()).toContain("12");
      await shot(page, `sign-page-${language}`);
      await close();
    });
  }
});
