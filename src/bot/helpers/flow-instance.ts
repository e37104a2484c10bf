import { randomBytes } from "node:crypto";
import type { Conversation } from "@grammyjs/conversations";
import type { StoreBackend } from "../../platform/store/types.js";
import type { BotContext, ConversationContext } from "../context.js";

/**
 * Each run of a flow gets a random id, carried in its buttons (Cancel and the
 * step buttons) and stored as the chat's current flow, so a button left on
 * an earlier flow's prompt (an old /order under a newer /batch) is told
 * apart from the current flow's own and never acts on it.
 */
const NAMESPACE = "flow-instances";
/** As long as an abandoned conversation is kept. */
const TTL_MS = 24 * 60 * 60_000;

/** Called once at the top of a conversation; replays get the same id back. */
export function beginFlowInstance(conversation: Conversation<BotContext, ConversationContext>, store: StoreBackend, chatId: number): Promise<string> {
  return conversation.external(async () => {
    const id = randomBytes(4).toString("hex");
    await store.namespace(NAMESPACE).set(String(chatId), id, TTL_MS);
    return id;
  });
}

/** Whether the chat is in a flow now (a conversation entered and not left). */
export function inFlow(ctx: BotContext): boolean {
  return Object.keys(ctx.conversation.active()).length > 0;
}

/** The id of the chat's newest flow (which may have finished: ask `ctx.conversation.active()` too). */
export function currentFlowInstance(store: StoreBackend, chatId: number): Promise<string | undefined> {
  return store.namespace(NAMESPACE).get<string>(String(chatId));
}
