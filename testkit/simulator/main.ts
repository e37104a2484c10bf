import { startSimulator } from "./index.js";

/**
 * `npm run simulator`: a long-running simulator for manual runs of the bot.
 * SIMULATOR_PORT (default: a free port), SIMULATOR_CALLBACK_URL (optional).
 */
const DEMO_DEPOSIT_ADDRESS = "TMreuZFrWgyPxuS5ctzaqPKD21yEbbdW9H";

async function main(): Promise<void> {
  const port = process.env["SIMULATOR_PORT"] ? Number(process.env["SIMULATOR_PORT"]) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error("SIMULATOR_PORT must be a port number");
  const sim = await startSimulator({ port });
  const demo = sim.createAccount({ balanceSun: 1_000_000_000, depositAddress: DEMO_DEPOSIT_ADDRESS });
  const callbackUrl = process.env["SIMULATOR_CALLBACK_URL"];
  if (callbackUrl) sim.setCallbackUrl(demo.apiKey, callbackUrl);

  console.log(`service simulator listening on ${sim.baseUrl}`);
  console.log(`  demo account   ${demo.accountId} (balance 1000 TRX, deposit address ${DEMO_DEPOSIT_ADDRESS})`);
  console.log(`  API key        ${demo.apiKey}`);
  console.log(`  webhook secret ${demo.webhookSecret}`);
  console.log(`  callback URL   ${callbackUrl ?? "(none; set SIMULATOR_CALLBACK_URL)"}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping simulator`);
    sim.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
