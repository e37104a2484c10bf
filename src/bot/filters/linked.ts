import type { Middleware } from "grammy";
import type { LinkedChat } from "../../shared/chats/chat-repository.js";
import type { BotContext } from "../context.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { textLinksMarkup } from "../keyboards/links.js";

/** A context that passed the gate: the chat's opened key and record. */
export type LinkedContext<C extends BotContext = BotContext> = C & { account: LinkedChat };

/**
 * The one "linked?" gate for commands and messages: a chat without a key
 * that opens for it hears "not linked" (a button press is answered first) and
 * the handler does not run; otherwise the handler gets `ctx.account`.
 */
export function linkedOnly<C extends BotContext>(handler: (ctx: LinkedContext<C>, next: () => Promise<void>) => unknown): Middleware<C> {
  return async (ctx, next) => {
    const account = await ctx.linked();
    if (account === undefined) {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery();
      await ctx.reply(translate(ctx, "not-linked"), { ...HTML, ...textLinksMarkup(ctx, "not-linked") });
      return;
    }
    // Object.assign returns ctx itself, the same Context instance, now carrying the account.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    await handler(Object.assign(ctx, { account }), next);
  };
}

/**
 * For a button press: the account, or undefined after answering the press
 * ("not linked"). `madeUnder` is the link a quote or draft was made under:
 * after /unlink and any new link it is void (its buttons go), whichever
 * account is linked now.
 */
export async function linkedForButton(ctx: BotContext, madeUnder?: { linkId?: string | undefined }): Promise<LinkedChat | undefined> {
  const account = await ctx.linked();
  if (account !== undefined && madeUnder?.linkId !== undefined && account.record.linkId !== madeUnder.linkId) {
    await ctx.answerCallbackQuery({ text: ctx.t("account-confirm-void"), show_alert: true });
    await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
    return undefined;
  }
  if (account !== undefined) return account;
  await ctx.answerCallbackQuery();
  await ctx.reply(translate(ctx, "not-linked"), { ...HTML, ...textLinksMarkup(ctx, "not-linked") });
  return undefined;
}
