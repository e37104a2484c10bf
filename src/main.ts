import { createApp } from "./app.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { createLogger } from "./logger.js";

/** Shutdown must finish within this budget; then the process exits anyway. */
const SHUTDOWN_BUDGET_MS = 9_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line naming the variable; the value is never printed.
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ level: config.logLevel });
  let stopping: Promise<void> | undefined;
  let exitCode = 0;
  const shutdown = (reason: NodeJS.Signals | "fatal"): void => {
    if (stopping) return;
    logger.info({ reason }, "shutting down");
    const deadline = setTimeout(() => {
      logger.error("shutdown budget exceeded; exiting");
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    deadline.unref();
    stopping = app.stop().then(
      () => {
        logger.info("stopped");
        logger.flush();
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, "error while stopping");
        process.exit(1);
      },
    );
  };
  const app = await createApp({
    config,
    logger,
    onFatal: () => {
      exitCode = 1;
      shutdown("fatal");
    },
  });
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);

  await app.start();
}

main().catch((error: unknown) => {
  process.stderr.write(`Fatal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
