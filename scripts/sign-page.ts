/**
 * `npm run sandbox:sign -- <signing link> [--wallet honest|approve|other-amount|other-recipient|rejects-signing|none]
 * [--shot page.png] [--no-sign] [--dark]`: opens a signing page of the sandbox's bot in headless Chromium with the
 * sandbox's test wallet (test key alice, the sandbox's fake TRON node), presses "Sign and send" and prints
 * what the page says. Screenshots before and after signing when --shot is given (`page.png`, `page-after.png`).
 */
import { launchChromium } from "../testkit/browser.js";
import { installTestWallet, type WalletBehaviour } from "../testkit/test-wallet.js";
import { TEST_KEYS } from "../testkit/tron-sign.js";

const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const url = args.find((a) => /^https?:\/\//.test(a));
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!url) {
    out(
      "usage: npm run sandbox:sign -- <signing link> [--wallet honest|approve|other-amount|other-recipient|rejects-signing|none] [--shot page.png] [--no-sign]",
    );
    return 2;
  }
  const base = (process.env["SANDBOX_URL"] ?? "http://127.0.0.1:8790").replace(/\/+$/, "");
  const info = (await (await fetch(`${base}/info`)).json()) as { tronNode?: string };
  if (!info.tronNode) throw new Error(`the sandbox at ${base} runs no fake TRON node`);
  const wallet = option("--wallet") ?? "honest";
  const shot = option("--shot");
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 780 }, colorScheme: args.includes("--dark") ? "dark" : "light" });
    if (wallet !== "none") {
      await installTestWallet(page, { privateKey: TEST_KEYS.alice.privateKey, nodeUrl: info.tronNode, behaviour: wallet as WalletBehaviour });
    }
    await page.goto(url);
    const status = () => page.locator("#status").textContent();
    const sign = page.locator("#sign");
    // The page's strict CSP refuses evaluated code: wait on what it shows.
    await page.locator("body[data-state]").waitFor({ timeout: 15_000 });
    out(`before: ${(await status()) ?? ""}`);
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    out(`state: ${(await page.getAttribute("body", "data-state")) ?? ""}`);
    if (args.includes("--no-sign") || !(await sign.isVisible())) return 0;
    await sign.click();
    const settled = ["done", "failed", "retry", "declined"].map((state) => `body[data-state="${state}"]`).join(", ");
    await page.locator(settled).waitFor({ timeout: 30_000 });
    out(`after: ${(await status()) ?? ""}`);
    if (shot) await page.screenshot({ path: shot.replace(/(\.png)?$/, "-after.png"), fullPage: true });
    return 0;
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sandbox:sign: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
