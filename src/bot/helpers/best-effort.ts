import type { BotContext } from "../context.js";
import { isNotModified } from "./edit.js";

/**
 * A Telegram call after money moved: its failure (a long 429, a lost answer,
 * "query is too old") must not stop what follows, because the charge is
 * already recorded and tracked. Logged, never thrown; true when it went through.
 */
export async function bestEffort(ctx: Pick<BotContext, "logger">, what: string, call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (isNotModified(error)) return true;
    ctx.logger.warn({ err: error, call: what }, "Telegram call after a confirm failed; tracking announces instead");
    return false;
  }
}
