/**
 * `npm run sandbox`: everything the real bot needs to be walked by hand on
 * loopback — the service simulator, the fake Bot API (behind a front on a
 * fixed port), seeded accounts, and a control API that acts as Telegram users
 * (`npm run -s sandbox:user -- <chatId> send "/start"`). It prints the exact
 * environment for `npm start`. See docs/sandbox.md.
 *
 * Ports (0 = free): SANDBOX_SIM_PORT 8787, SANDBOX_TG_PORT 8788,
 * SANDBOX_BOT_PORT 8789 (the bot's HTTP_PORT), SANDBOX_CONTROL_PORT 8790.
 * SANDBOX_DIR: where the SQLite file, sandbox.env and received media go
 * (default: a fresh temp dir). SANDBOX_STEP_MS: simulator lifecycle step (1000).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startSimulator } from "../testkit/simulator/index.js";
import { startFakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { TEST_KEYS } from "../testkit/tron-sign.js";
import { startControlServer, type SandboxAccounts } from "./lib/sandbox-control.js";
import { startTelegramFront } from "../testkit/telegram-front.js";
import { startFakeTronNode } from "../testkit/fake-tron-node.js";
import { USDT_MAINNET } from "../testkit/tron-sign.js";

const SANDBOX_TOKEN = "7000000001:SANDBOX-fake-token-for-loopback-only";
const DEMO_DEPOSIT_ADDRESS = "TMreuZFrWgyPxuS5ctzaqPKD21yEbbdW9H";

const out = (line = ""): void => void process.stdout.write(`${line}\n`);

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  const port = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number (0 = free)`);
  return port;
}

/** The bot's port is not ours to bind; make sure it is free now, or pick one. */
async function freePort(port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once("error", (e: NodeJS.ErrnoException) =>
      reject(new Error(e.code === "EADDRINUSE" ? `port ${port} is in use (set SANDBOX_BOT_PORT, 0 = free)` : e.message)),
    );
    s.listen(port, "127.0.0.1", () => {
      const chosen = (s.address() as { port: number }).port;
      s.close(() => resolvePort(chosen));
    });
  });
}

async function main(): Promise<void> {
  const dir = resolve(process.env["SANDBOX_DIR"] ?? mkdtempSync(join(tmpdir(), "tron-sandbox-")));
  mkdirSync(dir, { recursive: true });
  const stepMs = Number(process.env["SANDBOX_STEP_MS"] ?? 1000);
  const sim = await startSimulator({ port: portFrom("SANDBOX_SIM_PORT", 8787), orderStepMs: stepMs, broadcastStepMs: stepMs });
  const tg = await startFakeTelegram({ token: SANDBOX_TOKEN, botInfo: { username: "energy_sandbox_bot", first_name: "Energy Sandbox" } });
  const front = await startTelegramFront(tg, { port: portFrom("SANDBOX_TG_PORT", 8788) });
  const botPort = await freePort(portFrom("SANDBOX_BOT_PORT", 8789));
  // The node the sandbox's test wallet asks (scripts/sign-page.ts): alice holds 1,000 USDT, bob holds some too.
  const tronNode = await startFakeTronNode({ network: "mainnet", usdtContract: USDT_MAINNET });
  tronNode.setUsdtBalance(TEST_KEYS.alice.address, 1_000_000_000n);
  tronNode.setUsdtBalance(TEST_KEYS.bob.address, 1_000_000n);

  const accounts: SandboxAccounts = {
    demo: sim.createAccount({ balanceSun: 1_000_000_000, depositAddress: DEMO_DEPOSIT_ADDRESS, address: TEST_KEYS.alice.address }),
    poor: sim.createAccount({ balanceSun: 2_000_000 }),
    nowallet: sim.createAccount({ hasWallet: false }),
  };
  const env: Record<string, string> = {
    BOT_TOKEN: SANDBOX_TOKEN,
    TELEGRAM_API_ROOT: front.apiRoot,
    SERVICE_BASE_URL: sim.baseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
    HTTP_HOST: "127.0.0.1",
    HTTP_PORT: String(botPort),
    PUBLIC_URL: `http://127.0.0.1:${botPort}`,
    // A 1m order is reminded 20 s before its end, so reminders can be watched live (docs/expiry.md).
    EXPIRY_REMINDER_LEAD_SECONDS: "20",
    EXPIRY_REMINDER_RESCAN_SECONDS: "5",
    // A 1m keep plan renews live about once a minute, 10 s before each delegation ends.
    KEEP_TICK_MS: "1000",
    KEEP_RENEWAL_LEAD_MS: "10000",
    KEEP_BALANCE_RECHECK_MS: "3000",
  };
  const envFile = join(dir, "sandbox.env");
  writeFileSync(
    envFile,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
    { mode: 0o600 },
  );

  const control = await startControlServer({
    tg,
    front,
    sim,
    accounts,
    mediaDir: join(dir, "media"),
    port: portFrom("SANDBOX_CONTROL_PORT", 8790),
    info: () => ({ env, envFile, accounts, dir, simulator: sim.baseUrl, telegram: front.apiRoot, tronNode: tronNode.url }),
  });

  const user = control.url === "http://127.0.0.1:8790" ? "npm run -s sandbox:user --" : `SANDBOX_URL=${control.url} npm run -s sandbox:user --`;
  out(`Sandbox ready (state in ${dir})`);
  out(`  service simulator  ${sim.baseUrl}   (lifecycle step ${stepMs} ms)`);
  out(`  fake Bot API       ${front.apiRoot}   (bot @${tg.botInfo.username})`);
  out(`  fake TRON node     ${tronNode.url}   (the test wallet's node: alice holds 1,000 USDT)`);
  out(`  control API        ${control.url}`);
  out();
  out("Accounts (API key / webhook secret):");
  out(`  demo      1000 TRX, deposit ${DEMO_DEPOSIT_ADDRESS}`);
  out(`            ${accounts["demo"]!.apiKey}`);
  out(`            ${accounts["demo"]!.webhookSecret}`);
  out(`  poor      2 TRX                 ${accounts["poor"]!.apiKey}`);
  out(`  nowallet  no wallet yet (404)   ${accounts["nowallet"]!.apiKey}`);
  out();
  out("Run the bot in another terminal (environment only, no .env needed):");
  out();
  out(
    `  env ${Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ")} npm start`,
  );
  out();
  out(`  (or: set -a; . ${envFile}; set +a; npm start)`);
  out();
  out("Act as a user (chat id 1001 is a private chat; negative ids are groups):");
  out(`  ${user} 1001 send "/start"`);
  out(`  ${user} 1001 send "/link ${accounts["demo"]!.apiKey} ${accounts["demo"]!.webhookSecret}"`);
  out(`  ${user} 1001 press "Confirm"        ${user} 1001 show`);
  out(`  ${user} 1001 inline "100k 1h"       ${user} 1001 doc ./tx.json`);
  out(`  ${user} tx usdt 12.5 > tx.json      (an offline-signed USDT transfer, test key alice)`);
  out(`  ${user} 1001 send "/send TQCq78eKWLd98P5Eu155knhkacGPAhS9pu 12.5"  then press "Confirm", then`);
  out(`  ${control.url === "http://127.0.0.1:8790" ? "" : `SANDBOX_URL=${control.url} `}npm run -s sandbox:sign -- <the card's /sign/… link> --shot page.png`);
  out();
  out("The Mini App of a private chat (docs/mini-app.md), in headless Chromium or as a URL for any browser:");
  const appRun = `${control.url === "http://127.0.0.1:8790" ? "" : `SANDBOX_URL=${control.url} `}npm run -s sandbox:app --`;
  out(`  ${appRun} 1001 --shot app.png      (--lang ru, --light, --url)`);
  out();
  out("Webhooks: after /link (or /webhook) shows your callback URL, make the simulator post there:");
  out(`  ${user} 1001 hook                   (takes the newest …/hooks/<routeId> URL shown in chat 1001)`);
  out(`  ${user} 1001 hook http://127.0.0.1:${botPort}/hooks/<routeId>`);
  out();
  out("Ctrl-C stops the sandbox.");

  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await control.close();
      await tronNode.close();
      await front.close();
      await tg.close();
      await sim.stop();
      process.exit(0);
    })();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
