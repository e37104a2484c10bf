import type { Middleware } from "grammy";
import { textLinksMarkup } from "../keyboards/links.js";
import { detectSecret } from "../../shared/broadcasts/secret-detect.js";
import type { BotContext } from "../context.js";
import { HTML, translate } from "../helpers/html.js";
import type { PastedKeyHandler } from "../../features/account/index.js";
import { isJustLinked } from "../helpers/resume-after-link.js";
import { extractServiceSecret } from "../helpers/service-secret.js";

export interface ServiceSecretGuardDeps {
  /** Conversations that ask for a key or secret themselves (they delete the message). */
  expectingSecrets: readonly string[];
  /** Takes a key pasted into a chat without one (links it); the warning goes out only when it declines. */
  pastedKey?: PastedKeyHandler;
}

/**
 * A private-chat message that looks like the service's API key or webhook
 * secret is deleted with a warning (revoke it if it was real), whatever the
 * chat is doing: outside any flow, or inside a flow that did not ask for a
 * key. Installed before the conversation builders, which would swallow it.
 * An API key in a chat with no key yet is the user linking: `pastedKey`
 * links it instead of warning. Commands (`/link KEY`, `/webhook secret X`) are their features' business,
 * and so are wallet secrets (detectSecret: order/broadcast features).
 */
export function serviceSecretGuard(deps: ServiceSecretGuardDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    if (ctx.chat?.type !== "private") return next();
    const text = ctx.msg?.text ?? ctx.msg?.caption;
    if (text === undefined || text.startsWith("/") || detectSecret(text) !== null) return next();
    const found = extractServiceSecret(text);
    if (found === undefined) return next();
    const { kind } = found;
    const active = Object.keys(ctx.conversation.active());
    if (active.some((id) => deps.expectingSecrets.includes(id))) return next();
    const deleted = await ctx.deleteMessage().then(
      () => true,
      (error: unknown) => {
        ctx.logger.warn({ err: error, kind }, "could not delete a message that looked like a service key");
        return false;
      },
    );
    if (await deps.pastedKey?.(ctx, { ...found, deleted })) {
      // Linked with a deep link waiting: the start feature, past the builders, opens the flow it names.
      if (isJustLinked(ctx) && active.length === 0) return next();
      return;
    }
    ctx.logger.warn({ kind, deleted, inFlow: active.length > 0 }, "a message looked like a service key");
    const said = deleted ? "unhandled-key-deleted" : "unhandled-key-not-deleted";
    await ctx.reply(translate(ctx, said), { ...HTML, ...textLinksMarkup(ctx, said) });
  };
}
