import { setTimeout as sleep } from "node:timers/promises";
import { run, type RunnerHandle } from "@grammyjs/runner";
import type { Bot } from "grammy";
import type { Logger } from "pino";
import { registerCommands, type BotContext } from "./bot/index.js";
import type { Config } from "./config.js";
import type { WebhookInbox } from "./shared/webhooks/types.js";
import { createHttpServer, type HttpServer, type HttpServerDeps } from "./server/index.js";
import { apiSignal, type TelegramLink } from "./platform/telegram/telegram-link.js";
import { runStopSteps } from "./platform/stop-steps.js";
import { createWebhookUpdates } from "./platform/telegram/webhook-updates.js";
import type { UpdateSealer } from "./platform/telegram/update-inbox.js";
import type { Metrics } from "./platform/metrics.js";
import type { ServiceClient } from "./platform/service/client.js";
import type { StoreBackend } from "./platform/store/types.js";

/** Update types the bot handles; anything else is not even fetched. */
export const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "inline_query", "my_chat_member"] as const;

export interface IntakeDeps {
  config: Config;
  logger: Logger;
  /** The bot, built with its features (src/app.ts). */
  bot: Bot<BotContext>;
  /** What the HTTP server and the webhook-mode update inbox read and write. */
  store: StoreBackend;
  vault: UpdateSealer;
  metrics: Metrics;
  service: ServiceClient;
  chats: HttpServerDeps["chats"];
  telegram: TelegramLink;
  /** Where /hooks/<routeId> puts the service's webhooks. */
  inbox: Pick<WebhookInbox, "accept">;
  /** This process, as its leases know it: the claim on a webhook update being handled. */
  owner: string;
  /** Polling refused for good (401 revoked token, 409 another instance). */
  onFatal?: (error: unknown) => void;
  /** Whether the store came back without its data (for /readyz). */
  storeDataLost?: () => boolean;
  /** Pages of features on the public port (the signing page). */
  routes?: HttpServerDeps["routes"];
}

/** What comes in: Telegram's updates (polling or /telegram) and the HTTP server (/hooks, /healthz, /readyz, /metrics). */
export interface Intake {
  server: HttpServer;
  /** The HTTP server's port once started (0 before). */
  readonly httpPort: number;
  /**
   * HTTP first (so /healthz answers while getMe is still retried), then
   * Telegram: getMe, the command menu, and the webhook or the runner; a
   * worker takes no Telegram intake. `signal` ends a start still waiting for Telegram.
   */
  start(signal: AbortSignal): Promise<void>;
  /** The runner, then the HTTP server. Failures are logged. */
  stop(): Promise<void>;
}

export function createIntake(deps: IntakeDeps): Intake {
  const { config, logger, telegram, bot } = deps;
  const webhookUpdates =
    config.botMode === "webhook"
      ? createWebhookUpdates({
          bot,
          store: deps.store,
          owner: deps.owner,
          vault: deps.vault,
          logger,
          metrics: deps.metrics,
          // Stored updates are looked at a few times per lease, at most every 10 s: a dead process's move within lease + 10 s.
          tuning: { runLeaseMs: config.webhookUpdateLeaseMs, sweepIntervalMs: Math.min(10_000, Math.max(50, Math.floor(config.webhookUpdateLeaseMs / 3))) },
        })
      : undefined;
  const server = createHttpServer({
    config,
    logger,
    metrics: deps.metrics,
    store: deps.store,
    service: deps.service,
    telegramState: () => telegram.state(),
    ...(deps.storeDataLost ? { storeDataLost: deps.storeDataLost } : {}),
    chats: deps.chats,
    inbox: deps.inbox,
    telegramUpdates: webhookUpdates?.inbox,
    telegramSecretToken: config.telegramWebhookSecret,
    ...(deps.routes ? { routes: deps.routes } : {}),
  });
  let runner: RunnerHandle | undefined;
  let httpPort = 0;

  return {
    server,
    get httpPort() {
      return httpPort;
    },
    async start(signal) {
      httpPort = (await server.start()).port;
      await bot.init(apiSignal(signal));
      logger.info({ username: bot.botInfo.username }, "connected to Telegram");
      if (config.botMode === "worker") {
        // Telegram intake (updates, webhook, command menu) belongs to the process that polls or takes /telegram.
        logger.info({ httpPort }, "started as a worker: no Telegram intake");
        return;
      }
      // The command menu (a dozen calls) is set while polling already runs: updates need not wait for it.
      const menu = registerCommands(bot, { defaultLocale: config.defaultLocale }).catch((error: unknown) => {
        // The command menu is a convenience; the bot works without it.
        logger.warn({ err: error }, "setMyCommands failed");
      });
      if (webhookUpdates) {
        await menu;
        // Updates stored before a crash (or left by a dead replica) first, then whatever /telegram accepts.
        await webhookUpdates.start();
        await bot.api.setWebhook(
          `${String(config.publicUrl)}/telegram`,
          {
            allowed_updates: [...ALLOWED_UPDATES],
            ...(config.telegramWebhookSecret ? { secret_token: config.telegramWebhookSecret } : {}),
          },
          apiSignal(signal),
        );
      } else {
        await bot.api.deleteWebhook(undefined, apiSignal(signal));
        // Updates of one chat in order, different chats in parallel.
        runner = run(bot, { runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES] }, silent: true } });
        runner.task()?.catch((error: unknown) => {
          logger.fatal({ err: error }, "polling stopped: Telegram refused getUpdates");
          deps.onFatal?.(error);
        });
      }
      await menu;
      logger.info({ httpPort }, "started");
    },
    stop: () =>
      runStopSteps(logger, [
        ["runner", async () => (runner?.isRunning() ? stopRunner(runner) : undefined)],
        ["http", () => server.stop()],
        // After /telegram stopped taking updates: those in flight finish, the rest stay stored for the next start.
        ["webhook-updates", async () => webhookUpdates?.stop()],
      ]),
  };
}

/**
 * The runner's stop() ends only the fetching: updates already in its sink keep
 * running and must finish before the stores they write to close (bounded, as
 * the sink's own timeout is).
 */
async function stopRunner(handle: RunnerHandle): Promise<void> {
  await handle.stop();
  const end = Date.now() + 15_000;
  while (handle.size() > 0 && Date.now() < end) await sleep(10);
}
