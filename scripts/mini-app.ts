/**
 * `npm run sandbox:app -- <chatId> [--lang en|ru|zh] [--light] [--shot app.png] [--url]`: opens the sandbox
 * bot's Mini App as Telegram would for that private chat's user (launch data signed with the sandbox's bot
 * token, Telegram's theme in the hash) in headless Chromium, and prints what it shows: the balance and the
 * ledger rows, or the refusal. `--url` only prints the launch URL, to paste into any browser (it works for
 * an hour, as launch data does).
 */
import { launchChromium } from "../testkit/browser.js";
import { DARK_THEME, LIGHT_THEME, launchUrl, signInitData } from "../testkit/mini-app-launch.js";

const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const chatId = Number(args[0]);
  if (!Number.isSafeInteger(chatId) || chatId <= 0) {
    out("usage: npm run sandbox:app -- <private chat id> [--lang en|ru|zh] [--light] [--shot app.png] [--url]");
    return 2;
  }
  const base = (process.env["SANDBOX_URL"] ?? "http://127.0.0.1:8790").replace(/\/+$/, "");
  const info = (await (await fetch(`${base}/info`)).json()) as { env: Record<string, string> };
  const token = info.env["BOT_TOKEN"]!;
  const appUrl = `http://127.0.0.1:${info.env["HTTP_PORT"]!}/app`;
  const initData = signInitData(token, {
    user: { id: chatId, first_name: "Sandbox", language_code: option("--lang") ?? "en" },
    authDateS: Math.floor(Date.now() / 1000),
  });
  const url = launchUrl(appUrl, initData, args.includes("--light") ? LIGHT_THEME : DARK_THEME);
  if (args.includes("--url")) {
    out(url);
    return 0;
  }
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 780 } });
    await page.goto(url);
    // The page asks its API once or twice; once the network is quiet it shows the answer.
    await page.waitForLoadState("networkidle");
    const balance = await page
      .locator("#balance-trx")
      .textContent({ timeout: 1_000 })
      .catch(() => null);
    if (balance) out(`balance: ${balance} (${(await page.locator("#balance-sun").textContent()) ?? ""})`);
    const status = await page
      .locator("#status")
      .textContent({ timeout: 1_000 })
      .catch(() => null);
    if (status) out(`says: ${status}`);
    for (const row of await page.locator("li.row .row-text").allTextContents()) out(`\n${row}`);
    const shot = option("--shot");
    if (shot) {
      await page.screenshot({ path: shot, fullPage: true });
      out(`\nscreenshot: ${shot}`);
    }
    return 0;
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sandbox:app: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
