import { InlineKeyboard } from "grammy";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { webhookData } from "../../bot/callback-data/webhook.js";
import type { ConversationContext } from "../../bot/context.js";

/** The /webhook card: set or change the secret, remove it, get a new URL. */
export function createWebhookKeyboard(ctx: Pick<ConversationContext, "t">, state: { hasSecret: boolean }): InlineKeyboard {
  const keyboard = new InlineKeyboard().text(
    ctx.t(state.hasSecret ? "webhook-change-secret-button" : "webhook-set-secret-button"),
    webhookData.pack({ action: "secret" }),
  );
  if (state.hasSecret) keyboard.text(ctx.t("webhook-remove-secret-button"), webhookData.pack({ action: "remove" }));
  return keyboard.row().text(ctx.t("webhook-rotate-button"), webhookData.pack({ action: "rotate" }));
}

/** Rotation breaks the URL pasted in the dashboard: confirm first, cancel last. */
export function createWebhookRotateKeyboard(ctx: Pick<ConversationContext, "t">): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t("webhook-rotate-confirm-button"), webhookData.pack({ action: "rotate-yes" }))
    .text(ctx.t("webhook-rotate-cancel-button"), webhookData.pack({ action: "show" }));
}

export function createWebhookCancelKeyboard(ctx: Pick<ConversationContext, "t">, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("webhook-cancel-button"), cancelData.pack({ flow: "webhook", instance: flow }));
}
