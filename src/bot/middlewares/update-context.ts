import type { Middleware } from "grammy";
import type { Logger } from "pino";
import type { Metrics } from "../../platform/metrics.js";
import type { BotContext } from "../context.js";
import { bindLogger } from "../helpers/lazy-logger.js";
import type { AnsweredQueries } from "./answered-queries.js";

const FAILED = Symbol("update-failed");

/** Marks the update as failed for the update counter (set by the error handler). */
export function markUpdateFailed(ctx: BotContext): void {
  (ctx as unknown as Record<symbol, boolean>)[FAILED] = true;
}

export interface UpdateContextDeps {
  logger: Logger;
  metrics: Metrics;
  answered: AnsweredQueries;
}

/**
 * First middleware: a child logger per update (update_id, chat_id; built
 * when first used), the
 * `bot_updates_total{type,outcome}` counter, and the answered-query tracking
 * the error boundary relies on (installed per update: grammY gives every
 * update its own Api object).
 */
export function updateContext(deps: UpdateContextDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    const type = Object.keys(ctx.update).find((k) => k !== "update_id") ?? "unknown";
    bindLogger(ctx, deps.logger, { update_id: ctx.update.update_id, ...(ctx.chat ? { chat_id: ctx.chat.id } : {}) });
    ctx.api.config.use(deps.answered.transformer);
    let outcome = "ok";
    try {
      await next();
      if ((ctx as unknown as Record<symbol, boolean>)[FAILED]) outcome = "error";
    } catch (error) {
      outcome = "error";
      throw error;
    } finally {
      if (ctx.callbackQuery) deps.answered.forget(ctx.callbackQuery.id);
      deps.metrics.inc("bot_updates_total", { type, outcome });
    }
  };
}
