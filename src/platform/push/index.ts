export { createPushQueue } from "./create-push-queue.js";
export { createOutbox, type Outbox, type OutboxDeps } from "./outbox.js";
export type { TelegramBudget } from "./telegram-budget.js";
export { classifyPushError, type PushFailure } from "./classify-error.js";
export {
  TELEGRAM_LIMITS,
  PUSH_PRIORITIES,
  type PushJob,
  type PushLimits,
  type PushMethod,
  type PushPriority,
  type PushQueue,
  type PushQueueDeps,
} from "./types.js";
