import { Composer } from "grammy";
import { unlinkData } from "../../bot/callback-data/unlink.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createUnlinkKeyboard } from "./unlink-keyboards.js";

/**
 * /unlink asks first; the confirm button removes key, secret, route and the
 * account (quotes and drafts made before become void: `linkedForButton`),
 * and stops tracking. The account's history stays under the account and
 * returns with it (order-history.ts); locale, settings and saved addresses stay.
 */
export function createUnlinkFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command(
    "unlink",
    logHandle("command-unlink"),
    linkedOnly(async (ctx) => {
      await ctx.reply(translate(ctx, "unlink-confirm"), { ...HTML, reply_markup: createUnlinkKeyboard(ctx) });
    }),
  );

  feature.callbackQuery(unlinkData.filter, logHandle("callback-unlink"), async (ctx) => {
    const answer = unlinkData.unpack(ctx.callbackQuery.data)?.answer;
    await ctx.answerCallbackQuery();
    if (answer !== "yes") {
      await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "unlink-kept"), HTML));
      return;
    }
    // The account's other chats stay linked, and its callback URL keeps serving them: the text says so.
    const accountId = (await deps.chats.account(ctx.chat.id))?.id;
    const others = accountId === undefined ? [] : (await deps.chats.accountChats(accountId)).filter((c) => c !== ctx.chat.id);
    const removed = await deps.chats.unlink(ctx.chat.id);
    ctx.forgetChat();
    // Its records belong to the account that left: no status of them is announced here any more.
    const untracked = removed ? await deps.flows.tracker.stopChat(ctx.chat.id) : undefined;
    ctx.logger.info({ removed, untracked, otherChats: others.length }, "chat unlinked");
    const said = removed ? (others.length > 0 ? "unlink-done-shared" : "unlink-done") : "not-linked";
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, said, { count: others.length }), { ...HTML, ...textLinksMarkup(ctx, said) }));
  });

  return { composer, routes: { commands: ["unlink"], callbacks: [unlinkData] } };
}
