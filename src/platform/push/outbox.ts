import type { Logger } from "pino";
import type { QueueMode } from "../queue/queue-mode.js";
import { createPushQueue } from "./create-push-queue.js";
import { createTelegramBudget, type TelegramBudget } from "./telegram-budget.js";
import type { PushQueue, PushQueueDeps } from "./types.js";

export type OutboxDeps = Omit<PushQueueDeps, "budget" | "queue" | "redisUrl" | "bullPrefix"> & QueueMode & { logger: Logger };

/** The push queue and the process's one allowance of Telegram messages, which the bot's answers share (they go first). */
export interface Outbox {
  push: PushQueue;
  budget: TelegramBudget;
  /** The queue, then the budget's connection. */
  stop(): Promise<void>;
}

/**
 * On the store the local budget paces both the queue and the bot's answers; on BullMQ the queue's slots are
 * the shared budget's already (every process draws from it), so the queue is not handed the budget again.
 */
export function createOutbox(deps: OutboxDeps): Outbox {
  const budget = createTelegramBudget({ ...deps, ...(deps.limits === undefined ? {} : { limits: deps.limits }) });
  const push = createPushQueue({ ...deps, ...(budget.kind === "local" ? { budget } : {}) });
  return {
    push,
    budget,
    async stop() {
      await push.stop();
      await budget.close();
    },
  };
}
