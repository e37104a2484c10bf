import { InlineKeyboard } from "grammy";
import { unlinkData } from "../../bot/callback-data/unlink.js";
import type { ConversationContext } from "../../bot/context.js";

/** Confirm first, cancel last. */
export function createUnlinkKeyboard(ctx: Pick<ConversationContext, "t">): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t("unlink-confirm-button"), unlinkData.pack({ answer: "yes" }))
    .text(ctx.t("unlink-cancel-button"), unlinkData.pack({ answer: "no" }));
}
