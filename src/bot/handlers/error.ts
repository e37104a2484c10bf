import { GrammyError, type BotError } from "grammy";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { BotContext } from "../context.js";
import { isUneditable } from "../helpers/edit.js";
import { errorText, errorTextKey } from "../helpers/error-text.js";
import { textLinksMarkup } from "../keyboards/links.js";
import { HTML } from "../helpers/html.js";
import type { AnsweredQueries } from "../middlewares/answered-queries.js";
import { markUpdateFailed } from "../middlewares/update-context.js";

export interface ErrorHandlerDeps {
  chats: Pick<ChatRepository, "markInactive">;
  answered: Pick<AnsweredQueries, "has">;
}

/**
 * The error boundary: logs the failure with the update context (never a key:
 * ServiceError messages carry none, and the logger redacts key fields) and
 * answers with one short localized line. A stack trace never reaches a user.
 */
export function createErrorHandler(deps: ErrorHandlerDeps) {
  return async (err: BotError<BotContext>): Promise<void> => {
    const { ctx, error } = err;
    markUpdateFailed(ctx);
    // ctx.logger already carries update_id and chat_id (update context): never add them again.
    const logger = ctx.logger;
    const chatId = ctx.chat?.id;
    // Blocked or kicked: an everyday event, not a bug. Nothing can be sent there; stop notifying the chat.
    if (error instanceof GrammyError && error.error_code === 403 && chatId !== undefined) {
      logger.info({ description: error.description }, "chat is unreachable; marked inactive");
      await deps.chats.markInactive(chatId).catch((markError: unknown) => logger.warn({ err: markError }, "could not mark the chat inactive"));
      return;
    }
    // A button on a message that is gone or cannot be edited (old, forged): the button has expired.
    if (ctx.callbackQuery && isUneditable(error)) {
      logger.info({ description: (error as GrammyError).description }, "button on a message that cannot be edited");
      if (!deps.answered.has(ctx.callbackQuery.id)) {
        await ctx
          .answerCallbackQuery({ text: ctx.t("button-expired") })
          .catch((answerError: unknown) => logger.warn({ err: answerError }, "could not answer a stale button"));
      }
      return;
    }
    if (ServiceError.isInstance(error)) {
      logger.warn({ code: error.code, status: error.status, requestId: error.requestId }, "service call failed");
    } else {
      logger.error({ err: error }, "update failed");
    }
    try {
      // A second answer would be refused; only stop a spinner nobody stopped yet.
      if (ctx.callbackQuery && !deps.answered.has(ctx.callbackQuery.id)) await ctx.answerCallbackQuery();
      if (ctx.inlineQuery) {
        await ctx.answerInlineQuery([], { cache_time: 0 });
        return;
      }
      if (chatId === undefined) return;
      const locale = await ctx.i18n.getLocale();
      await ctx.reply(errorText(ctx, error, locale), { ...HTML, ...textLinksMarkup(ctx, errorTextKey(error)) });
    } catch (replyError) {
      logger.warn({ err: replyError }, "could not tell the user about the failure");
    }
  };
}
