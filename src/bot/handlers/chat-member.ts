import { Composer } from "grammy";
import type { ChatMember } from "grammy/types";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { privateChatKeyboard } from "../middlewares/group-guard.js";
import type { GroupRights } from "../middlewares/group-rights.js";

export interface ChatMemberFeatureOptions {
  rights: GroupRights;
}

const isIn = (member: ChatMember): boolean =>
  member.status === "member" || member.status === "administrator" || member.status === "creator" || (member.status === "restricted" && member.is_member);

/**
 * The bot's own membership (my_chat_member). Private chats: Telegram tells
 * the bot when a user blocks it ("kicked") or unblocks it ("member"), so
 * notifications stop and resume at once, instead of only after a send fails
 * with 403 or the user happens to send /start. Groups: the reported rights
 * refresh the delete-right cache, and being added greets the group once.
 * Nothing is stored for a group.
 */
export function createChatMemberFeature(deps: BotDeps, options: ChatMemberFeatureOptions): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const changes = composer.on("my_chat_member");
  changes.chatType("private").use(logHandle("my-chat-member"), async (ctx) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (status === "kicked") {
      // A chat the bot never stored needs no record just to say it is gone.
      if (await ctx.chatRecord()) await deps.chats.markInactive(ctx.chat.id);
    } else if (status === "member") {
      await deps.chats.markActive(ctx.chat.id);
    }
  });
  changes.chatType(["group", "supergroup"]).use(logHandle("my-chat-member-group"), async (ctx) => {
    const { old_chat_member: before, new_chat_member: now } = ctx.myChatMember;
    options.rights.remember(ctx.chat.id, now);
    if (isIn(before) || !isIn(now)) return;
    ctx.logger.info({ status: now.status }, "added to a group");
    await ctx.reply(translate(ctx, "group-hello"), { ...HTML, reply_markup: privateChatKeyboard(ctx) });
  });
  return composer;
}
