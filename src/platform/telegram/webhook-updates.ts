import { setTimeout as sleep } from "node:timers/promises";
import { createConcurrentSink, createRunner, createSource, type RunnerHandle } from "@grammyjs/runner";
import type { Bot, BotError, Context } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { StoreBackend } from "../store/types.js";
import { createUpdateInbox, type UpdateInbox, type UpdateInboxDeps, type UpdateSealer } from "./update-inbox.js";

export interface WebhookUpdatesDeps<C extends Context> {
  bot: Bot<C>;
  store: Pick<StoreBackend, "namespace" | "claimLease" | "releaseLease">;
  owner: string;
  /** Seals the stored copy of each update (see the update inbox). */
  vault: UpdateSealer;
  logger: Logger;
  metrics?: Metrics;
  /** Faster leases and sweeps (tests). */
  tuning?: Pick<UpdateInboxDeps, "runLeaseMs" | "sweepIntervalMs" | "seenTtlMs">;
}

export interface WebhookUpdates {
  /** What /telegram hands each update to. */
  inbox: Pick<UpdateInbox<Update>, "accept">;
  /** Takes over stored updates left by a crash, then handles updates as they are accepted. */
  start(): Promise<void>;
  /** Lets updates in flight finish (bounded), then gives up the claims on the rest. */
  stop(): Promise<void>;
}

/** An update still running after this long at shutdown is left to the next start (its stored copy stays). */
const DRAIN_BUDGET_MS = 15_000;

/**
 * BOT_MODE=webhook: the update inbox feeds @grammyjs/runner as getUpdates
 * does in polling mode, so updates run through the same middleware stack
 * (the per-chat sequentialize first) with the runner's concurrency bound,
 * while /telegram answers as soon as the update is stored.
 */
export function createWebhookUpdates<C extends Context>(deps: WebhookUpdatesDeps<C>): WebhookUpdates {
  const { bot, logger } = deps;
  const inbox = createUpdateInbox<Update>({
    store: deps.store,
    owner: deps.owner,
    vault: deps.vault,
    logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...deps.tuning,
  });
  const sink = createConcurrentSink<Update>(
    {
      consume: async (update) => {
        try {
          await bot.handleUpdate(update);
        } finally {
          // Handled or failed past the bot's error boundary: either way it is not handled again (as in polling).
          await inbox.done(update).catch((err: unknown) => logger.warn({ err, updateId: update.update_id }, "could not forget a handled update"));
        }
      },
    },
    async (error) => {
      await bot.errorHandler(error as BotError<C>);
    },
  );
  let runner: RunnerHandle | undefined;

  return {
    inbox,
    async start() {
      runner = createRunner(createSource(inbox.supplier), sink);
      runner.start();
      runner.task()?.catch((err: unknown) => logger.error({ err }, "webhook update runner stopped"));
      await inbox.start();
    },
    async stop() {
      if (runner?.isRunning()) {
        await runner.stop();
        const end = Date.now() + DRAIN_BUDGET_MS;
        while (runner.size() > 0 && Date.now() < end) await sleep(10);
      }
      await inbox.stop();
    },
  };
}
