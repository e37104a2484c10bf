import { randomBytes } from "node:crypto";
import type { Conversation } from "@grammyjs/conversations";
import type { MiddlewareFn } from "grammy";
import type { Logger } from "pino";
import type { StoreBackend } from "../../platform/store/types.js";
import type { BotContext, ConversationContext } from "../context.js";
import { escapeHtml, HTML } from "./html.js";
import { editIgnoringUnchanged } from "./edit.js";

/**
 * A guided step is stored before its prompt is sent. The conversations
 * plugin writes a conversation's state once the whole update is handled
 * (after the builder reached its next wait); a prompt sent with `ctx.reply`
 * before that wait goes out first, so a crash in between leaves the chat at
 * the previous step while the user already sees the next question, and the
 * answer to it is then taken for the previous step's (a webhook secret as the
 * API key). `sendStepPrompt` queues the prompt on the outer update instead;
 * `createStepPrompts`, installed around the conversations plugin, sends the
 * queue once the plugin has stored the state, and records each prompt's
 * message id for `closeStepPrompt`. A crash after the store and before the
 * send loses the prompt, never the step.
 */
const NAMESPACE = "flow-prompts";
/** As long as an abandoned conversation is kept. */
const TTL_MS = 24 * 60 * 60_000;

type SendOptions = Parameters<ConversationContext["api"]["sendMessage"]>[2];

interface QueuedPrompt {
  chatId: number;
  text: string;
  options: SendOptions;
  /** Where its message id is recorded; none for a message nobody edits later. */
  ref?: string;
  /** The earlier prompt of the flow this one replaces in place (its reference). */
  inPlaceOf?: string;
}

const QUEUE = Symbol("step prompts");
const IN_PLACE = Symbol("first prompt in place");
type WithQueue = BotContext & { [QUEUE]?: QueuedPrompt[]; [IN_PLACE]?: number | undefined };

const keyOf = (chatId: number, ref: string) => `${chatId}:${ref}`;
/** The newest prompt of the chat's flow: the one whose buttons go when the flow is left for something else. */
const currentKeyOf = (chatId: number) => `${chatId}:current`;

/**
 * The next flow prompt of this update replaces the message a button was pressed on (the home card, a
 * screen opened from it) instead of coming as a new message: navigating from a card into a flow adds
 * no message. Anything else of the update is sent as usual.
 */
export function placeFirstPromptOn(ctx: BotContext, messageId: number): void {
  (ctx as WithQueue)[IN_PLACE] = messageId;
}

/** Around `conversations()`: what the flows queued is sent after the plugin stored their state. */
export function createStepPrompts(deps: { store: StoreBackend }): MiddlewareFn<BotContext> {
  const kv = deps.store.namespace(NAMESPACE);
  return async (ctx, next) => {
    const queue: QueuedPrompt[] = [];
    (ctx as WithQueue)[QUEUE] = queue;
    // A failed update (the state may not be stored) sends nothing: the flow's step is not there to answer.
    await next();
    for (const prompt of queue.splice(0)) {
      const replaced = prompt.inPlaceOf === undefined ? undefined : await kv.get<number>(keyOf(prompt.chatId, prompt.inPlaceOf));
      const messageId = await sendPrompt(ctx, prompt, typeof replaced === "number" ? replaced : undefined);
      if (prompt.ref === undefined) continue;
      await kv.set(keyOf(prompt.chatId, prompt.ref), messageId, TTL_MS);
      // The newest question is the flow's open one: one without buttons leaves nothing to take off later.
      if (prompt.options?.reply_markup !== undefined) await kv.set(currentKeyOf(prompt.chatId), messageId, TTL_MS);
      else await kv.delete(currentKeyOf(prompt.chatId));
    }
  };
}

async function sendPrompt(ctx: BotContext, prompt: QueuedPrompt, replaced: number | undefined): Promise<number> {
  const inPlace = (ctx as WithQueue)[IN_PLACE];
  if (inPlace !== undefined && prompt.ref !== undefined) {
    (ctx as WithQueue)[IN_PLACE] = undefined;
    // Gone or too old to edit: the prompt comes as a message of its own.
    if (await editInto(ctx, prompt.chatId, inPlace, prompt.text, prompt.options, "a flow prompt could not replace the card it was opened from")) return inPlace;
  }
  if (
    replaced !== undefined &&
    (await editInto(ctx, prompt.chatId, replaced, prompt.text, prompt.options, "a flow prompt could not replace the previous one"))
  ) {
    return replaced;
  }
  return (await ctx.api.sendMessage(prompt.chatId, prompt.text, prompt.options)).message_id;
}

/** Edits a message of the bot into `text` with the options' inline keyboard (none: its buttons go); false when it cannot be edited. */
function editInto(
  ctx: Pick<BotContext, "api" | "logger">,
  chatId: number,
  messageId: number,
  text: string,
  options: SendOptions,
  failure: string,
): Promise<boolean> {
  const { reply_markup, parse_mode, link_preview_options } = options ?? {};
  const markup = reply_markup !== undefined && "inline_keyboard" in reply_markup ? { reply_markup } : {};
  return ctx.api
    .editMessageText(chatId, messageId, text, {
      ...(parse_mode === undefined ? {} : { parse_mode }),
      ...(link_preview_options === undefined ? {} : { link_preview_options }),
      ...markup,
    })
    .then(
      () => true,
      (error: unknown) => {
        ctx.logger.info({ err: error }, failure);
        return false;
      },
    );
}

/** The chat's flow is over (its Cancel was pressed): its question is nobody's to take buttons off. */
export async function forgetOpenPrompt(store: StoreBackend, chatId: number): Promise<void> {
  await store.namespace(NAMESPACE).delete(currentKeyOf(chatId));
}

async function forgetIfCurrent(store: StoreBackend, chatId: number, messageId: number): Promise<void> {
  const kv = store.namespace(NAMESPACE);
  if ((await kv.get<number>(currentKeyOf(chatId))) === messageId) await kv.delete(currentKeyOf(chatId));
}

/**
 * The message id recorded for a prompt whose step is over (undefined: never recorded), which is then no longer
 * the flow's open question: leaving the flow later has nothing left to take off it.
 */
async function promptDone(
  conversation: Conversation<BotContext, ConversationContext>,
  store: StoreBackend,
  chatId: number,
  ref: string,
): Promise<number | undefined> {
  const messageId = await conversation.external(() => store.namespace(NAMESPACE).get<number>(keyOf(chatId, ref)));
  if (typeof messageId !== "number") return undefined;
  await conversation.external(() => forgetIfCurrent(store, chatId, messageId));
  return messageId;
}

/**
 * Takes the buttons off the prompt the chat's flow was waiting on, once the flow is left for another
 * command: a question nobody waits for any more must not look answerable.
 */
export async function closeOpenPrompt(ctx: BotContext, store: StoreBackend, chatId: number): Promise<void> {
  const kv = store.namespace(NAMESPACE);
  const messageId = await kv.get<number>(currentKeyOf(chatId));
  if (typeof messageId !== "number") return;
  await kv.delete(currentKeyOf(chatId));
  await editIgnoringUnchanged(() => ctx.api.editMessageReplyMarkup(chatId, messageId)).catch((error: unknown) =>
    ctx.logger.info({ err: error }, "could not remove the buttons of a left flow's prompt"),
  );
}

/**
 * Sends a message of a flow once the flow's state is stored: the prompt of
 * the step it is about to wait for (and what leads to it). Returns the
 * reference `closeStepPrompt` takes. Call it right before the step's wait:
 * anything sent with `ctx.reply` later in the same update would go out before it.
 * `inPlaceOf` (an earlier prompt's reference, still the chat's last message of the flow): that message
 * becomes this prompt, so a flow of several steps stays one card; the earlier reference is done with.
 */
export function sendStepPrompt(
  conversation: Conversation<BotContext, ConversationContext>,
  ctx: ConversationContext,
  text: string,
  options: SendOptions = {},
  place: { inPlaceOf?: string } = {},
): Promise<string> {
  return queue(conversation, ctx, text, options, randomBytes(6).toString("hex"), place.inPlaceOf);
}

/** As `sendStepPrompt`, for a message before the prompt that is never edited (nothing recorded). */
export async function sendBeforeStepPrompt(
  conversation: Conversation<BotContext, ConversationContext>,
  ctx: ConversationContext,
  text: string,
  options: SendOptions = {},
): Promise<void> {
  await queue(conversation, ctx, text, options, undefined, undefined);
}

function queue<R extends string | undefined>(
  conversation: Conversation<BotContext, ConversationContext>,
  ctx: ConversationContext,
  text: string,
  options: SendOptions,
  ref: R,
  inPlaceOf: string | undefined,
): Promise<R> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) throw new Error("a flow's prompt needs a chat");
  // In `external`: queued once, when the step is first reached; replays get the same reference back.
  return conversation.external((outside) => {
    const queued = (outside as WithQueue)[QUEUE];
    if (!queued) throw new Error("createStepPrompts is not installed around the conversations");
    queued.push({ chatId, text, options, ...(ref === undefined ? {} : { ref }), ...(inPlaceOf === undefined ? {} : { inPlaceOf }) });
    return ref;
  });
}

/** A prompt's question as sent (HTML) and the answer it got, as the user should read it under the question. */
export interface AnsweredPrompt {
  prompt: string;
  answer: string;
}

/**
 * Takes the buttons off a prompt sent with `sendStepPrompt` (its step is over); one never sent or deleted is
 * left alone. With `answered`, the prompt also shows the answer it got: a tapped button leaves no message of
 * the user's, so without it the chat would keep the question and not the answer.
 */
export async function closeStepPrompt(
  conversation: Conversation<BotContext, ConversationContext>,
  ctx: ConversationContext,
  deps: { store: StoreBackend; logger?: Logger },
  ref: string,
  answered?: AnsweredPrompt,
): Promise<void> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  const messageId = await promptDone(conversation, deps.store, chatId, ref);
  // Not recorded: the process stopped between sending it and recording it. Its buttons stay; a later step does not take them, and once the run is over they answer "expired".
  if (messageId === undefined) return;
  const close = answered
    ? () => ctx.api.editMessageText(chatId, messageId, `${answered.prompt}\n→ <b>${escapeHtml(answered.answer)}</b>`, HTML)
    : () => ctx.api.editMessageReplyMarkup(chatId, messageId);
  await editIgnoringUnchanged(close).catch((error: unknown) =>
    // The user may have deleted the prompt; the flow goes on without it.
    ctx.logger.info({ err: error }, "could not remove the buttons of a flow prompt"),
  );
}

/**
 * Ends a flow on its last prompt: the message becomes the flow's outcome (its text and buttons) instead
 * of the outcome coming under a closed question. Call it only while that prompt is the flow's last
 * message; one never recorded, deleted or too old is answered with a new message.
 */
export async function endOnStepPrompt(
  conversation: Conversation<BotContext, ConversationContext>,
  ctx: ConversationContext,
  deps: { store: StoreBackend },
  ref: string,
  text: string,
  options: SendOptions = {},
): Promise<void> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  const messageId = await promptDone(conversation, deps.store, chatId, ref);
  if (messageId !== undefined) {
    if (await editInto(ctx, chatId, messageId, text, options, "a flow's outcome could not replace its last prompt")) return;
  }
  await ctx.reply(text, options);
}
