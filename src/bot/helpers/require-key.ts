import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
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
 */
export async function requireApiKeyForButton(ctx: BotContext, deps: Pick<BotDeps, "chats">): Promise<string | undefined> {
  const chatId = ctx.chat?.id;
  const key = chatId === undefined ? undefined : await deps.chats.getApiKey(chatId);
  if (key !== undefined) return key;
  await ctx.answerCallbackQuery();
  await ctx.reply(translate(ctx, "not-linked"), HTML);
  return undefined;
}
