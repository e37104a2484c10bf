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

/**
 * How long the bot's own first card edit after a confirm may take, auto-retry's
 * waits included; past it the call is aborted and the tracker draws the card.
 * Well inside the tracker's `cardGraceMs` (60 s): an edit must never land after
 * the tracker has drawn a newer status.
 */
export const FIRST_CARD_BUDGET_MS = 40_000;

/** The abort signal of that first edit (grammY types its signal with the abort-controller shim's type). */
export function firstCardSignal(): Parameters<BotContext["editMessageText"]>[2] {
  return AbortSignal.timeout(FIRST_CARD_BUDGET_MS) as unknown as Parameters<BotContext["editMessageText"]>[2];
}
