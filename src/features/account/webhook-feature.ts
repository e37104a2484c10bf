import { Composer } from "grammy";
import { createConversation, type Conversation } from "@grammyjs/conversations";
import { isWebhookAction, webhookData } from "../../bot/callback-data/webhook.js";
import type { BotContext, ConversationContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { ChatRecord } from "../../shared/chats/chat-record.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { credentialKind, looksLikeWebhookSecret } from "../../shared/chats/check-key.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createWebhookCancelKeyboard, createWebhookKeyboard, createWebhookRotateKeyboard } from "./webhook-keyboards.js";
import { WEBHOOK_SECRET_CONVERSATION } from "../../bot/conversations/flow-ids.js";

type SecretConversation = Conversation<BotContext, ConversationContext>;

/** Asks for the secret; the message carrying it is deleted at once, whatever it holds. */
function createWebhookSecretConversation(deps: BotDeps) {
  return async function webhookSecret(conversation: SecretConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const prompt = await sendStepPrompt(conversation, ctx, translate(ctx, "webhook-ask-secret"), {
      ...HTML,
      ...textLinksMarkup(ctx, "webhook-ask-secret", createWebhookCancelKeyboard(ctx, flow)),
    });
    for (;;) {
      const next = await conversation.wait();
      // Another command or another message's button: leave the flow and let it run as usual.
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text;
      if (text === undefined) {
        await ctx.reply(translate(next, "webhook-ask-secret-text"), HTML);
        continue;
      }
      const deleted = await next.deleteMessage().then(
        () => true,
        (error: unknown) =>
          conversation.external(() => {
            deps.logger.warn({ err: error, chatId }, "could not delete a message carrying a webhook secret");
            return false;
          }),
      );
      if (!deleted) await ctx.reply(translate(next, "webhook-delete-failed"), HTML);
      const secret = text.trim();
      if (!looksLikeWebhookSecret(secret)) {
        const said = credentialKind(secret) === "api_key" ? "webhook-secret-is-key" : "webhook-secret-format";
        await ctx.reply(translate(next, said), { ...HTML, ...textLinksMarkup(next, said) });
        continue;
      }
      const stored = await conversation.external(async (outside) => {
        if ((await outside.linked()) === undefined) return false;
        await deps.chats.setWebhookSecret(chatId, secret);
        return true;
      });
      // The flow is over: a Cancel left on the prompt would suggest it still runs.
      await closeStepPrompt(conversation, next, deps, prompt);
      const said = stored ? "webhook-secret-saved" : "not-linked";
      await ctx.reply(translate(next, said), { ...HTML, ...textLinksMarkup(next, said) });
      return;
    }
  };
}

/** The /webhook card of a linked chat. */
function webhookCard(deps: BotDeps, ctx: BotContext, record: ChatRecord, note?: string) {
  const hasSecret = Boolean(record.webhookSecretSealed);
  const url = deps.config.publicUrl && record.routeId ? `${deps.config.publicUrl}/hooks/${record.routeId}` : undefined;
  const keys = [
    ...(note ? [note] : []),
    "webhook-title",
    url ? "webhook-url" : "webhook-no-public-url",
    hasSecret ? "webhook-secret-set" : "webhook-secret-none",
  ];
  const text = keys.map((key) => (key === "webhook-url" && url ? translate(ctx, key, { url: code(url) }) : translate(ctx, key))).join("\n\n");
  return { text, keyboard: textLinksMarkup(ctx, keys, createWebhookKeyboard(ctx, { hasSecret })).reply_markup };
}

/**
 * /webhook: the chat's callback URL `${PUBLIC_URL}/hooks/<routeId>`, the
 * webhook secret (set, change, remove; the message carrying it is deleted at
 * once) and route rotation (the old URL answers 404 from then on).
 * `/webhook secret <SECRET>` sets it in one step.
 */
export function createWebhookFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const conversation = createConversation<BotContext, ConversationContext>(createWebhookSecretConversation(deps), {
    id: WEBHOOK_SECRET_CONVERSATION,
    maxMillisecondsToWait: 10 * 60_000,
  });
  const feature = composer.chatType("private");

  feature.command("webhook", logHandle("command-webhook"), async (ctx) => {
    const args = ctx.match.trim().split(/\s+/).filter(Boolean);
    // Arguments may carry a secret: the message goes first, whatever else happens.
    if (args.length > 0) {
      try {
        await ctx.deleteMessage();
      } catch (error) {
        ctx.logger.warn({ err: error }, "could not delete a message that may carry a webhook secret");
        await ctx.reply(translate(ctx, "webhook-delete-failed"), HTML);
      }
    }
    const account = await ctx.linked();
    if (!account) {
      await ctx.reply(translate(ctx, "not-linked"), { ...HTML, ...textLinksMarkup(ctx, "not-linked") });
      return;
    }
    if (args.length === 0) {
      const card = webhookCard(deps, ctx, account.record);
      await ctx.reply(card.text, { ...HTML, reply_markup: card.keyboard });
      return;
    }
    if (args[0] !== "secret" || args.length > 2) {
      await ctx.reply(translate(ctx, "webhook-usage"), HTML);
      return;
    }
    const secret = args[1];
    if (secret === undefined) {
      await ctx.enterFlow(WEBHOOK_SECRET_CONVERSATION);
      return;
    }
    if (!looksLikeWebhookSecret(secret)) {
      const said = credentialKind(secret) === "api_key" ? "webhook-secret-is-key" : "webhook-secret-format";
      await ctx.reply(translate(ctx, said), { ...HTML, ...textLinksMarkup(ctx, said) });
      return;
    }
    await deps.chats.setWebhookSecret(ctx.chat.id, secret);
    ctx.logger.info("webhook secret set");
    await ctx.reply(translate(ctx, "webhook-secret-saved"), HTML);
  });

  feature.callbackQuery(webhookData.filter, logHandle("callback-webhook"), async (ctx) => {
    const action = webhookData.unpack(ctx.callbackQuery.data)?.action;
    if (!isWebhookAction(action)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const chatId = ctx.chat.id;
    const account = await ctx.linked();
    if (!account) {
      await ctx.answerCallbackQuery();
      await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "not-linked"), { ...HTML, ...textLinksMarkup(ctx, "not-linked") }));
      return;
    }
    await ctx.answerCallbackQuery();
    let note: string | undefined;
    switch (action) {
      case "secret":
        await ctx.enterFlow(WEBHOOK_SECRET_CONVERSATION);
        return;
      case "rotate":
        await editIgnoringUnchanged(() =>
          ctx.editMessageText(translate(ctx, "webhook-rotate-confirm"), {
            ...HTML,
            ...textLinksMarkup(ctx, "webhook-rotate-confirm", createWebhookRotateKeyboard(ctx)),
          }),
        );
        return;
      case "remove":
        await deps.chats.setWebhookSecret(chatId, undefined);
        ctx.logger.info("webhook secret removed");
        note = "webhook-secret-removed";
        break;
      case "rotate-yes":
        await deps.chats.rotateRoute(chatId);
        ctx.logger.info("webhook route rotated");
        note = "webhook-rotated";
        break;
      case "show":
        break;
    }
    // A changed secret or route is read anew; "show" draws what this update already read.
    const record = note === undefined ? account.record : await deps.chats.get(chatId);
    const card = record ? webhookCard(deps, ctx, record, note) : undefined;
    if (card) await editIgnoringUnchanged(() => ctx.editMessageText(card.text, { ...HTML, reply_markup: card.keyboard }));
  });

  return { composer, conversation, routes: { commands: ["webhook"], callbacks: [webhookData] } };
}
