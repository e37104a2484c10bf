import { createKeepConversation, KEEP_CONVERSATION } from "./keep.js";
import { createConversation, type ConversationBuilder } from "@grammyjs/conversations";
import type { MiddlewareFn, NextFunction } from "grammy";
import { Composer } from "../composer.js";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { ADDRESSES_CONVERSATION, createAddressesConversation } from "./addresses.js";
import { createSendConversation, SEND_CONVERSATION } from "../../features/send/send-conversation.js";
import { BROADCAST_CONVERSATION, createBroadcastConversation } from "./broadcast.js";
import { createLinkConversation, LINK_CONVERSATION } from "./link.js";
import { createOrderConversation, ORDER_CONVERSATION } from "./order.js";
import { inFlow } from "../helpers/flow-instance.js";
import { leaveOpenFlow } from "../middlewares/flow-guard.js";

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
 * src/bot/conversations/<name>.ts; enter with `ctx.conversation.enter(id)`.
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

/** The plugin's middleware of each conversation run only to register them: nothing runs after them. */
const registerOnly: NextFunction = () => Promise.resolve();

/**
 * The listed conversations as one middleware. The plugin's middleware of a
 * conversation (`createConversation`) registers it for
 * `ctx.conversation.enter` and resumes it when the chat is in it; it builds
 * its closures and takes an async step on every update, about a kilobyte
 * each. In a chat that is in no flow (almost every update) there is nothing
 * to resume, so they run only when a flow is entered, just before the
 * plugin's own `enter`; in a flow they run in place, as the plugin has them.
 */
export function createConversations(deps: BotDeps): MiddlewareFn<BotContext> {
  const conversations = listConversations(deps).map((c) =>
    createConversation<BotContext, ConversationContext>(c.builder, { id: c.id, maxMillisecondsToWait: c.maxMillisecondsToWait }),
  );
  const run = new Composer<BotContext>(...conversations).middleware();
  return (ctx, next) => {
    const controls = ctx.conversation;
    const enter = controls.enter.bind(controls);
    // In a flow they run in place below, which registers them too.
    let registered = inFlow(ctx);
    controls.enter = async (name, ...args) => {
      if (!registered) {
        registered = true;
        await run(ctx, registerOnly);
      }
      // The plugin refuses to enter a flow while another is open: an old button that opens a flow
      // (a /prices tier, "Another zone…") leaves the open one first, as a command does.
      await leaveOpenFlow(ctx, deps.store, "a button left a flow to open another");
      return enter(name, ...args);
    };
    return registered ? run(ctx, next) : next();
  };
}
