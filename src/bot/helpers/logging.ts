import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";

/** Names the handler in the update's log lines: `logHandle("command-balance")`. */
export function logHandle(id: string): Middleware<BotContext> {
  return (ctx, next) => {
    ctx.logger = ctx.logger.child({ handler: id });
    ctx.logger.debug("handling");
    return next();
  };
}
