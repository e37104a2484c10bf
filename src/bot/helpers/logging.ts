import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { addLogBindings, logsAt } from "./lazy-logger.js";

/** Names the handler in the update's log lines: `logHandle("command-balance")`. */
export function logHandle(id: string): Middleware<BotContext> {
  return (ctx, next) => {
    addLogBindings(ctx, { handler: id });
    if (logsAt(ctx, "debug")) ctx.logger.debug("handling");
    return next();
  };
}
