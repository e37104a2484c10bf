import { GrammyError } from "grammy";
import type { ChatMember } from "grammy/types";
import type { BotContext } from "../context.js";

/**
 * Whether the bot may delete other members' messages in a group, from
 * getChatMember (cached per chat) or from the my_chat_member update that
 * changed it. Asking first keeps Telegram's "message can't be deleted"
 * refusals (and their log noise) out of every refused group command.
 */
export interface GroupRights {
  canDelete(ctx: BotContext): Promise<boolean>;
  /** The bot's membership as Telegram just reported it (my_chat_member): fresher than the cache. */
  remember(chatId: number, member: ChatMember): void;
  /** Drops what is known about a chat (a delete was refused after all). */
  forget(chatId: number): void;
}

export interface GroupRightsDeps {
  /** Default 5 minutes: rights rarely change, and my_chat_member reports changes anyway. */
  ttlMs?: number;
  /** Bounds memory; the oldest entries go first. Default 10 000 chats. */
  maxChats?: number;
  now?: () => number;
}

export function canDeleteMessages(member: ChatMember): boolean {
  if (member.status === "creator") return true;
  return member.status === "administrator" && member.can_delete_messages;
}

/** Telegram's refusal to delete another member's message without the right. */
export function isCannotDelete(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes("message can't be deleted");
}

export function createGroupRights(deps: GroupRightsDeps = {}): GroupRights {
  const ttlMs = deps.ttlMs ?? 5 * 60_000;
  const maxChats = deps.maxChats ?? 10_000;
  const now = deps.now ?? Date.now;
  const known = new Map<number, { canDelete: boolean; until: number }>();

  function set(chatId: number, canDelete: boolean): void {
    known.delete(chatId);
    if (known.size >= maxChats) {
      const oldest = known.keys().next();
      if (!oldest.done) known.delete(oldest.value);
    }
    known.set(chatId, { canDelete, until: now() + ttlMs });
  }

  return {
    async canDelete(ctx) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return false;
      if (ctx.chat?.type === "private") return true;
      const cached = known.get(chatId);
      if (cached && cached.until > now()) return cached.canDelete;
      try {
        const member = await ctx.api.getChatMember(chatId, ctx.me.id);
        set(chatId, canDeleteMessages(member));
      } catch (error) {
        ctx.logger.warn({ err: error }, "could not read the bot's rights in a group");
        return false;
      }
      return known.get(chatId)?.canDelete ?? false;
    },
    remember(chatId, member) {
      set(chatId, canDeleteMessages(member));
    },
    forget(chatId) {
      known.delete(chatId);
    },
  };
}
