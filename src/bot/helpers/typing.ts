import type { BotContext } from "../context.js";

/**
 * How long "typing…" may take before it is given up: it only decorates the wait for a reply,
 * so a long 429 (whose retry_after auto-retry would wait out) must never hold the reply back.
 */
const TYPING_BUDGET_MS = 2_000;

/** Shows "typing…" while a reply is being read from the service; a refusal or a timeout is only logged. */
export async function showTyping(ctx: Pick<BotContext, "replyWithChatAction" | "logger">): Promise<void> {
  try {
    await ctx.replyWithChatAction("typing", {}, AbortSignal.timeout(TYPING_BUDGET_MS) as unknown as Parameters<BotContext["replyWithChatAction"]>[2]);
  } catch (error) {
    ctx.logger.debug({ err: error }, "typing indicator not shown; the reply goes on");
  }
}
