import type { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { BROADCAST_CONVERSATION, createBroadcastConversation } from "../conversations/broadcast.js";
import type { FlowDeps } from "../conversations/flow-deps.js";
import { createOrderConversation, ORDER_CONVERSATION } from "../conversations/order.js";
import { createBatchOrderFeature } from "./batch-order.js";
import { createBroadcastFeature } from "./broadcast.js";
import { createOrderFeature } from "./order.js";
import { createOrdersFeature } from "./orders.js";
import { createTopUpFeature } from "./top-up.js";
import { createTrackFeature } from "./track.js";

/** A flow waits this long for each answer; the next update after that leaves it. */
export const FLOW_MAX_WAIT_MS = 15 * 60_000;

/** The features of the ordering/broadcast flows, in order, for the bot's one feature list (before `unhandled`). */
export function createFlowFeatures(bot: BotDeps): Composer<BotContext>[] {
  if (!bot.flows) return [];
  const deps: FlowDeps = { ...bot, flows: bot.flows };
  // Broadcast first: its wallet-secret guard must see a captioned document before the batch feature takes it.
  return [createBroadcastFeature(deps), createOrderFeature(deps), createBatchOrderFeature(deps), createOrdersFeature(deps), createTrackFeature(deps), createTopUpFeature(deps)];
}

/** The conversations of the flows, for the bot's one conversation list. */
export function listFlowConversations(bot: BotDeps) {
  if (!bot.flows) return [];
  const deps: FlowDeps = { ...bot, flows: bot.flows };
  return [
    { id: ORDER_CONVERSATION, builder: createOrderConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
    { id: BROADCAST_CONVERSATION, builder: createBroadcastConversation(deps), maxMillisecondsToWait: FLOW_MAX_WAIT_MS },
  ];
}
