import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged } from "./edit.js";
import { HTML, translate } from "./html.js";

/**
 * The chat's API key, or undefined after telling the user to /link. A key
 * whose sealed value does not open for this chat counts as not linked.
 */
export async function requireApiKey(ctx: BotContext, deps: Pick<BotDeps, "chats">): Promise<string | undefined> {
  const chatId = ctx.chat?.id;
  const key = chatId === undefined ? undefined : await deps.chats.getApiKey(chatId);
  if (key === undefined) await ctx.reply(translate(ctx, "not-linked"), HTML);
  return key;
}

/**
 * For a button press: as `requireApiKey`, but the press is answered first when
 * the chat has no key (otherwise the caller answers it with its own outcome).
 * `madeUnder` is the link a quote or draft was made under: after /unlink and
 * any new link it is void (its buttons go), whichever account is linked now.
 */
export async function requireApiKeyForButton(ctx: BotContext, deps: Pick<BotDeps, "chats">, madeUnder?: { linkId?: string | undefined }): Promise<string | undefined> {
  const chatId = ctx.chat?.id;
  const key = chatId === undefined ? undefined : await deps.chats.getApiKey(chatId);
  if (key !== undefined && madeUnder?.linkId !== undefined && chatId !== undefined && (await deps.chats.get(chatId))?.linkId !== madeUnder.linkId) {
    await ctx.answerCallbackQuery({ text: ctx.t("account-confirm-void"), show_alert: true });
    await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
    return undefined;
  }
  if (key !== undefined) return key;
  await ctx.answerCallbackQuery();
  await ctx.reply(translate(ctx, "not-linked"), HTML);
  return undefined;
}
