import type { Middleware } from "grammy";
import type { Logger } from "pino";
import type { Metrics } from "../../core/metrics.js";
import type { BotContext } from "../context.js";

const FAILED = Symbol("update-failed");

/** Marks the update as failed for the update counter (set by the error handler). */
export function markUpdateFailed(ctx: BotContext): void {
  (ctx as unknown as Record<symbol, boolean>)[FAILED] = true;
}

/**
 * First middleware: a child logger per update (update_id, chat_id) and the
 * `bot_updates_total{type,outcome}` counter.
 */
export function updateContext(deps: { logger: Logger; metrics: Metrics }): Middleware<BotContext> {
  return async (ctx, next) => {
    const type = Object.keys(ctx.update).find((k) => k !== "update_id") ?? "unknown";
    ctx.logger = deps.logger.child({ update_id: ctx.update.update_id, ...(ctx.chat ? { chat_id: ctx.chat.id } : {}) });
    let outcome = "ok";
    try {
      await next();
      if ((ctx as unknown as Record<symbol, boolean>)[FAILED]) outcome = "error";
    } catch (error) {
      outcome = "error";
      throw error;
    } finally {
      deps.metrics.inc("bot_updates_total", { type, outcome });
    }
  };
}
