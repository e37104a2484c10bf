import { routeIdForLog } from "../../shared/chats/route-id.js";
import type { BotContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { checkKey, looksLikeApiKey, storeLink } from "../../shared/chats/check-key.js";
import { linkedText, notStoredText } from "./link-texts.js";
import { createLinkAgainKeyboard, createLinkedKeyboard } from "./link-keyboards.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { markJustLinked, startIntentsOf } from "../../bot/helpers/resume-after-link.js";
import { chatLanguageCode, chatTitle } from "../../bot/middlewares/telegram-language.js";

/** The guard's view of a pasted credential, after it tried to delete the message. */
export interface PastedKey {
  kind: "api_key" | "webhook_secret" | "token";
  value: string;
  deleted: boolean;
}

/** Handles a pasted key and says so with true; false leaves the guard's own warning. */
export type PastedKeyHandler = (ctx: BotContext, key: PastedKey) => Promise<boolean>;

/**
 * An API key pasted into a private chat that has no key yet is the user
 * trying to link, not a leak: it is checked with GET /v1/balance and linked,
 * exactly as `/link KEY` would (the guard already deleted the message). A
 * chat that already has a key keeps the guard's warning for another key:
 * replacing a working key because of a paste would be a surprise, and /link
 * replaces it on purpose. Its own key pasted again is only acknowledged.
 * A webhook secret is never linked as a key.
 */
export function createPastedKeyLinker(deps: BotDeps): PastedKeyHandler {
  return async (ctx, key) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || key.kind === "webhook_secret" || !looksLikeApiKey(key.value)) return false;
    const linked = await ctx.linked();
    if (linked !== undefined) {
      // The very key this chat already uses went only to the bot that holds it: nothing to revoke.
      if (linked.apiKey !== key.value) return false;
      const parts = [translate(ctx, "paste-key-same")];
      if (!key.deleted) parts.push(translate(ctx, "paste-key-delete-yourself"));
      await ctx.reply(parts.join("\n\n"), HTML);
      return true;
    }
    const locale = await ctx.i18n.getLocale();
    const check = await checkKey(deps.service, key.value);
    const parts: string[] = [];
    const mentions: string[] = [];
    let keyboard: ReturnType<typeof createLinkedKeyboard>;
    if (check.kind === "unavailable" || check.kind === "refused") {
      ctx.logger.info({ code: check.error.code }, "a pasted key was not linked");
      const said = notStoredText(ctx, check, locale);
      parts.push(translate(ctx, "paste-key-tried"), said.text);
      mentions.push(...said.keys);
      keyboard = createLinkAgainKeyboard(ctx);
    } else {
      const { record, sharedRoute } = await storeLink(deps, chatId, {
        apiKey: key.value,
        webhookSecret: undefined,
        check,
        languageCode: chatLanguageCode(ctx),
        title: chatTitle(ctx),
      });
      ctx.forgetChat();
      ctx.logger.info({ routeId: record.routeId === undefined ? undefined : routeIdForLog(record.routeId), pasted: true }, "chat linked");
      const said = linkedText(ctx, deps, { check, routeId: record.routeId, hasSecret: false, relinked: false, sharedRoute }, locale);
      parts.push(translate(ctx, "paste-key-linked"), said.text);
      mentions.push(...said.keys);
      keyboard = createLinkedKeyboard(ctx, check);
    }
    if (!key.deleted) parts.push(translate(ctx, "paste-key-delete-yourself"));
    await ctx.reply(parts.join("\n\n"), { ...HTML, ...textLinksMarkup(ctx, mentions, keyboard) });
    // A deep link followed before linking (an order preset) opens now, as after /link. This runs before the
    // conversation builders, where no flow can be entered: the start feature carries it out (the guard passes it on).
    if (check.kind !== "unavailable" && check.kind !== "refused" && (await startIntentsOf(deps).peek(chatId))) markJustLinked(ctx);
    return true;
  };
}
