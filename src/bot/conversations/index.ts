import { createKeepConversation, KEEP_CONVERSATION } from "./keep.js";
import { createConversation, type ConversationBuilder } from "@grammyjs/conversations";
import { Composer } from "grammy";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { ADDRESSES_CONVERSATION, createAddressesConversation } from "./addresses.js";
import { createSendConversation, SEND_CONVERSATION } from "../../features/send/index.js";
import { BROADCAST_CONVERSATION, createBroadcastConversation } from "./broadcast.js";
import { createLinkConversation, LINK_CONVERSATION } from "./link.js";
import { createOrderConversation, ORDER_CONVERSATION } from "./order.js";

/**
 * Bump whenever any conversation's code changes: stored states of an older
 * version are dropped instead of being replayed against new code.
 */
export const CONVERSATION_STATE_VERSION = 10;

/** A flow waits this long for each answer; the next update after that leaves it. */
export const FLOW_MAX_WAIT_MS = 15 * 60_000;

/** Abandoned conversations are removed from the store after this long. */
export const CONVERSATION_TTL_MS = 24 * 60 * 60_000;

interface ConversationEntry {
  id: string;
  builder: ConversationBuilder<BotContext, ConversationContext>;
  /** Lazy timeout: the next update after it leaves the flow and runs normally. */
  maxMillisecondsToWait: number;
}

/**
 * THE list of conversations (one place). Each entry is a builder from
 * src/bot/conversations/<name>.ts; enter with `enterFlow(ctx, id, …)`.
 */
export function listConversations(deps: BotDeps): ConversationEntry[] {
  return [
    { id: LINK_CONVERSATION, builder: createLinkConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
    { id: ORDER_CONVERSATION, builder: createOrderConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
    { id: ADDRESSES_CONVERSATION, builder: createAddressesConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
    { id: BROADCAST_CONVERSATION, builder: createBroadcastConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
    ...(deps.send ? [{ id: SEND_CONVERSATION, builder: createSendConversation({ ...deps, send: deps.send }), maxMillisecondsToWait: FLOW_MAX_WAIT_MS }] : []),
    ...(deps.keep ? [{ id: KEEP_CONVERSATION, builder: createKeepConversation({ ...deps, keep: deps.keep }), maxMillisecondsToWait: FLOW_MAX_WAIT_MS }] : []),
  ];
}

/**
 * The listed conversations, each registered with the plugin as its own middleware: it registers the conversation
 * for `ctx.conversation.enter` and resumes it when the chat is in it. Enter through `enterFlow`.
 */
export function createConversations(deps: BotDeps): Composer<BotContext> {
  return new Composer<BotContext>(
    ...listConversations(deps).map((c) =>
      createConversation<BotContext, ConversationContext>(c.builder, { id: c.id, maxMillisecondsToWait: c.maxMillisecondsToWait }),
    ),
  );
}
