/**
 * Where the fake Bot API lets the bot post, as Telegram decides it: forum
 * topics (`message_thread_id`), channels and groups where the bot may not
 * send, and which update types reach the bot (`allowed_updates`).
 */
import type { Update } from "grammy/types";
import { intParam, jsonParam } from "./fake-telegram-http.js";
import { TelegramError } from "./fake-telegram-errors.js";
import type { FakeChatState } from "./fake-telegram-state.js";

/** General's thread id: it exists, but Telegram wants it omitted. */
const GENERAL_THREAD = 1;

const bad = (description: string) => new TelegramError(400, `Bad Request: ${description}`);

/** What a send carries, as Telegram names it in "not enough rights to send … to the chat". */
export type SendKind = "text messages" | "photos" | "documents";

/**
 * Refuses a send the bot may not make in this chat and returns the forum
 * topic it lands in (undefined: General or a chat without topics).
 *
 * - Not in the chat: 403 "bot is not a member of the <type> chat".
 * - A channel where the bot is not an administrator: "need administrator rights in the channel chat".
 * - A group where the bot is restricted: "not enough rights to send <kind> to the chat".
 * - `message_thread_id` outside a forum, unknown, or General's (1: Telegram
 *   wants it omitted): "message thread not found"; a closed topic: "TOPIC_CLOSED".
 * - Without `message_thread_id` a forum message goes to the replied-to
 *   message's topic, else to General (refused with TOPIC_CLOSED when General is closed).
 */
export function placeOf(chat: FakeChatState, p: Record<string, unknown>, kind: SendKind): number | undefined {
  if (chat.type === "private") return undefined;
  if (chat.botStanding === "left") throw new TelegramError(403, `Forbidden: bot is not a member of the ${chat.type === "group" ? "group" : chat.type} chat`);
  if (chat.type === "channel" && chat.botStanding !== "administrator") throw bad("need administrator rights in the channel chat");
  if (chat.botStanding === "restricted") throw bad(`not enough rights to send ${kind} to the chat`);
  const given = p["message_thread_id"];
  const thread = given === undefined ? undefined : intParam(given);
  if (given !== undefined && thread === undefined) throw bad("message thread not found");
  if (!chat.forum) {
    if (thread !== undefined) throw bad("message thread not found");
    return undefined;
  }
  let target = thread;
  if (target === undefined) {
    const replyTo = intParam((jsonParam(p["reply_parameters"]) as { message_id?: unknown } | undefined)?.message_id) ?? intParam(p["reply_to_message_id"]);
    target = replyTo === undefined ? undefined : chat.messages.get(replyTo)?.threadId;
  }
  if (target === undefined) {
    if (chat.forum.generalClosed) throw bad("TOPIC_CLOSED");
    return undefined;
  }
  const topic = target === GENERAL_THREAD ? undefined : chat.forum.topics.get(target);
  if (!topic) throw bad("message thread not found");
  if (topic.closed) throw bad("TOPIC_CLOSED");
  return target;
}

/** Telegram's default when `allowed_updates` is empty or was never given. */
export const DEFAULT_EXCLUDED_UPDATES: readonly string[] = ["chat_member", "message_reaction", "message_reaction_count"];

/**
 * The list given to getUpdates/setWebhook: undefined when absent (Telegram
 * keeps the previous list), [] for "the default".
 */
export function allowedUpdatesParam(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = jsonParam(value);
  if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) throw bad("can't parse allowed_updates JSON array");
  return list as string[];
}

export function updateType(update: Update): string {
  return Object.keys(update).find((k) => k !== "update_id") ?? "unknown";
}

/** Whether Telegram creates this update for the bot under the remembered list. */
export function isAllowedUpdate(allowed: readonly string[] | undefined, update: Update): boolean {
  const type = updateType(update);
  if (allowed === undefined || allowed.length === 0) return !DEFAULT_EXCLUDED_UPDATES.includes(type);
  return allowed.includes(type);
}
