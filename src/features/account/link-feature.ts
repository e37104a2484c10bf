import { Composer } from "grammy";
import { routeIdForLog } from "../../shared/chats/route-id.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { LINK_CONVERSATION } from "../../bot/conversations/flow-ids.js";
import type { BotDeps } from "../../bot/deps.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { checkKey, credentialKind, looksLikeApiKey, looksLikeWebhookSecret, storeLink } from "../../shared/chats/check-key.js";
import { linkedText, notStoredText } from "./link-texts.js";
import { createLinkAgainKeyboard, createLinkedKeyboard } from "./link-keyboards.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { resumeAfterLink } from "../../bot/helpers/resume-after-link.js";
import { chatLanguageCode, chatTitle } from "../../bot/middlewares/telegram-language.js";

/**
 * /link opens the guided flow; `/link <API_KEY> [WEBHOOK_SECRET]` links in
 * one step. The message carrying the key is deleted before anything else.
 */
export function createLinkFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command("link", logHandle("command-link"), async (ctx) => {
    const args = ctx.match.trim().split(/\s+/).filter(Boolean);
    if (args.length === 0) {
      await ctx.enterFlow(LINK_CONVERSATION);
      return;
    }
    await ctx.deleteMessage().catch((error: unknown) => ctx.logger.warn({ err: error }, "could not delete the message with a key"));
    const [apiKey = "", webhookSecret, ...rest] = args;
    if (credentialKind(apiKey) === "webhook_secret" || (webhookSecret !== undefined && credentialKind(webhookSecret) === "api_key")) {
      // Never sent to the service: a webhook secret as `Bearer whsec_…` would only be refused as an invalid key.
      await ctx.reply(translate(ctx, "link-one-shot-swapped"), HTML);
      return;
    }
    if (rest.length > 0 || !looksLikeApiKey(apiKey) || (webhookSecret !== undefined && !looksLikeWebhookSecret(webhookSecret))) {
      await ctx.reply(translate(ctx, "link-usage"), HTML);
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const check = await checkKey(deps.service, apiKey);
    if (check.kind === "unavailable" || check.kind === "refused") {
      ctx.logger.info({ code: check.error.code }, "key not linked");
      const said = notStoredText(ctx, check, locale);
      await ctx.reply(said.text, { ...HTML, ...textLinksMarkup(ctx, said.keys, createLinkAgainKeyboard(ctx)) });
      return;
    }
    const { record, relinked, sharedRoute } = await storeLink(deps, ctx.chat.id, {
      apiKey,
      webhookSecret,
      check,
      languageCode: chatLanguageCode(ctx),
      title: chatTitle(ctx),
    });
    ctx.forgetChat();
    ctx.logger.info({ routeId: record.routeId === undefined ? undefined : routeIdForLog(record.routeId), relinked, sharedRoute }, "chat linked");
    const said = linkedText(ctx, deps, { check, routeId: record.routeId, hasSecret: webhookSecret !== undefined, relinked, sharedRoute }, locale);
    await ctx.reply(said.text, { ...HTML, ...textLinksMarkup(ctx, said.keys, createLinkedKeyboard(ctx, check)) });
    await resumeAfterLink(ctx, deps);
  });

  return { composer, routes: { commands: ["link"] } };
}
