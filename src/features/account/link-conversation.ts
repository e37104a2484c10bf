import type { Conversation } from "@grammyjs/conversations";
import { linkData } from "../../bot/callback-data/link.js";
import type { BotContext, ConversationContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { checkKey, credentialKind, looksLikeApiKey, looksLikeWebhookSecret, storeLink } from "../../shared/chats/check-key.js";
import { linkedText, notStoredText } from "./link-texts.js";
import { closeStepPrompt, endOnStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { markJustLinked, startIntentsOf } from "../../bot/helpers/resume-after-link.js";
import { createLinkAgainKeyboard, createLinkCancelKeyboard, createLinkedKeyboard, createLinkSecretKeyboard } from "./link-keyboards.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { chatLanguageCode, chatTitle } from "../../bot/middlewares/telegram-language.js";
import { isInputMessage } from "../../bot/conversations/steps.js";

type LinkConversation = Conversation<BotContext, ConversationContext>;

const isCommand = (ctx: ConversationContext) => ctx.message?.text?.startsWith("/") === true;

/**
 * The next update of the flow. Another command leaves the flow and runs as
 * usual; a button of another message (a language choice, an old menu) is
 * passed on to its feature while the flow keeps waiting. Service messages
 * (a gift, a giveaway, a story…: see isInputMessage) and edits are nobody's
 * answer here (every text of a step is taken at once, so an edit is always of
 * an earlier message; one that brings a key was deleted before the flow, see
 * editedSecretGuard): the flow keeps waiting without a word.
 */
async function waitInFlow(conversation: LinkConversation, isOwnButton: (data: string) => boolean = () => false): Promise<ConversationContext> {
  for (;;) {
    const next = await conversation.wait();
    if (next.message === undefined ? next.callbackQuery === undefined : !isInputMessage(next.message)) continue;
    if (isCommand(next)) await conversation.halt({ next: true });
    const data = next.callbackQuery?.data;
    if (data !== undefined && !isOwnButton(data)) await conversation.skip({ next: true });
    return next;
  }
}

/** Deletes a message that carried a key or secret; a failure is logged (never the text). */
async function deleteSecretMessage(ctx: ConversationContext): Promise<void> {
  await ctx.deleteMessage().catch((error: unknown) => ctx.logger.warn({ err: error }, "could not delete a message that carried a key or secret"));
}

/**
 * Takes the buttons off a prompt once its step is over, so a stale Cancel or
 * Skip never suggests the flow is still running.
 */
async function closePrompt(ctx: ConversationContext, prompt: { chat: { id: number }; message_id: number }): Promise<void> {
  await editIgnoringUnchanged(() => ctx.api.editMessageReplyMarkup(prompt.chat.id, prompt.message_id)).catch((error: unknown) =>
    // The user may have deleted the prompt; the flow goes on without it.
    ctx.logger.info({ err: error }, "could not remove the buttons of a link prompt"),
  );
}

/** Waits for a text message; anything else is answered with a reminder (`onReminder` is told). */
async function waitForText(
  conversation: LinkConversation,
  ctx: ConversationContext,
  promptKey: string,
  onReminder: () => void,
): Promise<ConversationContext & { message: { text: string } }> {
  for (;;) {
    const next = await waitInFlow(conversation);
    if (next.message?.text !== undefined) return next as ConversationContext & { message: { text: string } };
    await ctx.reply(translate(next, promptKey), HTML);
    onReminder();
  }
}

/**
 * The prompt of a step that is over. `last`: nothing of the flow came after it (the user's answers
 * are deleted), so the next step or the outcome can take its place and the flow stays one card.
 */
interface AnsweredStep {
  prompt: string;
  last: boolean;
}

/**
 * Step 1: the key. Its message is deleted at once, whatever it holds. The prompt goes out once the step is stored;
 * it keeps its Cancel until the next step or the outcome takes its place.
 */
async function askKey(conversation: LinkConversation, ctx: ConversationContext, deps: BotDeps, flow: string): Promise<{ key: string } & AnsweredStep> {
  const prompt = await sendStepPrompt(conversation, ctx, translate(ctx, "link-ask-key"), {
    ...HTML,
    ...textLinksMarkup(ctx, "link-ask-key", createLinkCancelKeyboard(ctx, flow)),
  });
  let last = true;
  for (;;) {
    const answer = await waitForText(conversation, ctx, "link-ask-key-text", () => (last = false));
    await deleteSecretMessage(answer);
    const key = answer.message.text.trim();
    if (looksLikeApiKey(key)) {
      // Below a refusal the prompt is not the last message: the next one comes as a new message, and this one closes.
      if (!last) await closeStepPrompt(conversation, answer, deps, prompt);
      return { key, prompt, last };
    }
    // A webhook secret here is never sent to the service as a key: the user is told which value this step needs.
    const said = credentialKind(key) === "webhook_secret" ? "link-key-is-secret" : "link-key-format";
    await ctx.reply(translate(answer, said), { ...HTML, ...textLinksMarkup(answer, said) });
    last = false;
  }
}

/**
 * Step 2: the optional webhook secret (Skip button). What the key check said
 * (`accepted`) heads the prompt, which goes out once the step is stored: a
 * restart after the user saw "now the webhook secret" finds the flow waiting
 * for it. It takes the key prompt's place when that is still the flow's last message.
 */
async function askSecret(
  conversation: LinkConversation,
  ctx: ConversationContext,
  deps: BotDeps,
  flow: string,
  accepted: string,
  keyStep: AnsweredStep,
): Promise<{ secret: string | undefined } & AnsweredStep> {
  const prompt = await sendStepPrompt(
    conversation,
    ctx,
    `${accepted}\n\n${translate(ctx, "link-ask-secret")}`,
    { ...HTML, reply_markup: createLinkSecretKeyboard(ctx, flow) },
    keyStep.last ? { inPlaceOf: keyStep.prompt } : {},
  );
  /** Refusals sent within the step that carry Skip too. */
  const prompts: { chat: { id: number }; message_id: number }[] = [];
  let last = true;
  /** The step is over: the buttons of its refusals go, and the prompt's too unless the outcome takes its place. */
  const closePrompts = async (at: ConversationContext) => {
    if (!last) await closeStepPrompt(conversation, at, deps, prompt);
    for (const shown of prompts) await closePrompt(at, shown);
  };
  for (;;) {
    const next = await waitInFlow(conversation, (data) => linkData.unpack(data) !== undefined);
    if (next.callbackQuery) {
      const own = linkData.unpack(next.callbackQuery.data);
      if (own?.instance !== flow) {
        // A Skip left on an earlier run's prompt: it must not skip this run's step.
        await next.answerCallbackQuery({ text: next.t("button-expired") });
        const pressed = next.callbackQuery.message;
        if (pressed) await closePrompt(next, pressed);
        continue;
      }
      await next.answerCallbackQuery();
      if (own.action !== "skip") continue;
      await closePrompts(next);
      return { secret: undefined, prompt, last };
    }
    const text = next.message?.text;
    if (text === undefined) {
      await ctx.reply(translate(next, "link-ask-secret-text"), HTML);
      last = false;
      continue;
    }
    await deleteSecretMessage(next);
    const secret = text.trim();
    if (looksLikeWebhookSecret(secret)) {
      await closePrompts(next);
      return { secret, prompt, last };
    }
    last = false;
    if (credentialKind(secret) === "api_key") {
      // Skip resolves it for a user who has no secret at hand; its buttons go when the step ends, as the prompt's do.
      prompts.push(await ctx.reply(translate(next, "link-secret-is-key"), { ...HTML, reply_markup: createLinkSecretKeyboard(next, flow) }));
      continue;
    }
    await ctx.reply(translate(next, "link-secret-format"), HTML);
  }
}

/** The flow's outcome in place of its last prompt when nothing came after it, else as a new message. */
async function showOutcome(
  conversation: LinkConversation,
  ctx: ConversationContext,
  deps: BotDeps,
  step: AnsweredStep,
  text: string,
  options: Parameters<ConversationContext["reply"]>[1],
): Promise<void> {
  if (step.last) await endOnStepPrompt(conversation, ctx, deps, step.prompt, text, options);
  else await ctx.reply(text, options);
}

/**
 * Guided /link: key (checked with GET /v1/balance before anything is stored),
 * then the optional webhook secret, then the stored result. Service and store
 * access run in `conversation.external`, so replays neither repeat nor re-store.
 */
export function createLinkConversation(deps: BotDeps) {
  return async function link(conversation: LinkConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const keyStep = await askKey(conversation, ctx, deps, flow);
    const apiKey = keyStep.key;
    const check = await conversation.external(() => checkKey(deps.service, apiKey));
    const locale = await ctx.i18n.getLocale();
    if (check.kind === "unavailable" || check.kind === "refused") {
      const said = notStoredText(ctx, check, locale);
      await showOutcome(conversation, ctx, deps, keyStep, said.text, { ...HTML, ...textLinksMarkup(ctx, said.keys, createLinkAgainKeyboard(ctx)) });
      return;
    }
    const secretStep = await askSecret(
      conversation,
      ctx,
      deps,
      flow,
      translate(ctx, check.kind === "ok" ? "link-key-accepted" : "link-key-accepted-no-wallet"),
      keyStep,
    );
    const webhookSecret = secretStep.secret;
    const stored = await conversation.external(async (outside) => {
      const { record, relinked, sharedRoute } = await storeLink(deps, chatId, {
        apiKey,
        webhookSecret,
        check,
        languageCode: chatLanguageCode(ctx),
        title: chatTitle(ctx),
      });
      outside.forgetChat();
      return { routeId: record.routeId, relinked, sharedRoute };
    });
    const said = linkedText(
      ctx,
      deps,
      { check, routeId: stored.routeId, hasSecret: webhookSecret !== undefined, relinked: stored.relinked, sharedRoute: stored.sharedRoute },
      locale,
    );
    await showOutcome(conversation, ctx, deps, secretStep, said.text, { ...HTML, ...textLinksMarkup(ctx, said.keys, createLinkedKeyboard(ctx, check)) });
    // A deep link followed before linking: end here and let the start feature carry it out in this same update.
    const resume = await conversation.external(async (outside) => {
      if (!(await startIntentsOf(deps).peek(chatId))) return false;
      markJustLinked(outside);
      return true;
    });
    if (resume) await conversation.halt({ next: true });
  };
}
