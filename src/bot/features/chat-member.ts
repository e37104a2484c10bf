import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { logHandle } from "../helpers/logging.js";

/**
 * Telegram tells the bot when a user blocks it ("kicked") or unblocks it
 * ("member"). Notifications then stop and resume at once, instead of only
 * after a send fails with 403 or the user happens to send /start.
 */
export function createChatMemberFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").on("my_chat_member", logHandle("my-chat-member"), async (ctx) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (status === "kicked") {
      // A chat the bot never stored needs no record just to say it is gone.
      if (await deps.chats.get(ctx.chat.id)) await deps.chats.markInactive(ctx.chat.id);
    } else if (status === "member") {
      await deps.chats.markActive(ctx.chat.id);
    }
  });
  return composer;
}
