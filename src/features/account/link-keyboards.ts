import { InlineKeyboard } from "grammy";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { linkData } from "../../bot/callback-data/link.js";
import type { ConversationContext } from "../../bot/context.js";

export function createLinkCancelKeyboard(ctx: Pick<ConversationContext, "t">, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("link-cancel-button"), cancelData.pack({ flow: "link", instance: flow }));
}

/** The webhook secret is optional: Skip first, Cancel last. */
export function createLinkSecretKeyboard(ctx: Pick<ConversationContext, "t">, flow: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t("link-skip-button"), linkData.pack({ action: "skip", instance: flow }))
    .text(ctx.t("link-cancel-button"), cancelData.pack({ flow: "link", instance: flow }));
}
