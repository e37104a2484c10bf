import { createKeepConversation } from "../../features/keep/index.js";
import { KEEP_CONVERSATION } from "./flow-ids.js";
import { createConversation, type ConversationBuilder } from "@grammyjs/conversations";
import { Composer, type MiddlewareFn, type NextFunction } from "grammy";
import { inFlow } from "../helpers/flow-instance.js";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { createAddressesConversation } from "../../features/addresses/index.js";
import { ADDRESSES_CONVERSATION } from "./flow-ids.js";
import { createSendConversation } from "../../features/send/index.js";
import { SEND_CONVERSATION } from "./flow-ids.js";
import { createBroadcastConversation } from "../../features/broadcast/index.js";
import { BROADCAST_CONVERSATION } from "./flow-ids.js";
import { createLinkConversation } from "../../features/account/index.js";
import { LINK_CONVERSATION } from "./flow-ids.js";
import { createOrderConversation } from "../../features/order/index.js";
import { ORDER_CONVERSATION } from "./flow-ids.js";

/**
 * Bump whenever any conversation's code changes: stored states of an older
 * version are dropped instead of being replayed against new code.
 */
export const CONVERSATION_STATE_VERSION = 11;

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
 * src/bot/conversations/<name>.ts or a feature folder's index.ts; enter with `enterFlow(ctx, id, …)`.
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

export interface ListedConversations {
  /** In a chat that is in a flow: the plugin's middleware of each listed flow, which resumes it and may take the update. */
  middleware: MiddlewareFn<BotContext>;
  /** Registers the listed flows for `ctx.conversation.enter` in a chat that is in none (`ctx.enterFlow` calls it). */
  register: (ctx: BotContext) => Promise<void>;
}

/**
 * The listed conversations, each the plugin's own `createConversation` middleware, which registers it for
 * `ctx.conversation.enter` and resumes it when the chat is in it. It takes an async step and builds its
 * closures on every update it sees; in a chat that is in no flow (almost every update) there is nothing to
 * resume, so they run there only when a flow is entered (`register`, through `ctx.enterFlow`), and in place
 * in a chat that is in a flow.
 */
export function createConversations(deps: BotDeps): ListedConversations {
  const run = new Composer<BotContext>(
    ...listConversations(deps).map((c) =>
      createConversation<BotContext, ConversationContext>(c.builder, { id: c.id, maxMillisecondsToWait: c.maxMillisecondsToWait }),
    ),
  ).middleware();
  const registered = new WeakSet<BotContext>();
  return {
    middleware: (ctx, next) => {
      if (!inFlow(ctx)) return next();
      registered.add(ctx);
      return run(ctx, next);
    },
    register: async (ctx) => {
      if (registered.has(ctx)) return;
      registered.add(ctx);
      await run(ctx, registerOnly);
    },
  };
}
