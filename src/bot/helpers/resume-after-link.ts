import { createStartIntents, type StartIntents } from "../../shared/chats/start-intent.js";
import type { BotContext } from "../context.js";
import { ORDER_CONVERSATION, type OrderConversationArgs } from "../conversations/flow-ids.js";
import type { BotDeps } from "../deps.js";

/**
 * Set on the outside context by the link conversation when it linked the chat
 * and a deep link waits, right before it ends passing the update on
 * (`halt({ next: true })`): the start feature then carries the deep link out.
 */
const JUST_LINKED = Symbol("just-linked");

export function markJustLinked(ctx: object): void {
  Object.defineProperty(ctx, JUST_LINKED, { value: true });
}

export function isJustLinked(ctx: object): boolean {
  return JUST_LINKED in ctx;
}

export function startIntentsOf(deps: Pick<BotDeps, "store" | "logger">): StartIntents {
  return createStartIntents({ store: deps.store, logger: deps.logger });
}

/**
 * Carries out the chat's pending deep link once (the order flow with the
 * link's amount and duration, asking only what is missing). False when there
 * was none.
 */
export async function resumeAfterLink(ctx: BotContext, deps: BotDeps): Promise<boolean> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return false;
  const intent = await startIntentsOf(deps).take(chatId);
  if (!intent) return false;
  ctx.logger.info({ kind: intent.kind }, "deep link resumed after linking");
  const args: OrderConversationArgs = { prefill: { amount: intent.amount, durationSec: intent.durationSec } };
  await ctx.enterFlow(ORDER_CONVERSATION, args);
  return true;
}
