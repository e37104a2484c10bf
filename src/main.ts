import type { GrammyError } from "grammy";
import { setTimeout as sleep } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { EXIT_CODES } from "./exit-codes.js";
import { createLogger } from "./platform/logger.js";

/** Shutdown must finish within this budget; then the process exits anyway. */
const SHUTDOWN_BUDGET_MS = 9_000;

/** Every bad variable in one line, never a value, with the two ways to get going. */
function configErrorLine(error: ConfigError): string {
  return (
    `Configuration error: ${error.message}. ` +
    "Copy .env.example to .env and fill it in (or set these variables), or try the bot against a simulated service and Telegram with `npm run sandbox`."
  );
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${configErrorLine(error)}\n`);
      process.exit(EXIT_CODES.failed);
    }
    throw error;
  }
}

/** The one line an operator reads when the app cannot go on; never the token. */
function fatalLine(error: unknown, config: Config, grammyError: typeof GrammyError): string {
  // Telegram answers 401 to a revoked or mistyped token (404 when its shape is wrong).
  if (error instanceof grammyError && (error.error_code === 401 || error.error_code === 404)) {
    return `Telegram refused BOT_TOKEN: ${error.method} at ${config.telegramApiRoot} answered ${error.error_code} ${error.description}. Check the token with @BotFather.`;
  }
  return `Fatal: ${error instanceof Error ? error.message : String(error)}`;
}

/** How the process ends after an error it cannot go on from (exit-codes.ts). */
function exitCodeOf(error: unknown, grammyError: typeof GrammyError): number {
  if (error instanceof grammyError && [401, 404, 409].includes(error.error_code)) return EXIT_CODES.telegramRefused;
  const name = error instanceof Error ? error.name : "";
  if (name === "StoreInUseError") return EXIT_CODES.storeInUse;
  if (name === "StoreRefusedError") return EXIT_CODES.storeRefused;
  return EXIT_CODES.failed;
}

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline
 * compiler (Liftoff) and then again, in the background, with TurboFan: that second compile of
 * llhttp's large parser function took about 35 MB for a moment after the first Bot API call and
 * left about 10 MB behind, for no gain measurable in undici's requests per second. The flag is
 * read when a module is compiled, so it holds if set before the first request.
 */
function keepWebAssemblyOnBaselineCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

async function main(): Promise<void> {
  keepWebAssemblyOnBaselineCompiler();
  const config = readConfig();
  // Loaded only once the configuration is valid: a configuration error is told without loading the
  // whole app (grammY, TronWeb, the store drivers), which takes a second of CPU.
  const [{ createApp }, { GrammyError }, { isStoreUnreachable }, { START_RETRY }] = await Promise.all([
    import("./app.js"),
    import("grammy"),
    import("./platform/store/store-outage.js"),
    import("./shared/storage.js"),
  ]);
  // While the store watch says the store is down, every worker's failure to reach it is the same news: told once, by the watch.
  let storeDown = false;
  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  // One that fails before the watch noticed makes it look at once: the outage is told after a line or two, not a tick later.
  const demote = (err: unknown): boolean => {
    if (!isStoreUnreachable(err)) return false;
    if (!storeDown) app?.lookAtStore();
    return storeDown;
  };
  const logger = createLogger({ level: config.logLevel, demote });
  // The app's own failures are caught where they happen; one that slips through is a bug to log, not a reason to leave a working bot.
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled rejection (a bug): the bot goes on"));
  let stopping: Promise<void> | undefined;
  let exitCode: number = EXIT_CODES.stopped;
  // Ends a start still waiting for the store.
  const starting = new AbortController();
  const shutdown = (reason: NodeJS.Signals | "fatal"): void => {
    if (stopping) return;
    logger.info({ reason }, "shutting down");
    starting.abort(new Error("shutting down"));
    const deadline = setTimeout(() => {
      logger.error("shutdown budget exceeded; exiting");
      process.exit(exitCode === EXIT_CODES.stopped ? EXIT_CODES.shutdownStuck : exitCode);
    }, SHUTDOWN_BUDGET_MS);
    deadline.unref();
    stopping = (app ? app.stop() : Promise.resolve()).then(
      () => {
        logger.info({ exitCode }, "stopped");
        logger.flush();
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, "error while stopping");
        process.exit(exitCode === EXIT_CODES.stopped ? EXIT_CODES.failed : exitCode);
      },
    );
  };
  const fail = (error: unknown): void => {
    if (stopping) return; // a signal came first: that shutdown is under way
    process.stderr.write(`${fatalLine(error, config, GrammyError)}\n`);
    exitCode = exitCodeOf(error, GrammyError);
    shutdown("fatal");
  };
  // Before the app exists: a stop asked while the store is still awaited ends the wait.
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  // A start the store's outage cuts short (the store went away after it was opened) is undone and made again once the
  // store is back, with backoff; told once per outage. A store that refuses, or any other failure, ends the process.
  let outageTold = false;
  let retryInMs = START_RETRY.firstDelayMs;
  for (;;) {
    storeDown = false;
    try {
      app = await createApp({
        config,
        logger,
        onFatal: fail,
        signal: starting.signal,
        storeOutageTold: outageTold,
        onStoreReachability: (up) => {
          storeDown = !up;
        },
      });
    } catch (error) {
      if (stopping) return; // the wait for the store ended by a signal
      fail(error);
      return;
    }
    if (stopping) return; // a signal came while the store was opened: that shutdown stops this app
    try {
      await app.start();
      return;
    } catch (error) {
      if (stopping) return;
      if (!isStoreUnreachable(error)) {
        fail(error);
        return;
      }
      if (!outageTold) logger.warn({ err: error, retryInMs }, "store unreachable while starting; starting again once it is reachable");
      else logger.debug({ err: error, retryInMs }, "store unreachable while starting again");
      outageTold = true;
    }
    const cut = app;
    // What the cut start began (workers, intake, the store's connections) is stopped; the next start is a whole new app.
    await cut.stop().catch((error: unknown) => logger.warn({ err: error }, "error while undoing a start the store's outage cut short"));
    if (stopping) return;
    app = undefined;
    try {
      await sleep(retryInMs, undefined, { signal: starting.signal });
    } catch {
      return; // a signal: that shutdown is under way
    }
    retryInMs = Math.min(retryInMs * 2, START_RETRY.maxDelayMs);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Fatal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(EXIT_CODES.failed);
});
